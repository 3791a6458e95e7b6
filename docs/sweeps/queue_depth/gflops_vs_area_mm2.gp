# gflops_vs_area_mm2: written by cgrasim; run again with: gnuplot gflops_vs_area_mm2.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'gflops_vs_area_mm2.svg'
set title 'GFLOP/s over area: every done point; the Pareto front (most GFLOP/s for the area) joined and labelled'."\n".'stencil 2d, grid 960x449, workers auto; built-in architecture (paper.yaml), run.threads 1'
set grid
set key below
set offsets graph 0.05, graph 0.12, graph 0.08, graph 0.05
set xlabel 'fabric area [mm²]'
set ylabel 'achieved GFLOP/s'
$points << EOD
78.46710272 181.685869779031
78.46710272 368.066495809379
85.24090368 201.477843353491
78.46710272 355.75162494814
85.24090368 377.680514588294
98.7885056 201.771268371421
85.24090368 406.331566569553
98.7885056 428.533668974198
98.7885056 393.924285855491
125.88370944 201.945280956199
125.88370944 395.1203479942
125.88370944 435.617103344466
180.07411712 202.185960986525
180.07411712 394.582443286593
180.07411712 437.932528160555
EOD
$front << EOD
78.46710272 368.066495809379 "8/8"
85.24090368 406.331566569553 "16/12"
98.7885056 428.533668974198 "32/12"
125.88370944 435.617103344466 "64/12"
180.07411712 437.932528160555 "128/12"
EOD
plot $points using 1:2 with points pt 7 ps 1 lc rgb '#1f77b4' title 'done points', \
     $front using 1:2 with linespoints lw 2 pt 7 ps 1.8 lc rgb '#d62728' title 'Pareto front (labels: input_queue_depth/radius)', \
     $front using 1:2:3 with labels left offset char 0.8,0.7 font ',9' textcolor rgb '#d62728' notitle
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'gflops_vs_area_mm2.png'
replot
unset output
