# roofline: written by cgrasim; run again with: gnuplot roofline.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline.svg'
set title 'Roofline of the fabric (614.4 GFLOP/s: every MAC PE, 2 flops a cycle); every done point of the sweep'
set logscale xy
set grid
set key below
set samples 400
set xrange [0.13970694425111357:25.167525055679288]
set xlabel 'arithmetic intensity [flop/B] (useful flops / ideal bytes)'
set ylabel 'achieved [GFLOP/s]'
$points << EOD
0.5588277770044543 56.01454369284806
1.0486468773199702 105.10558314157684
1.1176555540089086 106.19733406812938
2.0972937546399404 203.11909470703196
1.676483331013363 158.24947134302823
3.145940631959911 279.92370712826573
2.235311108017817 210.00049039640373
4.194587509279881 201.35888631090486
3.352966662026726 167.23545634251002
6.291881263919822 123.46627591014497
EOD
plot (x*100 < 614.4 ? x*100 : 614.4) with lines lw 2 dt 1 title 'roof, DRAM 100 GB/s', $points using 1:2 with points pt 7 ps 1 lc rgb '#d62728' title 'done points'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline.png'
replot
unset output
