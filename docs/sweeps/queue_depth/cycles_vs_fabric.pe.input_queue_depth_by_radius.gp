# cycles_vs_fabric.pe.input_queue_depth_by_radius: written by cgrasim; run again with: gnuplot cycles_vs_fabric.pe.input_queue_depth_by_radius.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'cycles_vs_fabric.pe.input_queue_depth_by_radius.svg'
set title 'cycles over entries per PE input queue, by radius'."\n".'stencil 2d, grid 960x449, workers auto; built-in architecture (paper.yaml), run.threads 1'
set grid
set key outside right top
set key title 'radius [points]'
set xlabel 'entries per PE input queue (fabric.pe.input_queue_depth)'
set ylabel 'cycles'
set logscale x 2
set xtics (8, 16, 32, 64, 128)
set offsets graph 0.03, graph 0.03, 0, 0
$line0 << EOD
8 91506
16 82517
32 82397
64 82326
128 82228
EOD
$line1 << EOD
8 86622
16 84417
32 80936
64 80691
128 80801
EOD
$line2 << EOD
8 130158
16 113956
32 108052
64 106295
128 105733
EOD
plot $line0 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 title '4', $line1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 title '8', $line2 using 1:2 with linespoints lw 2 pt 9 ps 1.3 dt 3 title '12'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'cycles_vs_fabric.pe.input_queue_depth_by_radius.png'
replot
unset output
