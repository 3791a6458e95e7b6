# gflops_vs_time-steps_by_memory.scratchpad.ports: written by cgrasim; run again with: gnuplot gflops_vs_time-steps_by_memory.scratchpad.ports.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'gflops_vs_time-steps_by_memory.scratchpad.ports.svg'
set title 'achieved GFLOP/s over time steps, by scratchpad requests accepted per cycle'."\n".'stencil 3d, grid 128x64x32, radius 1, workers auto; built-in architecture (paper.yaml), run.threads 1'
set grid
set key outside right top
set xlabel 'time steps'
set ylabel 'achieved GFLOP/s'
set xtics (1, 2, 3, 4)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
1 74.7942145209795
2 149.243417561334
3 147.682016480853
4 118.366510453342
EOD
$line1 << EOD
1 74.7850348763475
2 53.7526887253641
3 50.6394448522792
4 45.7395073891626
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 title 'scratchpad requests accepted per cycle = 64, scratchpad capacity = 1048576, scratchpad banks, 8-byte-word interleaved = 64', $line1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 title 'scratchpad requests accepted per cycle = 16, scratchpad capacity = 262144, scratchpad banks, 8-byte-word interleaved = 16'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'gflops_vs_time-steps_by_memory.scratchpad.ports.png'
replot
unset output
