op a ADD
op a MUL coef=1
edge a.out -> b.in
