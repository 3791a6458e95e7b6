# roofline: written by cgrasim; run again with: gnuplot roofline.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline.svg'
set title 'Roofline of the fabric and every done point'."\n".'stencil 2d, grid 960x120, radius 12, workers 5; built-in architecture (paper.yaml), run.threads 1'
set logscale xy
set grid
set key below horizontal
set samples 400
set key title 'done points by cycles per mesh hop'
set xrange [1.1821875:24.576]
set yrange [*:1536]
set xlabel 'arithmetic intensity [flop/B] (useful flops / ideal bytes)'
set ylabel 'achieved [GFLOP/s]'
set label 'DRAM 100 GB/s' at 1.3595156249999998, 135.95156249999997 left offset 0, 0.7 font ',10'
set label 'compute 614.4 GFLOP/s (every MAC PE, 2 flops a cycle)' at 21.370434782608697, 614.4 right offset -1, 0.7 font ',10'
$points0 << EOD
4.72875 340.8583477269024
4.72875 340.47
4.72875 194.3807314897413
4.72875 103.1910495471497
EOD
$points1 << EOD
4.72875 339.36529526281635
4.72875 338.991326894406
4.72875 193.95539072061712
4.72875 103.18697736824451
EOD
$points2 << EOD
4.72875 290.9142046560788
4.72875 282.5294003241491
4.72875 202.33766153369962
4.72875 107.77497913382174
EOD
$points3 << EOD
4.72875 174.26255248250584
4.72875 172.10054299535986
4.72875 162.16124901161257
4.72875 72.19292236970162
EOD
plot (x*100 < 614.4 ? x*100 : 614.4) with lines lw 2 lc rgb '#555555' notitle, $points0 using 1:2 with points pt 7 ps 1.4 lc 1 title '1', $points1 using 1:2 with points pt 5 ps 1.4 lc 2 title '2', $points2 using 1:2 with points pt 9 ps 1.4 lc 3 title '4', $points3 using 1:2 with points pt 11 ps 1.4 lc 4 title '8'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline.png'
replot
unset output
