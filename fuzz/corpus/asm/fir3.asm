# cgrasim DFG assembly (docs/asm.md)
# 3-tap FIR through memory: y[i] = c0*x[i] + c1*x[i+1] + c2*x[i+2], i < 100, as the stencil
# compute chain MUL -> MAC -> MAC (y = fma(c2, x[i+2], fma(c1, x[i+1], c0*x[i]))).
# Three readers stream x, x+1, x+2 from memory; one writer stores y; a SYNC counts the stores.
# Run: cgrasim --asm-run examples/asm/fir3.asm   (inputs and check: fir3.yaml)
program fir3
op r0.addr ADDR_GEN base=65536 stride=8 count=100 role=control worker=0 at=(1,0)
op r0.load LOAD role=reader worker=0 at=(0,0)
op r1.addr ADDR_GEN base=65544 stride=8 count=100 role=control worker=1 at=(3,0)
op r1.load LOAD role=reader worker=1 at=(2,0)
op r2.addr ADDR_GEN base=65552 stride=8 count=100 role=control worker=2 at=(5,0)
op r2.load LOAD role=reader worker=2 at=(4,0)
op w0.mul0 MUL coef=0.25 role=compute worker=0 at=(0,1)
op w0.mac1 MAC coef=0.5 role=compute worker=0 at=(2,1)
op w0.mac2 MAC coef=0.125 role=compute worker=0 at=(4,1)
op wr.addr ADDR_GEN base=131072 stride=8 count=100 role=control at=(7,0)
op wr.store STORE role=writer at=(6,0)
op sync SYNC expected=100 role=sync at=(6,2)
edge r0.addr.addr -> r0.load.addr
edge r1.addr.addr -> r1.load.addr
edge r2.addr.addr -> r2.load.addr
edge r0.load.data -> w0.mul0.in
edge r1.load.data -> w0.mac1.in
edge r2.load.data -> w0.mac2.in
edge w0.mul0.out -> w0.mac1.acc
edge w0.mac1.out -> w0.mac2.acc
edge w0.mac2.out -> wr.store.data
edge wr.addr.addr -> wr.store.addr
edge wr.store.done -> sync.in
