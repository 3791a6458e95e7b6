# gflops_vs_area_mm2: written by cgrasim; run again with: gnuplot gflops_vs_area_mm2.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'gflops_vs_area_mm2.svg'
set title 'GFLOP/s over area: every done point; the Pareto front (most GFLOP/s for the area) joined and labelled'."\n".'stencil 2d, grid 960x120, radius 12, workers 5; built-in architecture (paper.yaml), run.threads 1'
set grid
set key below
set offsets graph 0.05, graph 0.12, graph 0.08, graph 0.05
set xlabel 'fabric area [mm²]'
set ylabel 'achieved GFLOP/s'
$points << EOD
85.24090368 340.858347726902
85.24090368 340.47
85.24090368 194.380731489741
85.24090368 103.19104954715
92.1073152 339.365295262816
92.1073152 338.991326894406
92.1073152 193.955390720617
92.1073152 103.186977368245
105.84013824 290.914204656079
105.84013824 282.529400324149
105.84013824 202.3376615337
105.84013824 107.774979133822
133.30578432 174.262552482506
133.30578432 172.10054299536
133.30578432 162.161249011613
133.30578432 72.1929223697016
EOD
$front << EOD
85.24090368 340.858347726902 "1/2"
EOD
plot $points using 1:2 with points pt 7 ps 1 lc rgb '#1f77b4' title 'done points', \
     $front using 1:2 with linespoints lw 2 pt 7 ps 1.8 lc rgb '#d62728' title 'Pareto front (labels: hop_latency/fp_mac)', \
     $front using 1:2:3 with labels left offset char 0.8,0.7 font ',9' textcolor rgb '#d62728' notitle
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'gflops_vs_area_mm2.png'
replot
unset output
