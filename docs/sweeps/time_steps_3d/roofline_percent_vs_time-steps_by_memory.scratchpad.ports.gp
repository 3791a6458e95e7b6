# roofline_percent_vs_time-steps_by_memory.scratchpad.ports: written by cgrasim; run again with: gnuplot roofline_percent_vs_time-steps_by_memory.scratchpad.ports.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline_percent_vs_time-steps_by_memory.scratchpad.ports.svg'
set title '% of the roofline over time steps, by scratchpad requests accepted per cycle'."\n".'stencil 3d, grid 128x64x32, radius 1, workers auto; built-in architecture (paper.yaml), run.threads 1'
set grid
set key outside right top
set xlabel 'time steps'
set ylabel '% of the roofline'
set xtics (1, 2, 3, 4)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
1 102.967713426485
2 102.730228191207
3 67.770302148974
4 40.7382075128087
EOD
$line1 << EOD
1 102.955075991572
2 37.0001308525263
3 23.2381068465449
4 15.7421684259911
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 title 'scratchpad requests accepted per cycle = 64, scratchpad capacity = 1048576, scratchpad banks, 8-byte-word interleaved = 64', $line1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 title 'scratchpad requests accepted per cycle = 16, scratchpad capacity = 262144, scratchpad banks, 8-byte-word interleaved = 16'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline_percent_vs_time-steps_by_memory.scratchpad.ports.png'
replot
unset output
