# cgrasim DFG assembly (docs/asm.md)
# vscale with the store given 32 addresses for 64 words: after 32 stores the store waits on
# an address that never comes, the sync never sees 64, and the run ends as a diagnosed deadlock
# (exit 3). A workload of the statistics reference test (tests/sim/stats_reference_test.cpp).
# Run: cgrasim --asm-run tests/reference/starved_store.asm   (inputs and check: starved_store.yaml)
program starved_store
op ag_x ADDR_GEN base=65536 stride=8 count=64 role=control at=(1,0)
op ld_x LOAD role=reader at=(0,0)
op scale MUL coef=3.0 role=compute at=(0,1)
op ag_y ADDR_GEN base=131072 stride=8 count=32 role=control at=(3,0)
op st_y STORE role=writer at=(2,0)
op done SYNC expected=64 role=sync at=(2,2)
edge ag_x.addr -> ld_x.addr
edge ld_x.data -> scale.in
edge scale.out -> st_y.data
edge ag_y.addr -> st_y.addr
edge st_y.done -> done.in
