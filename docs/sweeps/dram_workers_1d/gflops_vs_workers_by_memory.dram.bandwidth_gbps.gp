# gflops_vs_workers_by_memory.dram.bandwidth_gbps: written by cgrasim; run again with: gnuplot gflops_vs_workers_by_memory.dram.bandwidth_gbps.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'gflops_vs_workers_by_memory.dram.bandwidth_gbps.svg'
set title 'achieved GFLOP/s over workers, by DRAM peak bandwidth'."\n".'stencil 1d, grid 194400, radius 8; built-in architecture (paper.yaml), run.threads 1'
set grid
set key outside right top
set key title 'DRAM peak bandwidth [GB/s]'
set xlabel 'workers'
set ylabel 'achieved GFLOP/s'
set xtics (1, 2, 4, 6, 8)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
1 31.6405437289083
2 55.293732625545
4 62.007462542291
6 61.9246568950815
8 61.5168736514025
EOD
$line1 << EOD
1 31.641454150841
2 63.1852510958252
4 110.293535075653
6 121.895935010847
8 122.800178673984
EOD
$line2 << EOD
1 31.6418443477081
2 63.1883631587588
4 125.989924218865
6 188.095161763268
8 218.73792731096
EOD
$line3 << EOD
1 31.6418443477081
2 63.1894005811949
4 126.002298210866
6 188.150332420806
8 249.484877163415
EOD
$line4 << EOD
1 31.6418443477081
2 63.1894005811949
4 126.004360779178
6 188.164130142511
8 249.541491879275
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 title '25', $line1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 title '50', $line2 using 1:2 with linespoints lw 2 pt 9 ps 1.3 dt 3 title '100', $line3 using 1:2 with linespoints lw 2 pt 11 ps 1.3 dt 4 title '200', $line4 using 1:2 with linespoints lw 2 pt 13 ps 1.3 dt 5 title '400'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'gflops_vs_workers_by_memory.dram.bandwidth_gbps.png'
replot
unset output
