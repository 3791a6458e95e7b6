#!/usr/bin/env bash
# The cycle prediction against the simulator on random (architecture x stencil) points, the
# generator of tests/sim/random_points.h on grids SCALE times larger than the test's (default 4),
# another seed and count if given: prints the table (point, workers, simulated, predicted, error,
# what binds | parameters) and the median and worst |error|. On demand, not in ctest.
#   bench/prediction_space.sh BUILD_DIR [SCALE] [POINTS] [SEED]
set -euo pipefail
build=${1:?usage: bench/prediction_space.sh BUILD_DIR [SCALE] [POINTS] [SEED]}
test_bin="$build/tests/sim/sim_prediction_space_test"
[[ -x "$test_bin" ]] || { echo "bench/prediction_space.sh: $test_bin not built (cmake --build $build --target sim_prediction_space_test)" >&2; exit 1; }
export CGRA_PREDICTION_SPACE_SCALE=${2:-4}
export CGRA_PREDICTION_SPACE_POINTS=${3:-64}
[[ -n "${4:-}" ]] && export CGRA_PREDICTION_SPACE_SEED=$4
"$test_bin" --gtest_brief=1 | grep -v '^\[==\|^\[--\|^Running main'
