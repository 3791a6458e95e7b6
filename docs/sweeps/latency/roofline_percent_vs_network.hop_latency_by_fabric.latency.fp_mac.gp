# roofline_percent_vs_network.hop_latency_by_fabric.latency.fp_mac: written by cgrasim; run again with: gnuplot roofline_percent_vs_network.hop_latency_by_fabric.latency.fp_mac.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline_percent_vs_network.hop_latency_by_fabric.latency.fp_mac.svg'
set title '% of the roofline over cycles per mesh hop, by fused multiply-add latency, single rounding'."\n".'stencil 2d, grid 960x120, radius 12, workers 5; built-in architecture (paper.yaml), run.threads 1'
set grid
set key outside right top
set key title 'fused multiply-add latency, single rounding [cycles]'
set xlabel 'cycles per mesh hop (network.hop_latency)'
set ylabel '% of the roofline'
set xtics (1, 2, 4, 8)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
1 72.0821248166857
2 71.7663854639844
4 61.5203181931967
8 36.8517160946351
EOD
$line1 << EOD
1 72.0
2 71.6873014844105
4 59.7471636952998
8 36.394510810544
EOD
$line2 << EOD
1 41.1061552185549
2 41.0162073953195
4 42.788826123965
8 34.2926246918557
EOD
$line3 << EOD
1 21.8220564730954
2 21.8211953197451
4 22.7914309561347
8 15.2668088542853
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 title '2', $line1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 title '4', $line2 using 1:2 with linespoints lw 2 pt 9 ps 1.3 dt 3 title '8', $line3 using 1:2 with linespoints lw 2 pt 11 ps 1.3 dt 4 title '16'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline_percent_vs_network.hop_latency_by_fabric.latency.fp_mac.png'
replot
unset output
