# cgrasim: the two entry points of README.md.
#   make run   install missing Debian packages, configure, build, run the paper's 2D case
#   make test  the same set-up, then the whole test suite through ctest
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCGRA_WERROR=ON

.PHONY: all deps configure build run test clean
all: build

deps:
	bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j$(JOBS)

run: build
	./$(BUILD)/sim/cgrasim --stencil 2d --radius 12 --workers 5

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

clean:
	rm -rf $(BUILD)
