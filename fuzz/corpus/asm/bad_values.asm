op c CONST value=nan(0x7ff) count=-1
edge c.out -> c.in init=[1,2.5 route=[(0,0)]
