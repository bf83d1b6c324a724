# homg -- one build for everything.
#
#   make            library, tool, tests, benchmarks and demos (CUDA backend when nvcc is found)
#   make run        the main job: tools' `homg solve` on seed 003's problem at 1024^2
#   make test       builds everything and runs every test (GPU tests SKIP without a GPU)
#   make bench      the benchmarks (GPU machine); tables land in bench/results/
#   make fuzz       libFuzzer targets (clang); `make test` replays their corpora with gcc
#
# Variables: CUDA=0|1 (default: 1 when nvcc is found), SAN=1 (ASan+UBSan, CPU only,
# into build-san/), CUDA_ARCH (default sm_90 + PTX), OMP=0 (no OpenMP).

BUILD ?= build
SAN ?= 0
OMP ?= 1
CUDA_HOME ?= /usr/local/cuda
NVCC ?= $(shell command -v nvcc 2>/dev/null || { test -x $(CUDA_HOME)/bin/nvcc && echo $(CUDA_HOME)/bin/nvcc; })

ifeq ($(SAN),1)
  BUILD := build-san
  CUDA := 0
  SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
endif
ifeq ($(origin CUDA),undefined)
  CUDA := $(if $(NVCC),1,0)
endif

CC ?= gcc
OPT ?= $(if $(filter 1,$(SAN)),-O1,-O2)
OMPFLAGS := $(if $(filter 1,$(OMP)),-fopenmp,)
CPPFLAGS += -Ilib -Ikernels -Itests/util -DHOMG_HAVE_CUDA=$(CUDA) -D_DEFAULT_SOURCE
CFLAGS ?= $(OPT) -g
CFLAGS += -std=c99 -Wall -Wextra -Wmissing-prototypes -Wstrict-prototypes -Wno-unused-parameter $(OMPFLAGS) $(SANFLAGS)
LDFLAGS += $(OMPFLAGS) $(SANFLAGS)
LDLIBS += -lstb -lz -lm

CUDA_ARCH ?= -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
NVCCFLAGS ?= -O3 -g -lineinfo
NVCCFLAGS += -std=c++17 $(CUDA_ARCH) -Ilib -Ikernels -DHOMG_HAVE_CUDA=1 -Xcompiler -Wall,-fopenmp
ifeq ($(CUDA),1)
  CUDA_LIBS := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcusparse -lcublas -lcusolver -lcufft -lcudart -lstdc++
  CPPFLAGS += -I$(CUDA_HOME)/include
endif

# --------------------------------------------------------------- sources
LIB_C := $(wildcard lib/*/*.c) $(wildcard kernels/*/*.c)
LIB_CU := $(if $(filter 1,$(CUDA)),$(wildcard kernels/*/*.cu),)
LIB_OBJ := $(LIB_C:%.c=$(BUILD)/obj/%.c.o) $(LIB_CU:%.cu=$(BUILD)/obj/%.cu.o)
LIB := $(BUILD)/libhomg.a

TOOL_OBJ := $(patsubst %.c,$(BUILD)/obj/%.c.o,$(wildcard tools/*.c))
TOOL := $(BUILD)/homg

TEST_UTIL_OBJ := $(patsubst %.c,$(BUILD)/obj/%.c.o,$(wildcard tests/util/*.c))
TEST_SRC := $(wildcard tests/test_*.c)
TESTS := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%) $(BUILD)/tests/test_cxx_header

FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_REPLAY := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)

BENCH_SRC := $(wildcard bench/bench_*.c)
BENCH_CU := $(if $(filter 1,$(CUDA)),$(wildcard bench/*.cu),)
BENCH_HELPER_OBJ := $(patsubst %.c,$(BUILD)/obj/%.c.o,$(filter-out bench/bench_%,$(wildcard bench/*.c))) \
                    $(BENCH_CU:%.cu=$(BUILD)/obj/%.cu.o)
BENCHES := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

# hypre (Debian's libhypre-dev, optional): bench/hypre_pcg.c compiles against its headers
# when they are installed (libHYPRE and MPI are opened at run time, so benches built here
# still start where they are missing) and to a stub that says so when not.
HYPRE ?= 1
HYPRE_H := $(if $(filter 1,$(HYPRE)),$(wildcard /usr/include/hypre/HYPRE.h),)
ifneq ($(HYPRE_H),)
  HYPRE_CPPFLAGS := -DHOMG_HAVE_HYPRE=1 -I/usr/include/hypre $(shell mpicc --showme:compile 2>/dev/null)
  $(BENCHES): LDLIBS += -ldl
endif
$(BUILD)/obj/bench/hypre_pcg.c.o: CPPFLAGS += $(HYPRE_CPPFLAGS)

DEMO_SRC := $(wildcard demo/*.c)
DEMOS := $(DEMO_SRC:demo/%.c=$(BUILD)/demo/%)
GL_LIBS := -lglfw -lGLEW -lGL -lEGL

ALL := $(LIB) $(TOOL) $(TESTS) $(FUZZ_REPLAY) $(BENCHES) $(DEMOS)

.PHONY: all deps deps-build run test test-only bench fuzz clean
all: deps-build $(ALL)

deps-build:
	@tools/dev/install-deps.sh build
deps:
	@tools/dev/install-deps.sh test

$(BUILD)/obj/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/%.cu.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^
	@$(if $(filter 1,$(CUDA)),,echo "homg: nvcc not found or CUDA=0: building the CPU backend only")

$(TOOL): $(TOOL_OBJ) $(LIB)
	$(CC) $(LDFLAGS) $(TOOL_OBJ) $(LIB) $(CUDA_LIBS) $(LDLIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.c.o $(TEST_UTIL_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $(filter %.o,$^) $(LIB) $(CUDA_LIBS) -lcmocka $(LDLIBS) -o $@

# The public header compiled as C++ (g++) and linked against the C library.
CXXFLAGS_HEADER := -std=c++11 -Wall -Wextra -pedantic -Werror
$(BUILD)/tests/test_cxx_header: tests/test_cxx_header.cpp lib/homg.h $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_HEADER) $(SANFLAGS) -Ilib $< $(LDFLAGS) $(LIB) $(CUDA_LIBS) $(LDLIBS) -o $@

# Tests of the bench baselines link the bench objects they check (extra .o prerequisites;
# the .cu one is in BENCH_HELPER_OBJ only when CUDA=1).
FFT_REF_OBJ := $(filter $(BUILD)/obj/bench/fft_poisson_ref.%,$(BENCH_HELPER_OBJ))
$(BUILD)/tests/test_fft_baseline: $(FFT_REF_OBJ)
$(BUILD)/tests/test_fft_baseline_gpu: $(FFT_REF_OBJ) $(filter $(BUILD)/obj/bench/fft_poisson.%,$(BENCH_HELPER_OBJ))

# test_tool_solve runs the tool of the same build (its path relative to the repository root).
$(BUILD)/tests/test_tool_solve: $(TOOL)
$(BUILD)/obj/tests/test_tool_solve.c.o: CPPFLAGS += -DHOMG_TOOL_PATH='"$(TOOL)"'

$(BUILD)/fuzz/%: $(BUILD)/obj/tests/fuzz/%.c.o $(BUILD)/obj/tests/fuzz/replay_main.c.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ $(CUDA_LIBS) $(LDLIBS) -o $@

HOMG_BUILD_ID ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
$(BUILD)/obj/bench/%.c.o: CPPFLAGS += -DHOMG_BUILD_ID='"$(HOMG_BUILD_ID)"'

$(BUILD)/bench/%: $(BUILD)/obj/bench/%.c.o $(BENCH_HELPER_OBJ) $(TEST_UTIL_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $< $(BENCH_HELPER_OBJ) $(TEST_UTIL_OBJ) $(LIB) $(CUDA_LIBS) $(LDLIBS) -o $@

$(BUILD)/demo/%: $(BUILD)/obj/demo/%.c.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $< $(LIB) $(CUDA_LIBS) $(GL_LIBS) $(LDLIBS) -o $@

# ----------------------------------------------------------------- jobs
run: deps-build $(TOOL)
	$(TOOL) solve --size 1024 --png solution.png

# Every test program; exit status 77 means "skipped" (a GPU test without a GPU).
test: deps
	@$(MAKE) --no-print-directory $(ALL)
	@$(MAKE) --no-print-directory test-only

test-only:
	@pass=0; fail=0; skip=0; failed=""; \
	for t in $(TESTS); do \
	  echo "=== $$t"; \
	  $$t; rc=$$?; \
	  if [ $$rc -eq 0 ]; then pass=$$((pass+1)); \
	  elif [ $$rc -eq 77 ]; then skip=$$((skip+1)); \
	  else fail=$$((fail+1)); failed="$$failed $$t"; fi; \
	done; \
	for f in $(FUZZ_REPLAY); do \
	  n=$$(basename $$f); echo "=== $$f tests/fuzz/corpus/$${n#fuzz_}"; \
	  if $$f tests/fuzz/corpus/$${n#fuzz_}; then pass=$$((pass+1)); else fail=$$((fail+1)); failed="$$failed $$f"; fi; \
	done; \
	echo "homg tests: $$pass passed, $$skip skipped, $$fail failed$$failed"; \
	[ $$fail -eq 0 ]

bench: deps-build $(BENCHES)
	@for b in $(BENCHES); do echo "=== $$b"; $$b || exit 1; done

# libFuzzer builds (clang), one binary per target in $(BUILD)/libfuzzer/.
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -Ilib -Ikernels -DHOMG_HAVE_CUDA=0 -D_DEFAULT_SOURCE -std=c99
fuzz:
	@mkdir -p $(BUILD)/libfuzzer
	@for s in $(FUZZ_SRC); do n=$$(basename $$s .c); \
	  echo "clang $$n"; \
	  clang $(FUZZ_CFLAGS) $$s $(LIB_C) -lstb -lz -lm -o $(BUILD)/libfuzzer/$$n || exit 1; \
	done

clean:
	rm -rf build build-san

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
