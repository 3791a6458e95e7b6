# gflops_vs_workers_by_memory.dram.bandwidth_gbps: written by cgrasim; run again with: gnuplot gflops_vs_workers_by_memory.dram.bandwidth_gbps.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'gflops_vs_workers_by_memory.dram.bandwidth_gbps.svg'
set title 'achieved GFLOP/s over workers, by DRAM peak bandwidth'."\n".'stencil 2d, grid 960x449, radius 12; built-in architecture (paper.yaml), run.threads 1'
set grid
set key outside right top
set key title 'DRAM peak bandwidth [GB/s]'
set xlabel 'workers'
set ylabel 'achieved GFLOP/s'
set xtics (1, 2, 3, 4, 5)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
1 87.8690615126242
2 138.794894698664
3 140.770921561057
4 140.742681544209
5 147.955700125895
EOD
$line1 << EOD
1 87.8693950049624
2 176.083965546746
3 256.051935986905
4 272.875201103195
5 294.03048006096
EOD
$line2 << EOD
1 87.8695617520808
2 176.084635159185
3 261.463734153985
4 350.171819226813
5 406.331566569553
EOD
$line3 << EOD
1 87.8695617520808
2 176.084635159185
3 261.463734153985
4 350.171819226813
5 406.335132289061
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 title '25', $line1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 title '50', $line2 using 1:2 with linespoints lw 2 pt 9 ps 1.3 dt 3 title '100', $line3 using 1:2 with linespoints lw 2 pt 11 ps 1.3 dt 4 title '200 and 400'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'gflops_vs_workers_by_memory.dram.bandwidth_gbps.png'
replot
unset output
