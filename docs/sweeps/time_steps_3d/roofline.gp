# roofline: written by cgrasim; run again with: gnuplot roofline.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline.svg'
set title 'Roofline of the fabric (614.4 GFLOP/s: every MAC PE, 2 flops a cycle); every done point of the sweep'
set logscale xy
set grid
set key below
set samples 400
set xrange [0.1815962791442871:24.576]
set xlabel 'arithmetic intensity [flop/B] (useful flops / ideal bytes)'
set ylabel 'achieved [GFLOP/s]'
$points << EOD
0.7263851165771484 74.78503487634751
0.7263851165771484 74.79421452097952
1.4527702331542969 53.75268872536407
1.4527702331542969 149.24341756133404
2.1791553497314453 50.63944485227918
2.1791553497314453 147.68201648085312
2.9055404663085938 45.73950738916256
2.9055404663085938 118.36651045334239
EOD
plot (x*100 < 614.4 ? x*100 : 614.4) with lines lw 2 dt 1 title 'roof, DRAM 100 GB/s', $points using 1:2 with points pt 7 ps 1 lc rgb '#d62728' title 'done points'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline.png'
replot
unset output
