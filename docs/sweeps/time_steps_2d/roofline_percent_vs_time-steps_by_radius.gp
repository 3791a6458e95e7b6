# roofline_percent_vs_time-steps_by_radius: written by cgrasim; run again with: gnuplot roofline_percent_vs_time-steps_by_radius.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline_percent_vs_time-steps_by_radius.svg'
set title '% of the roofline over time steps, by radius'."\n".'stencil 2d, grid 960x449, workers auto; built-in architecture (paper.yaml), run.threads 1'
set grid
set key outside right top
set key title 'radius [points]'
set xlabel 'time steps'
set ylabel '% of the roofline'
set xtics (1, 2, 3, 4, 6)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
1 100.235789983649
2 95.0179450969587
3 94.3937040205304
4 93.946873722926
6 49.8768622535075
EOD
$line1 << EOD
1 100.229720237374
2 96.8481855522919
3 88.9793355553166
4 48.0044547563805
6 20.0954225114168
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 title '1', $line1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 title '2'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline_percent_vs_time-steps_by_radius.png'
replot
unset output
