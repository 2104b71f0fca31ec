# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# The short commands (README.md). CMake does the work in build/.
#   make            configure and build (build/)
#   make run        build, then run the demo (ring and ping-pong on 4 ranks)
#   make test       build, then the whole test suite (ctest -j2)
#   make asan-test  the same with ASan+UBSan, in build-asan/
#   make tsan-test  ThreadSanitizer: the threads tests and a few pt2pt tests, in build-tsan/
#   make install PREFIX=DIR
#   make bench      Crossbar vs Open MPI vs MPICH, one table
#   make deps       install the Debian packages the build needs (needs root/sudo)
#   make deps-all   ... and those the whole test suite and the benchmarks use
#   make clean
BUILD    ?= build
ASAN     ?= build-asan
TSAN     ?= build-tsan
# tsan-test: the MPI_THREAD_MULTIPLE tests and the mutex's unit test, then a
# few pt2pt tests with the progress thread on (so they run with the internal
# locking and two threads)
TSAN_TESTS  ?= ^(mpi[.]threads[.]|unit[.]mutex$$)
TSAN_ASYNC  ?= ^mpi[.]pt2pt[.](basic|nonblocking|probe|persistent|order)[.]
PREFIX   ?= /usr/local
JOBS     ?= 2
NP       ?= 4
CMAKE    ?= cmake
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo Ninja || echo "Unix Makefiles")
CTEST_ARGS ?=

.PHONY: all build run test asan-test tsan-test install bench deps deps-all clean

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

$(TSAN)/CMakeCache.txt:
	@sh cmake/deps.sh --check || sh cmake/deps.sh
	$(CMAKE) -S . -B $(TSAN) -G "$(GENERATOR)" -DXB_SANITIZE=thread

# A report fails the test (TSan exits 66). If TSan cannot map its shadow
# memory (kernels with vm.mmap_rnd_bits > 28), run it as: setarch -R make tsan-test
# Only what it runs is built: the library, mpiexec, two areas' programs.
tsan-test: $(TSAN)/CMakeCache.txt
	$(CMAKE) --build $(TSAN) -j $(JOBS) --target mpi mpiexec mpitests.threads mpitests.pt2pt unit.mutex
	cd $(TSAN) && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 $(TSAN_OPTIONS)" \
	    ctest --output-on-failure -j $(JOBS) -R '$(TSAN_TESTS)' $(CTEST_ARGS)
	cd $(TSAN) && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 $(TSAN_OPTIONS)" \
	    XB_ASYNC_PROGRESS=1 ctest --output-on-failure -j $(JOBS) -R '$(TSAN_ASYNC)' $(CTEST_ARGS)
	cd $(TSAN) && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 $(TSAN_OPTIONS)" \
	    XB_PROGRESS_CONTEXTS=2 ctest --output-on-failure -j $(JOBS) -R '$(TSAN_TESTS)' $(CTEST_ARGS)

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
