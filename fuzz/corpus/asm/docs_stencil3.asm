# cgrasim DFG assembly (docs/asm.md)
program stencil3
op r0.addr ADDR_GEN base=0 stride=8 count=1000 role=control worker=0 at=(0,0)
op r0.load LOAD role=reader worker=0 at=(0,1)
op w0.x.f0 FILTER mode=pattern m=0 n=998 p=2 role=filter worker=0
op w0.x.mul0 MUL coef=0.25 role=compute worker=0 at=(1,1)
op w0.x.mac1 MAC coef=0.5 role=compute worker=0 at=(2,1)
edge r0.addr.addr -> r0.load.addr
edge r0.load.data -> w0.x.f0.in
edge r0.load.data -> w0.x.mac1.in route=[(0,1),(1,1),(2,1)]
edge w0.x.f0.out -> w0.x.mul0.in
edge w0.x.mul0.out -> w0.x.mac1.acc
