# cgrasim: the two entry points of README.md.
#   make run   install missing Debian packages, configure, build, run the paper's 2D case
#   make test  the same set-up, then the whole test suite through ctest, twice: the normal build
#              ($(BUILD)) and the AddressSanitizer + UndefinedBehaviorSanitizer build
#              ($(ASAN_BUILD), docs/robustness.md); prints the count of registered tests and
#              fails when a run changed the source tree
#   make install  build, then install cgrasim into $(PREFIX)/bin (PREFIX=/usr/local unless given)
#   make tsan  on demand, not part of `make test`: the model and its thread tests built with
#              ThreadSanitizer ($(TSAN_BUILD)) and run (docs/robustness.md)
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= 2
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCGRA_WERROR=ON
# Debug at -O1 (-g -O1): ASan's usual level; at -O0 the simulator ran the suite's longest cases
# up to 30 times slower than the normal build, and the sanitized suite outlasted both compiles.
ASAN_CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-g -O1" -DCGRA_WERROR=ON -DCGRA_SANITIZE=ON
# Leaks fail a test; UB already aborts (-fno-sanitize-recover); a report prints its stack.
# cmake/*.supp hold the few reports that are bugs of Debian's libraries (Graphviz, fontconfig).
ASAN_ENV ?= ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:check_initialization_order=1:suppressions=$(CURDIR)/cmake/asan.supp \
            LSAN_OPTIONS=suppressions=$(CURDIR)/cmake/lsan.supp \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# ThreadSanitizer: the model and model_threads_test only (docs/robustness.md, "ThreadSanitizer").
TSAN_BUILD ?= build-tsan
TSAN_CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCGRA_WERROR=ON -DCGRA_TSAN=ON
TSAN_ENV ?= TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

# No test may go missing silently: ctest fails when a build registers none (--no-tests=error),
# and `make test` prints how many each build registered and fails when a build has fewer than
# TESTS_AT_LEAST or the two builds differ (a folder or target that stopped registering tests).
# Raise TESTS_AT_LEAST when adding tests; lower it only with the commit that removes some.
TESTS_AT_LEAST ?= 901
CTEST = ctest --output-on-failure --no-tests=error -j$(JOBS)
# No test may change the source tree: the state of the work tree (files that differ from HEAD or
# are untracked) is saved before ctest and compared after it, failed or not; a file the run wrote,
# rewrote or left behind fails with its name (a regenerated reference, a stray output). Edits made
# before the run are not flagged; skipped outside a git work tree (scripts/source_tree_guard.sh).
tree_saved = scripts/source_tree_guard.sh save $(1)/source-tree-before-ctest.txt
tree_unchanged = scripts/source_tree_guard.sh check $(1)/source-tree-before-ctest.txt
# $(call registered_tests,<build dir>): prints the count and checks it against TESTS_AT_LEAST.
registered_tests = n=$$(ctest --test-dir $(1) -N | sed -n 's/^Total Tests: //p'); \
	echo "registered tests in $(1): $$n"; \
	test "$$n" -ge $(TESTS_AT_LEAST) || { echo "$(1): $$n registered tests, fewer than TESTS_AT_LEAST=$(TESTS_AT_LEAST)"; exit 1; }

.PHONY: all deps configure build run install test configure-asan build-asan test-normal test-asan tsan clean
all: build

deps:
	bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j$(JOBS)

run: build
	./$(BUILD)/sim/cgrasim --stencil 2d --radius 12 --workers 5

PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

configure-asan: deps
	cmake -S . -B $(ASAN_BUILD) $(ASAN_CMAKE_FLAGS)

build-asan: configure-asan
	cmake --build $(ASAN_BUILD) -j$(JOBS)

# The normal suite first (fast feedback), then the sanitized one.
test: build build-asan
	@$(call registered_tests,$(BUILD))
	@$(call registered_tests,$(ASAN_BUILD))
	@a=$$(ctest --test-dir $(BUILD) -N | sed -n 's/^Total Tests: //p'); \
	 b=$$(ctest --test-dir $(ASAN_BUILD) -N | sed -n 's/^Total Tests: //p'); \
	 test "$$a" = "$$b" || { echo "$(BUILD) registers $$a tests, $(ASAN_BUILD) $$b"; exit 1; }
	@$(call tree_saved,$(BUILD))
	$(CTEST) --test-dir $(BUILD) || { $(call tree_unchanged,$(BUILD)); exit 1; }
	@$(call tree_unchanged,$(BUILD))
	$(ASAN_ENV) $(CTEST) --test-dir $(ASAN_BUILD) || { $(call tree_unchanged,$(BUILD)); exit 1; }
	@$(call tree_unchanged,$(BUILD))

test-normal: build
	@$(call registered_tests,$(BUILD))
	@$(call tree_saved,$(BUILD))
	$(CTEST) --test-dir $(BUILD) || { $(call tree_unchanged,$(BUILD)); exit 1; }
	@$(call tree_unchanged,$(BUILD))

test-asan: build-asan
	@$(call registered_tests,$(ASAN_BUILD))
	@$(call tree_saved,$(ASAN_BUILD))
	$(ASAN_ENV) $(CTEST) --test-dir $(ASAN_BUILD) || { $(call tree_unchanged,$(ASAN_BUILD)); exit 1; }
	@$(call tree_unchanged,$(ASAN_BUILD))

# Builds only what model_threads_test needs (the model and its libraries), then runs its tests.
tsan: deps
	cmake -S . -B $(TSAN_BUILD) $(TSAN_CMAKE_FLAGS)
	cmake --build $(TSAN_BUILD) -j$(JOBS) --target model_threads_test
	$(TSAN_ENV) $(CTEST) --test-dir $(TSAN_BUILD) -R '^model_threads_test\.'

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD)
