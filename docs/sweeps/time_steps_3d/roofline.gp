# roofline: written by cgrasim; run again with: gnuplot roofline.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline.svg'
set title 'Roofline of the fabric and every done point'."\n".'stencil 3d, grid 128x64x32, radius 1, workers auto; built-in architecture (paper.yaml), run.threads 1'
set logscale xy
set grid
set key below horizontal
set samples 400
set key title 'done points by time steps'
set xrange [0.1815962791442871:24.576]
set yrange [*:1536]
set xlabel 'arithmetic intensity [flop/B] (useful flops / ideal bytes)'
set ylabel 'achieved [GFLOP/s]'
set label 'DRAM 100 GB/s' at 0.20883572101593015, 20.883572101593014 left offset 0, 0.7 font ',10'
set label 'compute 614.4 GFLOP/s (every MAC PE, 2 flops a cycle)' at 21.370434782608697, 614.4 right offset -1, 0.7 font ',10'
$points0 << EOD
0.7263851165771484 74.79421452097952
0.7263851165771484 74.78503487634751
EOD
$points1 << EOD
1.4527702331542969 53.75268872536407
1.4527702331542969 149.24341756133404
EOD
$points2 << EOD
2.1791553497314453 147.68201648085312
2.1791553497314453 50.63944485227918
EOD
$points3 << EOD
2.9055404663085938 118.36651045334239
2.9055404663085938 45.73950738916256
EOD
plot (x*100 < 614.4 ? x*100 : 614.4) with lines lw 2 lc rgb '#555555' notitle, $points0 using 1:2 with points pt 7 ps 1.4 lc 1 title '1', $points1 using 1:2 with points pt 5 ps 1.4 lc 2 title '2', $points2 using 1:2 with points pt 9 ps 1.4 lc 3 title '3', $points3 using 1:2 with points pt 11 ps 1.4 lc 4 title '4'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline.png'
replot
unset output
