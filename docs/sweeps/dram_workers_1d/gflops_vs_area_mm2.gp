# gflops_vs_area_mm2: written by cgrasim; run again with: gnuplot gflops_vs_area_mm2.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'gflops_vs_area_mm2.svg'
set title 'GFLOP/s over area: every done point; the Pareto front (most GFLOP/s for the area) joined and labelled'."\n".'stencil 1d, grid 194400, radius 8; built-in architecture (paper.yaml), run.threads 1'
set grid
set key below
set offsets graph 0.05, graph 0.12, graph 0.08, graph 0.05
set xlabel 'fabric area [mm²]'
set ylabel 'achieved GFLOP/s'
$points << EOD
62.74090368 55.293732625545
62.74090368 31.6405437289083
62.74090368 62.007462542291
62.74090368 61.9246568950815
62.74090368 61.5168736514025
70.24090368 63.1852510958252
70.24090368 31.641454150841
70.24090368 110.293535075653
70.24090368 121.895935010847
70.24090368 122.800178673984
85.24090368 31.6418443477081
85.24090368 63.1883631587588
85.24090368 125.989924218865
85.24090368 188.095161763268
85.24090368 218.73792731096
115.24090368 31.6418443477081
115.24090368 63.1894005811949
115.24090368 126.002298210866
115.24090368 188.150332420806
115.24090368 249.484877163415
175.24090368 31.6418443477081
175.24090368 126.004360779178
175.24090368 63.1894005811949
175.24090368 188.164130142511
175.24090368 249.541491879275
EOD
$front << EOD
62.74090368 62.007462542291 "25/4"
70.24090368 122.800178673984 "50/8"
85.24090368 218.73792731096 "100/8"
115.24090368 249.484877163415 "200/8"
175.24090368 249.541491879275 "400/8"
EOD
plot $points using 1:2 with points pt 7 ps 1 lc rgb '#1f77b4' title 'done points', \
     $front using 1:2 with linespoints lw 2 pt 7 ps 1.8 lc rgb '#d62728' title 'Pareto front (labels: bandwidth_gbps/workers)', \
     $front using 1:2:3 with labels left offset char 0.8,0.7 font ',9' textcolor rgb '#d62728' notitle
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'gflops_vs_area_mm2.png'
replot
unset output
