# roofline: written by cgrasim; run again with: gnuplot roofline.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline.svg'
set title 'Roofline of the fabric (614.4 GFLOP/s: every MAC PE, 2 flops a cycle); every done point of the sweep'
set logscale xy
set grid
set key below
set samples 400
set xrange [1.1821875:24.576]
set xlabel 'arithmetic intensity [flop/B] (useful flops / ideal bytes)'
set ylabel 'achieved [GFLOP/s]'
$points << EOD
4.72875 340.47
4.72875 340.8583477269024
4.72875 194.3807314897413
4.72875 103.1910495471497
4.72875 339.36529526281635
4.72875 338.991326894406
4.72875 193.95539072061712
4.72875 290.9142046560788
4.72875 103.18697736824451
4.72875 202.33766153369962
4.72875 282.5294003241491
4.72875 107.77497913382174
4.72875 174.26255248250584
4.72875 172.10054299535986
4.72875 162.16124901161257
4.72875 72.19292236970162
EOD
plot (x*100 < 614.4 ? x*100 : 614.4) with lines lw 2 dt 1 title 'roof, DRAM 100 GB/s', $points using 1:2 with points pt 7 ps 1 lc rgb '#d62728' title 'done points'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline.png'
replot
unset output
