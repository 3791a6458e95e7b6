# roofline: written by cgrasim; run again with: gnuplot roofline.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline.svg'
set title 'Roofline of the fabric and every done point'."\n".'stencil 2d, grid 960x449, workers auto; built-in architecture (paper.yaml), run.threads 1'
set logscale xy
set grid
set key below horizontal
set samples 400
set key title 'done points by time steps'
set xrange [0.13970694425111357:25.167525055679288]
set yrange [*:1536]
set xlabel 'arithmetic intensity [flop/B] (useful flops / ideal bytes)'
set ylabel 'achieved [GFLOP/s]'
set label 'DRAM 100 GB/s' at 0.16066298588878059, 16.06629858887806 left offset 0, 0.7 font ',10'
set label 'compute 614.4 GFLOP/s (every MAC PE, 2 flops a cycle)' at 21.88480439624286, 614.4 right offset -1, 0.7 font ',10'
$points0 << EOD
0.5588277770044543 56.01454369284806
1.0486468773199702 105.10558314157684
EOD
$points1 << EOD
1.1176555540089086 106.19733406812938
2.0972937546399404 203.11909470703196
EOD
$points2 << EOD
1.676483331013363 158.24947134302823
3.145940631959911 279.92370712826573
EOD
$points3 << EOD
2.235311108017817 210.00049039640373
4.194587509279881 201.35888631090486
EOD
$points4 << EOD
3.352966662026726 167.23545634251002
6.291881263919822 123.46627591014497
EOD
plot (x*100 < 614.4 ? x*100 : 614.4) with lines lw 2 lc rgb '#555555' notitle, $points0 using 1:2 with points pt 7 ps 1.4 lc 1 title '1', $points1 using 1:2 with points pt 5 ps 1.4 lc 2 title '2', $points2 using 1:2 with points pt 9 ps 1.4 lc 3 title '3', $points3 using 1:2 with points pt 11 ps 1.4 lc 4 title '4', $points4 using 1:2 with points pt 13 ps 1.4 lc 5 title '6'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline.png'
replot
unset output
