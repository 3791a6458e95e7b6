# roofline_percent_vs_fabric.pe.input_queue_depth_by_radius: written by cgrasim; run again with: gnuplot roofline_percent_vs_fabric.pe.input_queue_depth_by_radius.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'roofline_percent_vs_fabric.pe.input_queue_depth_by_radius.svg'
set title '% of the roofline over entries per PE input queue, by radius'."\n".'stencil 2d, grid 960x449, workers auto; built-in architecture (paper.yaml), run.threads 1'
set grid
set key outside right top
set key title 'radius [points]'
set xlabel 'entries per PE input queue (fabric.pe.input_queue_depth)'
set ylabel '% of the roofline'
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
plot $line0 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 title '4', $line1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 title '8', $line2 using 1:2 with linespoints lw 2 pt 9 ps 1.3 dt 3 title '12'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'roofline_percent_vs_fabric.pe.input_queue_depth_by_radius.png'
replot
unset output
