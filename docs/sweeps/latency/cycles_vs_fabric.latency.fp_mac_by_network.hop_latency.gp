# cycles_vs_fabric.latency.fp_mac_by_network.hop_latency: written by cgrasim; run again with: gnuplot cycles_vs_fabric.latency.fp_mac_by_network.hop_latency.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'cycles_vs_fabric.latency.fp_mac_by_network.hop_latency.svg'
set title 'cycles over fused multiply-add latency, single rounding, by cycles per mesh hop'."\n".'stencil 2d, grid 960x120, radius 12, workers 5; built-in architecture (paper.yaml), run.threads 1'
set grid
set key outside right top
set key title 'cycles per mesh hop'
set xlabel 'fused multiply-add latency, single rounding [cycles] (fabric.latency.fp_mac)'
set ylabel 'cycles'
set xtics (2, 4, 8, 16)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
2 30685
4 30720
8 53808
16 101358
EOD
$line1 << EOD
2 30820
4 30854
8 53926
16 101362
EOD
$line2 << EOD
2 35953
4 37020
8 51692
16 97047
EOD
$line3 << EOD
2 60020
4 60774
8 64499
16 144879
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 title '1', $line1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 title '2', $line2 using 1:2 with linespoints lw 2 pt 9 ps 1.3 dt 3 title '4', $line3 using 1:2 with linespoints lw 2 pt 11 ps 1.3 dt 4 title '8'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'cycles_vs_fabric.latency.fp_mac_by_network.hop_latency.png'
replot
unset output
