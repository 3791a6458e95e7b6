# gflops_vs_workers_by_memory.dram.bandwidth_gbps: written by cgrasim; run again with: gnuplot gflops_vs_workers_by_memory.dram.bandwidth_gbps.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'gflops_vs_workers_by_memory.dram.bandwidth_gbps.svg'
set title 'achieved GFLOP/s over workers, by DRAM peak bandwidth'."\n".'stencil 2d, grid 256x128, radius 2; built-in architecture (paper.yaml)'
set grid
set key outside right top
set key title 'DRAM peak bandwidth [GB/s]'
set xlabel 'workers'
set ylabel 'achieved GFLOP/s'
set xtics (2, 4, 8)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
2 31.3278553174759
4 61.7035330558513
8 93.7853759011329
EOD
$line1 << EOD
2 31.3293949968054
4 61.7095062923524
8 118.179310344828
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 title '50', $line1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 title '100 and 200'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'gflops_vs_workers_by_memory.dram.bandwidth_gbps.png'
replot
unset output
