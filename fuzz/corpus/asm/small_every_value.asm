# cgrasim DFG assembly (docs/asm.md)
program tiny
op r0.addr ADDR_GEN base=0 stride=24 count=10 role=control worker=0 at=(0,0)
op r0.load LOAD role=reader worker=0 at=(0,1)
op w0.mul0 MUL coef=0.1 role=compute worker=0 at=(1,1)
op w0.mac1 MAC coef=-2.0 role=compute worker=0 at=(2,1)
op w0.f FILTER mode=pattern m=0 n=8 p=2 role=filter worker=0
op k RAW program="in a -> out x\n\"quoted\"\ttab" ins=[a] outs=[x,y]
op c CONST value=3 count=5
edge r0.addr.addr -> r0.load.addr route=[(0,0),(0,1)]
edge r0.load.data -> w0.f.in
edge r0.load.data -> w0.mac1.in
edge w0.mul0.out -> w0.mac1.acc init=[0.0,-1.5e-300] route=[(1,1),(2,1)]
edge w0.f.out -> w0.mul0.in
edge c.out -> k.a init=[7]
