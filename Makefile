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
LDLIBS += -lstb -lz -lfftw3 -lfftw3f -lm

# OpenGL headers: without them homg_view is left out (its calls return UNSUPPORTED) and the
# demos are not built.  Vulkan's headers only add GPU semaphores to the view's SHARED path.
have_header = $(shell printf '$(foreach h,$(1),\043include <$(h)>\n)' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1 || echo 0)
HAVE_GL := $(call have_header,GL/gl.h GL/glext.h)
HAVE_VULKAN := $(if $(filter 1,$(HAVE_GL)),$(call have_header,vulkan/vulkan.h),0)
HAVE_DEMO := $(if $(filter 1,$(HAVE_GL)),$(call have_header,GL/glew.h GLFW/glfw3.h EGL/egl.h stb/stb_easy_font.h),0)
CPPFLAGS += -DHOMG_HAVE_GL=$(HAVE_GL) -DHOMG_HAVE_VULKAN=$(HAVE_VULKAN) -DHOMG_HAVE_DEMO_GL=$(HAVE_DEMO)

CUDA_ARCH ?= -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
NVCCFLAGS ?= -O3 -g -lineinfo
NVCCFLAGS += -std=c++17 $(CUDA_ARCH) -Ilib -Ikernels -DHOMG_HAVE_CUDA=1 -Xcompiler -Wall,-fopenmp -DHOMG_HAVE_GL=$(HAVE_GL)
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

TEST_UTIL_OBJ := $(patsubst %.c,$(BUILD)/obj/%.c.o,$(filter-out tests/util/view_gl.c,$(wildcard tests/util/*.c)))
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

# Demos: one program per demo/*.c, each linked with the harness in demo/harness/ (window or
# headless EGL context, text overlay, keys, scripted runs).  demo/harness/egl.c (a headless
# EGL context) also serves the view's tests and benchmark.
DEMO_SRC := $(if $(filter 1,$(HAVE_DEMO)),$(wildcard demo/*.c),)
DEMOS := $(DEMO_SRC:demo/%.c=$(BUILD)/demo/%)
DEMO_HARNESS_OBJ := $(patsubst %.c,$(BUILD)/obj/%.c.o,$(wildcard demo/harness/*.c))
EGL_OBJ := $(BUILD)/obj/demo/harness/egl.c.o $(BUILD)/obj/demo/harness/program.c.o
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
	@$(if $(filter 1,$(HAVE_GL)),,echo "homg: no OpenGL headers (GL/gl.h, GL/glext.h): building without homg_view and the demos")
	@$(if $(filter 1,$(HAVE_GL)),$(if $(filter 1,$(HAVE_DEMO)),,echo "homg: no GLFW/GLEW/EGL/stb_easy_font headers: the demos are not built"),)

$(TOOL): $(TOOL_OBJ) $(LIB)
	$(CC) $(LDFLAGS) $(TOOL_OBJ) $(LIB) $(CUDA_LIBS) $(LDLIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.c.o $(TEST_UTIL_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $(filter %.o,$^) $(LIB) $(CUDA_LIBS) -lcmocka $(LDLIBS) -o $@

# The test of the bench's FFT baseline links the bench object it checks (an extra .o prerequisite).
$(BUILD)/tests/test_fft_baseline_gpu: $(BUILD)/obj/bench/fft_poisson.c.o

# The public header compiled as C++ (g++) and linked against the C library.
CXXFLAGS_HEADER := -std=c++11 -Wall -Wextra -pedantic -Werror
$(BUILD)/tests/test_cxx_header: tests/test_cxx_header.cpp lib/homg.h $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_HEADER) $(SANFLAGS) -Ilib $< $(LDFLAGS) $(LIB) $(CUDA_LIBS) $(LDLIBS) -o $@


# test_tool_solve runs the tool of the same build (its path relative to the repository root).
$(BUILD)/tests/test_tool_solve: $(TOOL)
$(BUILD)/obj/tests/test_tool_solve.c.o: CPPFLAGS += -DHOMG_TOOL_PATH='"$(TOOL)"'
$(BUILD)/tests/test_tool_image: $(TOOL)
$(BUILD)/obj/tests/test_tool_image.c.o: CPPFLAGS += -DHOMG_TOOL_PATH='"$(TOOL)"'

$(BUILD)/fuzz/%: $(BUILD)/obj/tests/fuzz/%.c.o $(BUILD)/obj/tests/fuzz/replay_main.c.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ $(CUDA_LIBS) $(LDLIBS) -o $@

HOMG_BUILD_ID ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
$(BUILD)/obj/bench/%.c.o: CPPFLAGS += -DHOMG_BUILD_ID='"$(HOMG_BUILD_ID)"'

$(BUILD)/bench/%: $(BUILD)/obj/bench/%.c.o $(BENCH_HELPER_OBJ) $(TEST_UTIL_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $< $(BENCH_HELPER_OBJ) $(TEST_UTIL_OBJ) $(LIB) $(CUDA_LIBS) $(LDLIBS) -o $@

$(BUILD)/obj/demo/%.c.o: CPPFLAGS += -Idemo
$(BUILD)/demo/%: $(BUILD)/obj/demo/%.c.o $(DEMO_HARNESS_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $< $(DEMO_HARNESS_OBJ) $(LIB) $(CUDA_LIBS) $(GL_LIBS) $(LDLIBS) -o $@

# The view's tests and benchmark make their own GL context through EGL (demo/harness/egl.c);
# test_view_demos runs the demos of the same build and compares their pictures with tests/ref/.
ifeq ($(HAVE_DEMO),1)
VIEW_GL_TESTS := $(filter $(BUILD)/tests/test_view%,$(TESTS))
$(VIEW_GL_TESTS) $(BUILD)/bench/bench_view: $(EGL_OBJ)
$(VIEW_GL_TESTS): $(BUILD)/obj/tests/util/view_gl.c.o
$(VIEW_GL_TESTS): LDLIBS += -lGLEW -lGL -lEGL
$(BUILD)/bench/bench_view: LDLIBS += $(EGL_OBJ) -lGLEW -lGL -lEGL
$(BUILD)/obj/tests/test_view%: CPPFLAGS += -Idemo
$(BUILD)/obj/bench/bench_view.c.o: CPPFLAGS += -Idemo
$(BUILD)/tests/test_view_demos: $(DEMOS)
$(BUILD)/obj/tests/test_view_demos.c.o: CPPFLAGS += -DHOMG_DEMO_DIR='"$(BUILD)/demo"'
endif

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
	  clang $(FUZZ_CFLAGS) $$s $(LIB_C) -lstb -lz -lfftw3 -lfftw3f -lm -o $(BUILD)/libfuzzer/$$n || exit 1; \
	done

clean:
	rm -rf build build-san

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
