# Sourced by the bench scripts that run the cgrasim command (not run on its own): sets `cg` to
# $CGRASIM when given (a built binary, used as it is), else configures and builds the cgrasim
# target in build directory $dir of source tree $here and takes that binary.
if [ -n "$CGRASIM" ]; then
  cg=$CGRASIM
else
  cmake -S "$here" -B "$dir" >/dev/null
  cmake --build "$dir" --target cgrasim -j2 >/dev/null
  cg="$dir/sim/cgrasim"
fi
