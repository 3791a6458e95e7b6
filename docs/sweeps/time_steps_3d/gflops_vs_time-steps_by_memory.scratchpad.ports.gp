# gflops_vs_time-steps_by_memory.scratchpad.ports: written by cgrasim; run again with: gnuplot gflops_vs_time-steps_by_memory.scratchpad.ports.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'gflops_vs_time-steps_by_memory.scratchpad.ports.svg'
set title 'gflops over time-steps, by memory.scratchpad.ports'
set grid
set key outside right top
set xlabel 'time-steps [steps]'
set ylabel 'gflops [GFLOP/s]'
set xtics (1, 2, 3, 4)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
1 74.7850348763475
2 53.7526887253641
3 50.6394448522792
4 45.7395073891626
EOD
$line1 << EOD
1 74.7942145209795
2 149.243417561334
3 147.682016480853
4 118.366510453342
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 title 'memory.scratchpad.ports = 16, memory.scratchpad.size_bytes = 262144, memory.scratchpad.banks = 16', $line1 using 1:2 with linespoints lw 2 pt 7 title 'memory.scratchpad.ports = 64, memory.scratchpad.size_bytes = 1048576, memory.scratchpad.banks = 64'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'gflops_vs_time-steps_by_memory.scratchpad.ports.png'
replot
unset output
