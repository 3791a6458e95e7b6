# roofline_percent_vs_network.hop_latency_by_fabric.latency.fp_mac: written by cgrasim; run again with: gnuplot roofline_percent_vs_network.hop_latency_by_fabric.latency.fp_mac.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline_percent_vs_network.hop_latency_by_fabric.latency.fp_mac.svg'
set title 'roofline_percent over network.hop_latency, by fabric.latency.fp_mac'
set grid
set key outside right top
set key title 'fabric.latency.fp_mac [cycles]'
set xlabel 'network.hop_latency [cycles]'
set ylabel 'roofline_percent [% of the roofline]'
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
plot $line0 using 1:2 with linespoints lw 2 pt 7 title '2', $line1 using 1:2 with linespoints lw 2 pt 7 title '4', $line2 using 1:2 with linespoints lw 2 pt 7 title '8', $line3 using 1:2 with linespoints lw 2 pt 7 title '16'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline_percent_vs_network.hop_latency_by_fabric.latency.fp_mac.png'
replot
unset output
