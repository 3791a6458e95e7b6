# roofline: written by cgrasim; run again with: gnuplot roofline.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline.svg'
set title 'Roofline of the fabric and every done point'."\n".'stencil 2d, grid 960x449, radius 12; built-in architecture (paper.yaml), run.threads 1'
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
5.5949853841870825 138.79489469866374
5.5949853841870825 87.86906151262417
5.5949853841870825 140.7709215610569
5.5949853841870825 140.7426815442086
5.5949853841870825 147.95570012589548
EOD
$points1 << EOD
5.5949853841870825 176.08396554674576
5.5949853841870825 87.8693950049624
5.5949853841870825 256.05193598690545
5.5949853841870825 272.8752011031947
5.5949853841870825 294.0304800609601
EOD
$points2 << EOD
5.5949853841870825 176.08463515918527
5.5949853841870825 87.8695617520808
5.5949853841870825 261.4637341539851
5.5949853841870825 350.17181922681345
5.5949853841870825 406.33156656955316
EOD
$points3 << EOD
5.5949853841870825 176.08463515918527
5.5949853841870825 87.8695617520808
5.5949853841870825 261.4637341539851
5.5949853841870825 350.17181922681345
5.5949853841870825 406.33513228906145
EOD
$points4 << EOD
5.5949853841870825 176.08463515918527
5.5949853841870825 87.8695617520808
5.5949853841870825 261.4637341539851
5.5949853841870825 350.17181922681345
5.5949853841870825 406.33513228906145
EOD
plot (x*25 < 614.4 ? x*25 : 614.4) with lines lw 2 lc rgb '#555555' notitle, (x*50 < 614.4 ? x*50 : 614.4) with lines lw 2 lc rgb '#555555' notitle, (x*100 < 614.4 ? x*100 : 614.4) with lines lw 2 lc rgb '#555555' notitle, (x*200 < 614.4 ? x*200 : 614.4) with lines lw 2 lc rgb '#555555' notitle, (x*400 < 614.4 ? x*400 : 614.4) with lines lw 2 lc rgb '#555555' notitle, $points0 using 1:2 with points pt 7 ps 1.4 lc 1 title '25', $points1 using 1:2 with points pt 5 ps 1.4 lc 2 title '50', $points2 using 1:2 with points pt 9 ps 1.4 lc 3 title '100', $points3 using 1:2 with points pt 11 ps 1.4 lc 4 title '200', $points4 using 1:2 with points pt 13 ps 1.4 lc 5 title '400'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline.png'
replot
unset output
