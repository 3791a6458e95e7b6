# roofline_percent_vs_fabric.pe.input_queue_depth_by_radius: written by cgrasim; run again with: gnuplot roofline_percent_vs_fabric.pe.input_queue_depth_by_radius.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline_percent_vs_fabric.pe.input_queue_depth_by_radius.svg'
set title 'roofline_percent over fabric.pe.input_queue_depth, by radius'
set grid
set key outside right top
set key title 'radius [points]'
set xlabel 'fabric.pe.input_queue_depth [entries]'
set ylabel 'roofline_percent [% of the roofline]'
set logscale x 2
set xtics (8, 16, 32, 64, 128)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
8 90.4418070946168
16 100.294096973957
32 100.440161656371
64 100.526783762116
128 100.646592401615
EOD
$line1 << EOD
8 95.5411789152871
16 98.0367461530261
32 102.25323712563
64 102.563705989516
128 102.424078909914
EOD
$line2 << EOD
8 63.584013276172
16 72.6242409350978
32 76.5924554843964
64 77.8584881697164
128 78.2723274663539
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 title '4', $line1 using 1:2 with linespoints lw 2 pt 7 title '8', $line2 using 1:2 with linespoints lw 2 pt 7 title '12'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline_percent_vs_fabric.pe.input_queue_depth_by_radius.png'
replot
unset output
