# roofline: written by cgrasim; run again with: gnuplot roofline.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline.svg'
set title 'Roofline of the fabric and every done point'."\n".'stencil 1d, grid 194400, radius 8; built-in architecture (paper.yaml), run.threads 1'
set logscale xy
set grid
set key below horizontal
set samples 400
set key title 'done points by DRAM peak bandwidth [GB/s]'
set xrange [0.384:98.304]
set yrange [*:1536]
set xlabel 'arithmetic intensity [flop/B] (useful flops / ideal bytes)'
set ylabel 'achieved [GFLOP/s]'
set label 'DRAM 25 GB/s' at 0.4416, 11.04 left offset 0, 0.7 font ',10'
set label 'DRAM 50 GB/s' at 0.4416, 22.08 left offset 0, 0.7 font ',10'
set label 'DRAM 100 GB/s' at 0.4416, 44.16 left offset 0, 0.7 font ',10'
set label 'DRAM 200 GB/s' at 0.4416, 88.32 left offset 0, 0.7 font ',10'
set label 'DRAM 400 GB/s' at 0.4416, 176.64 left offset 0, 0.7 font ',10'
set label 'compute 614.4 GFLOP/s (every MAC PE, 2 flops a cycle)' at 85.48173913043479, 614.4 right offset -1, 0.7 font ',10'
$points0 << EOD
2.0623302469135805 55.293732625545026
2.0623302469135805 31.64054372890831
2.0623302469135805 62.00746254229096
2.0623302469135805 61.92465689508149
2.0623302469135805 61.51687365140254
EOD
$points1 << EOD
2.0623302469135805 63.185251095825194
2.0623302469135805 31.641454150841017
2.0623302469135805 110.29353507565337
2.0623302469135805 121.89593501084737
2.0623302469135805 122.8001786739838
EOD
$points2 << EOD
2.0623302469135805 31.64184434770813
2.0623302469135805 63.188363158758825
2.0623302469135805 125.98992421886508
2.0623302469135805 188.0951617632685
2.0623302469135805 218.7379273109602
EOD
$points3 << EOD
2.0623302469135805 31.64184434770813
2.0623302469135805 63.189400581194896
2.0623302469135805 126.00229821086577
2.0623302469135805 188.15033242080563
2.0623302469135805 249.4848771634148
EOD
$points4 << EOD
2.0623302469135805 31.64184434770813
2.0623302469135805 126.00436077917826
2.0623302469135805 63.189400581194896
2.0623302469135805 188.16413014251142
2.0623302469135805 249.54149187927513
EOD
plot (x*25 < 614.4 ? x*25 : 614.4) with lines lw 2 lc rgb '#555555' notitle, (x*50 < 614.4 ? x*50 : 614.4) with lines lw 2 lc rgb '#555555' notitle, (x*100 < 614.4 ? x*100 : 614.4) with lines lw 2 lc rgb '#555555' notitle, (x*200 < 614.4 ? x*200 : 614.4) with lines lw 2 lc rgb '#555555' notitle, (x*400 < 614.4 ? x*400 : 614.4) with lines lw 2 lc rgb '#555555' notitle, $points0 using 1:2 with points pt 7 ps 1.4 lc 1 title '25', $points1 using 1:2 with points pt 5 ps 1.4 lc 2 title '50', $points2 using 1:2 with points pt 9 ps 1.4 lc 3 title '100', $points3 using 1:2 with points pt 11 ps 1.4 lc 4 title '200', $points4 using 1:2 with points pt 13 ps 1.4 lc 5 title '400'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline.png'
replot
unset output
