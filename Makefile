# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# The short commands (README.md). CMake does the work in build/.
#   make            configure and build (build/)
#   make run        build, then run the demo (ring and ping-pong on 4 ranks)
#   make test       build, then the whole test suite (ctest -j2)
#   make asan-test  the same with ASan+UBSan, in build-asan/
#   make install PREFIX=DIR
#   make bench      Crossbar vs Open MPI vs MPICH, one table
#   make deps       install the Debian packages the build needs (needs root/sudo)
#   make deps-all   ... and those the whole test suite and the benchmarks use
#   make clean
BUILD    ?= build
ASAN     ?= build-asan
PREFIX   ?= /usr/local
JOBS     ?= 2
NP       ?= 4
CMAKE    ?= cmake
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo Ninja || echo "Unix Makefiles")
CTEST_ARGS ?=

.PHONY: all build run test asan-test install bench deps deps-all clean

all: build

$(BUILD)/CMakeCache.txt:
	@sh cmake/deps.sh --check || sh cmake/deps.sh
	$(CMAKE) -S . -B $(BUILD) -G "$(GENERATOR)"

build: $(BUILD)/CMakeCache.txt
	$(CMAKE) --build $(BUILD) -j $(JOBS)

run: build
	@echo "== ring on $(NP) ranks"
	$(BUILD)/bin/mpiexec -n $(NP) --timeout 60 $(BUILD)/examples/ring
	@echo "== ping-pong on $(NP) ranks"
	$(BUILD)/bin/mpiexec -n $(NP) --timeout 60 $(BUILD)/examples/pingpong

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

$(ASAN)/CMakeCache.txt:
	@sh cmake/deps.sh --check || sh cmake/deps.sh
	$(CMAKE) -S . -B $(ASAN) -G "$(GENERATOR)" -DXB_SANITIZE=address,undefined

asan-test: $(ASAN)/CMakeCache.txt
	$(CMAKE) --build $(ASAN) -j $(JOBS)
	cd $(ASAN) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

install: build
	$(CMAKE) --install $(BUILD) --prefix "$(PREFIX)"

bench: build
	sh bench/run.sh

deps:
	sh cmake/deps.sh

deps-all:
	sh cmake/deps.sh --all

clean:
	rm -rf $(BUILD) $(ASAN)
