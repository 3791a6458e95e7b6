# gflops_vs_average_power_watts: written by cgrasim; run again with: gnuplot gflops_vs_average_power_watts.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'gflops_vs_average_power_watts.svg'
set title 'GFLOP/s over power: every done point; the Pareto front (most GFLOP/s for the power) joined and labelled'."\n".'stencil 2d, grid 960x449, workers auto; built-in architecture (paper.yaml), run.threads 1'
set grid
set key below
set offsets graph 0.05, graph 0.12, graph 0.08, graph 0.05
set xlabel 'average power [W]'
set ylabel 'achieved GFLOP/s'
$points << EOD
43.0120437485836 181.685869779031
45.7714846416876 368.066495809379
43.2614705459162 201.477843353491
40.4333810918002 355.75162494814
48.2143080915818 377.680514588294
43.7237229549016 201.771268371421
42.5364264315848 406.331566569553
43.0302459425932 428.533668974198
49.4649100606084 393.924285855491
41.5837624740318 201.945280956199
47.4686818714943 395.1203479942
43.3831785363678 435.617103344466
38.9050966541609 202.185960986525
52.5130322548914 394.582443286593
45.810069965302 437.932528160555
EOD
$front << EOD
38.9050966541609 202.185960986525 "128/4"
40.4333810918002 355.75162494814 "8/12"
42.5364264315848 406.331566569553 "16/12"
43.0302459425932 428.533668974198 "32/12"
43.3831785363678 435.617103344466 "64/12"
45.810069965302 437.932528160555 "128/12"
EOD
plot $points using 1:2 with points pt 7 ps 1 lc rgb '#1f77b4' title 'done points', \
     $front using 1:2 with linespoints lw 2 pt 7 ps 1.8 lc rgb '#d62728' title 'Pareto front (labels: input_queue_depth/radius)', \
     $front using 1:2:3 with labels left offset char 0.8,0.7 font ',9' textcolor rgb '#d62728' notitle
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'gflops_vs_average_power_watts.png'
replot
unset output
