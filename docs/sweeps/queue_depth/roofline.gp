# roofline: written by cgrasim; run again with: gnuplot roofline.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline.svg'
set title 'Roofline of the fabric and every done point'."\n".'stencil 2d, grid 960x449, workers auto; built-in architecture (paper.yaml), run.threads 1'
set logscale xy
set grid
set key below horizontal
set samples 400
set key title 'done points by entries per PE input queue'
set xrange [0.5022176016146993:24.576]
set yrange [*:1536]
set xlabel 'arithmetic intensity [flop/B] (useful flops / ideal bytes)'
set ylabel 'achieved [GFLOP/s]'
set label 'DRAM 100 GB/s' at 0.5775502418569042, 57.75502418569042 left offset 0, 0.7 font ',10'
set label 'compute 614.4 GFLOP/s (every MAC PE, 2 flops a cycle)' at 21.370434782608697, 614.4 right offset -1, 0.7 font ',10'
$points0 << EOD
2.008870406458797 181.6858697790309
3.8524382887899034 368.06649580937864
5.5949853841870825 355.75162494814
EOD
$points1 << EOD
2.008870406458797 201.47784335349078
3.8524382887899034 377.6805145882938
5.5949853841870825 406.33156656955316
EOD
$points2 << EOD
2.008870406458797 201.7712683714213
5.5949853841870825 428.53366897419755
3.8524382887899034 393.9242858554907
EOD
$points3 << EOD
2.008870406458797 201.94528095619856
3.8524382887899034 395.12034799420013
5.5949853841870825 435.6171033444659
EOD
$points4 << EOD
2.008870406458797 202.1859609865253
3.8524382887899034 394.582443286593
5.5949853841870825 437.93252816055536
EOD
plot (x*100 < 614.4 ? x*100 : 614.4) with lines lw 2 lc rgb '#555555' notitle, $points0 using 1:2 with points pt 7 ps 1.4 lc 1 title '8', $points1 using 1:2 with points pt 5 ps 1.4 lc 2 title '16', $points2 using 1:2 with points pt 9 ps 1.4 lc 3 title '32', $points3 using 1:2 with points pt 11 ps 1.4 lc 4 title '64', $points4 using 1:2 with points pt 13 ps 1.4 lc 5 title '128'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline.png'
replot
unset output
