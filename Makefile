# cgrasim: the two entry points of README.md.
#   make run   install missing Debian packages, configure, build, run the paper's 2D case
#   make test  the same set-up, then the whole test suite through ctest, twice: the normal build
#              ($(BUILD)) and the AddressSanitizer + UndefinedBehaviorSanitizer build
#              ($(ASAN_BUILD), docs/robustness.md)
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= 2
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCGRA_WERROR=ON
# Debug (-O0 -g): the sanitized build compiles fastest this way, and the suite's run time under
# ASan is small next to the compile time on 2 cores.
ASAN_CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Debug -DCGRA_WERROR=ON -DCGRA_SANITIZE=ON
# Leaks fail a test; UB already aborts (-fno-sanitize-recover); a report prints its stack.
# cmake/*.supp hold the few reports that are bugs of Debian's libraries (Graphviz, fontconfig).
ASAN_ENV ?= ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:check_initialization_order=1:suppressions=$(CURDIR)/cmake/asan.supp \
            LSAN_OPTIONS=suppressions=$(CURDIR)/cmake/lsan.supp \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: all deps configure build run test configure-asan build-asan test-normal test-asan clean
all: build

deps:
	bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j$(JOBS)

run: build
	./$(BUILD)/sim/cgrasim --stencil 2d --radius 12 --workers 5

configure-asan: deps
	cmake -S . -B $(ASAN_BUILD) $(ASAN_CMAKE_FLAGS)

build-asan: configure-asan
	cmake --build $(ASAN_BUILD) -j$(JOBS)

# The normal suite first (fast feedback), then the sanitized one.
test: build build-asan
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)
	$(ASAN_ENV) ctest --test-dir $(ASAN_BUILD) --output-on-failure -j$(JOBS)

test-normal: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

test-asan: build-asan
	$(ASAN_ENV) ctest --test-dir $(ASAN_BUILD) --output-on-failure -j$(JOBS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
