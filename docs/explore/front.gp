# front: written by cgrasim; run again with: gnuplot front.gp
set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'
set output 'front.svg'
$feasible << EOD
85.2409037 3.60395653
81.8540032 3.65009928
70.2409037 2.73505563
77.7409037 3.60660815
70.9671027 3.59552783
78.4671027 3.59370638
66.8540032 2.80874754
EOD
$infeasible << EOD
128.788506 3.23866674
108.467103 3.51144117
96.8540032 3.58594349
121.288506 3.23711308
89.3540032 3.64303771
85.9671027 3.59128647
93.4671027 3.536276
113.788506 3.22310825
92.0147046 3.41101843
100.967103 3.52983694
92.7409037 3.60088444
100.240904 3.5488732
EOD
$front << EOD
81.8540032 3.65009928
77.7409037 3.60660815
EOD
$confirmed << EOD
81.8540032 3.66978234
77.7409037 3.58214114
EOD
$paperpred << EOD
85.2409037 3.60395653
EOD
$papersim << EOD
85.2409037 3.62325903
EOD
set title 'paper-area: maximise gflops_per_mm2 (predicted; confirmed = simulated)'
set xlabel 'area_mm2'
set ylabel 'gflops_per_mm2'
set key outside right top
set grid
plot $feasible using 1:2 with points pt 7 ps 0.6 lc rgb '#9a9a9a' title 'predicted',\
     $infeasible using 1:2 with points pt 2 ps 0.6 lc rgb '#e0a0a0' title 'over a limit',\
     $front using 1:2 with points pt 7 ps 1.2 lw 2 lc rgb '#1f77b4' title 'best (predicted)',\
     $confirmed using 1:2 with points pt 13 ps 1.8 lc rgb '#2ca02c' title 'confirmed (simulated)',\
     $paperpred using 1:2 with points pt 3 ps 2.2 lw 2 lc rgb 'black' title 'paper fabric (predicted)',\
     $papersim using 1:2 with points pt 6 ps 2.2 lw 2 lc rgb 'black' title 'paper fabric (simulated)'
set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'
set output 'front.png'
replot
unset output
