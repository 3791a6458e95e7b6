# report.writeback.roofline_percent_vs_workers_by_memory.dram.bandwidth_gbps: written by cgrasim; run again with: gnuplot report.writeback.roofline_percent_vs_workers_by_memory.dram.bandwidth_gbps.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'report.writeback.roofline_percent_vs_workers_by_memory.dram.bandwidth_gbps.svg'
set title '% of the roofline (writeback) over workers, by DRAM peak bandwidth'."\n".'stencil 2d, grid 960x449, radius 12; built-in architecture (paper.yaml), run.threads 1'
set grid
set key outside right top
set key title 'DRAM peak bandwidth [GB/s]'
set xlabel 'workers'
set ylabel '% of the roofline (writeback)'
set xtics (1, 2, 3, 4, 5)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
1 60.2946478821933
2 92.4712408971175
3 94.5611476266785
4 94.5441335229707
5 98.7126277746633
EOD
$line1 << EOD
1 30.7656802973978
2 60.1529851288686
3 86.4732747856706
4 91.821548634765
5 98.0291980313538
EOD
$line2 << EOD
1 15.5422785038339
2 30.7583623227188
3 45.3758656044565
4 60.1805423250606
5 69.1103799582464
EOD
$line3 << EOD
1 14.2271706904754
2 28.3310100690189
3 41.9294724770642
4 55.8768447499926
5 64.495646736898
EOD
$line4 << EOD
1 14.264331271222
2 28.4943620056033
3 42.2403866902443
4 56.4299482793477
5 65.3048881537902
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 title '25', $line1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 title '50', $line2 using 1:2 with linespoints lw 2 pt 9 ps 1.3 dt 3 title '100', $line3 using 1:2 with linespoints lw 2 pt 11 ps 1.3 dt 4 title '200', $line4 using 1:2 with linespoints lw 2 pt 13 ps 1.3 dt 5 title '400'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'report.writeback.roofline_percent_vs_workers_by_memory.dram.bandwidth_gbps.png'
replot
unset output
