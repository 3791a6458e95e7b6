# gflops_vs_time-steps_by_radius: written by cgrasim; run again with: gnuplot gflops_vs_time-steps_by_radius.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'gflops_vs_time-steps_by_radius.svg'
set title 'achieved GFLOP/s over time steps, by radius'."\n".'stencil 2d, grid 960x449, workers auto; built-in architecture (paper.yaml), run.threads 1'
set grid
set key outside right top
set key title 'radius [points]'
set xlabel 'time steps'
set ylabel 'achieved GFLOP/s'
set xtics (1, 2, 3, 4, 6)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
1 56.0145436928481
2 106.197334068129
3 158.249471343028
4 210.000490396404
6 167.23545634251
EOD
$line1 << EOD
1 105.105583141577
2 203.119094707032
3 279.923707128266
4 201.358886310905
6 123.466275910145
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 title '1', $line1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 title '2'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'gflops_vs_time-steps_by_radius.png'
replot
unset output
