# gflops_vs_time-steps_by_radius: written by cgrasim; run again with: gnuplot gflops_vs_time-steps_by_radius.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'gflops_vs_time-steps_by_radius.svg'
set title 'gflops over time-steps, by radius'
set grid
set key outside right top
set key title 'radius [points]'
set xlabel 'time-steps [steps]'
set ylabel 'gflops [GFLOP/s]'
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
plot $line0 using 1:2 with linespoints lw 2 pt 7 title '1', $line1 using 1:2 with linespoints lw 2 pt 7 title '2'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'gflops_vs_time-steps_by_radius.png'
replot
unset output
