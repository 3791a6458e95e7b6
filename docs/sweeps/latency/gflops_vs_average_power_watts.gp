# gflops_vs_average_power_watts: written by cgrasim; run again with: gnuplot gflops_vs_average_power_watts.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'gflops_vs_average_power_watts.svg'
set title 'GFLOP/s over power: every done point; the Pareto front (most GFLOP/s for the power) joined and labelled'."\n".'stencil 2d, grid 960x120, radius 12, workers 5; built-in architecture (paper.yaml), run.threads 1'
set grid
set key below
set offsets graph 0.05, graph 0.12, graph 0.08, graph 0.05
set xlabel 'average power [W]'
set ylabel 'achieved GFLOP/s'
$points << EOD
40.5596046596581 340.858347726902
40.5206533253458 340.47
25.0637114920971 194.380731489741
15.7076133656168 103.19104954715
41.6689374838412 339.365295262816
41.8038165884421 338.991326894406
26.018320938167 193.955390720617
16.1951976512078 103.186977368245
40.4798131224409 290.914204656079
39.6069578136976 282.529400324149
26.8229063903612 202.3376615337
16.7070573473738 107.774979133822
26.9436682223933 174.262552482506
26.6678810108321 172.10054299536
25.9255977254096 162.161249011613
15.7482838620113 72.1929223697016
EOD
$front << EOD
15.7076133656168 103.19104954715 "1/16"
16.7070573473738 107.774979133822 "4/16"
25.0637114920971 194.380731489741 "1/8"
26.8229063903612 202.3376615337 "4/8"
39.6069578136976 282.529400324149 "4/4"
40.4798131224409 290.914204656079 "4/2"
40.5206533253458 340.47 "1/4"
40.5596046596581 340.858347726902 "1/2"
EOD
plot $points using 1:2 with points pt 7 ps 1 lc rgb '#1f77b4' title 'done points', \
     $front using 1:2 with linespoints lw 2 pt 7 ps 1.8 lc rgb '#d62728' title 'Pareto front (labels: hop_latency/fp_mac)', \
     $front using 1:2:3 with labels left offset char 0.8,0.7 font ',9' textcolor rgb '#d62728' notitle
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'gflops_vs_average_power_watts.png'
replot
unset output
