# gflops_vs_area_mm2: written by cgrasim; run again with: gnuplot gflops_vs_area_mm2.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'gflops_vs_area_mm2.svg'
set title 'GFLOP/s over area: every done point; the Pareto front (most GFLOP/s for the area) joined and labelled'."\n".'stencil 2d, grid 960x449, radius 12; built-in architecture (paper.yaml), run.threads 1'
set grid
set key below
set offsets graph 0.05, graph 0.12, graph 0.08, graph 0.05
set xlabel 'fabric area [mm²]'
set ylabel 'achieved GFLOP/s'
$points << EOD
62.74090368 138.794894698664
62.74090368 87.8690615126242
62.74090368 140.770921561057
62.74090368 140.742681544209
62.74090368 147.955700125895
70.24090368 176.083965546746
70.24090368 87.8693950049624
70.24090368 256.051935986905
70.24090368 272.875201103195
70.24090368 294.03048006096
85.24090368 176.084635159185
85.24090368 87.8695617520808
85.24090368 261.463734153985
85.24090368 350.171819226813
85.24090368 406.331566569553
115.24090368 176.084635159185
115.24090368 87.8695617520808
115.24090368 261.463734153985
115.24090368 350.171819226813
115.24090368 406.335132289061
175.24090368 176.084635159185
175.24090368 87.8695617520808
175.24090368 261.463734153985
175.24090368 350.171819226813
175.24090368 406.335132289061
EOD
$front << EOD
62.74090368 147.955700125895 "25/5"
70.24090368 294.03048006096 "50/5"
85.24090368 406.331566569553 "100/5"
115.24090368 406.335132289061 "200/5"
EOD
plot $points using 1:2 with points pt 7 ps 1 lc rgb '#1f77b4' title 'done points', \
     $front using 1:2 with linespoints lw 2 pt 7 ps 1.8 lc rgb '#d62728' title 'Pareto front (labels: bandwidth_gbps/workers)', \
     $front using 1:2:3 with labels left offset char 0.8,0.7 font ',9' textcolor rgb '#d62728' notitle
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'gflops_vs_area_mm2.png'
replot
unset output
