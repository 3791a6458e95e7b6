# roofline: written by cgrasim; run again with: gnuplot roofline.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline.svg'
set title 'Roofline of the fabric (614.4 GFLOP/s: every MAC PE, 2 flops a cycle); every done point of the sweep'
set logscale xy
set grid
set key below
set samples 400
set xrange [0.5022176016146993:24.576]
set xlabel 'arithmetic intensity [flop/B] (useful flops / ideal bytes)'
set ylabel 'achieved [GFLOP/s]'
$points << EOD
2.008870406458797 181.6858697790309
3.8524382887899034 368.06649580937864
2.008870406458797 201.47784335349078
5.5949853841870825 355.75162494814
3.8524382887899034 377.6805145882938
2.008870406458797 201.7712683714213
5.5949853841870825 406.33156656955316
3.8524382887899034 393.9242858554907
2.008870406458797 201.94528095619856
5.5949853841870825 428.53366897419755
3.8524382887899034 395.12034799420013
5.5949853841870825 435.6171033444659
2.008870406458797 202.1859609865253
5.5949853841870825 437.93252816055536
3.8524382887899034 394.582443286593
EOD
plot (x*100 < 614.4 ? x*100 : 614.4) with lines lw 2 dt 1 title 'roof, DRAM 100 GB/s', $points using 1:2 with points pt 7 ps 1 lc rgb '#d62728' title 'done points'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline.png'
replot
unset output
