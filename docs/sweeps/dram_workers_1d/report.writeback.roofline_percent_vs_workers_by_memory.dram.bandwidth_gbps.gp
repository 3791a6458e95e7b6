# report.writeback.roofline_percent_vs_workers_by_memory.dram.bandwidth_gbps: written by cgrasim; run again with: gnuplot report.writeback.roofline_percent_vs_workers_by_memory.dram.bandwidth_gbps.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'report.writeback.roofline_percent_vs_workers_by_memory.dram.bandwidth_gbps.svg'
set title '% of the roofline (writeback) over workers, by DRAM peak bandwidth'."\n".'stencil 1d, grid 194400, radius 8; built-in architecture (paper.yaml), run.threads 1'
set grid
set key outside right top
set key title 'DRAM peak bandwidth [GB/s]'
set xlabel 'workers'
set ylabel '% of the roofline (writeback)'
set xtics (1, 2, 4, 6, 8)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
1 55.6142370229647
2 90.8173606253231
4 99.832296890672
6 99.6051797639618
8 99.2812874052401
EOD
$line1 << EOD
1 29.1757275406274
2 55.5358325211841
4 90.5084992361599
6 98.3590486856841
8 99.2601654123341
EOD
$line2 << EOD
1 14.955883413606
2 29.1335976771051
4 55.3451957295374
6 78.5983827493261
8 90.0434237190003
EOD
$line3 << EOD
1 7.57341124908692
2 14.9339820431157
4 29.0406610335652
6 42.2283567905145
8 54.9136383698691
EOD
$line4 << EOD
1 5.11693271716623
2 10.1535401403657
4 19.9895594007276
6 29.4445505287897
8 38.6531831363959
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 title '25', $line1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 title '50', $line2 using 1:2 with linespoints lw 2 pt 9 ps 1.3 dt 3 title '100', $line3 using 1:2 with linespoints lw 2 pt 11 ps 1.3 dt 4 title '200', $line4 using 1:2 with linespoints lw 2 pt 13 ps 1.3 dt 5 title '400'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'report.writeback.roofline_percent_vs_workers_by_memory.dram.bandwidth_gbps.png'
replot
unset output
