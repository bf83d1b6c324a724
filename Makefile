# homg -- one build for everything.
#
#   make            library, tool, tests, benchmarks and demos (CUDA backend when nvcc is found)
#   make run        the main job: tools' `homg solve` on seed 003's problem at 1024^2
#   make test       builds everything and runs every test (GPU tests SKIP without a GPU)
#   make bench      the benchmarks (GPU machine); each prints its table (--out FILE: also to FILE)
#   make fuzz       libFuzzer targets (clang), each run FUZZ_SECONDS (600) on its corpus;
#                   `make test` replays the corpora with gcc
#   make install    PREFIX=/usr/local (DESTDIR too): libhomg.a, libhomg.so (versioned soname),
#                   homg.h, homg.pc, the homg tool;  make uninstall  removes them
#   make deps       installs every Debian package `make` needs (root), once, before make -jN
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
# -fPIC: the same objects make libhomg.a and libhomg.so
CFLAGS += -std=c99 -fPIC -Wall -Wextra -Wmissing-prototypes -Wstrict-prototypes -Wno-unused-parameter $(OMPFLAGS) $(SANFLAGS)
LDFLAGS += $(OMPFLAGS) $(SANFLAGS)
LDLIBS += $(DEP_LIBS)

# OpenGL headers: without them homg_view is left out (its calls return UNSUPPORTED) and the
# demos are not built.  Vulkan's headers only add GPU semaphores to the view's SHARED path.
have_header = $(shell printf '$(foreach h,$(1),\043include <$(h)>\n)' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1 || echo 0)
HAVE_GL := $(call have_header,GL/gl.h GL/glext.h)
HAVE_VULKAN := $(if $(filter 1,$(HAVE_GL)),$(call have_header,vulkan/vulkan.h),0)
HAVE_DEMO := $(if $(filter 1,$(HAVE_GL)),$(call have_header,GL/glew.h GLFW/glfw3.h EGL/egl.h stb/stb_easy_font.h),0)
CPPFLAGS += -DHOMG_HAVE_GL=$(HAVE_GL) -DHOMG_HAVE_VULKAN=$(HAVE_VULKAN) -DHOMG_HAVE_DEMO_GL=$(HAVE_DEMO)

CUDA_ARCH ?= -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
NVCCFLAGS ?= -O3 -g -lineinfo
NVCCFLAGS += -std=c++17 $(CUDA_ARCH) -Ilib -Ikernels -DHOMG_HAVE_CUDA=1 -Xcompiler -Wall,-fopenmp,-fPIC -DHOMG_HAVE_GL=$(HAVE_GL)
ifeq ($(CUDA),1)
  CUDA_LIBS := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcusparse -lcublas -lcusolver -lcufft -lcudart -lstdc++
  CPPFLAGS += -I$(CUDA_HOME)/include
endif
# What libhomg needs at link time besides itself (homg.pc's Libs.private).
DEP_LIBS := -lstb -lz -lfftw3 -lfftw3f -lm

# --------------------------------------------------------------- sources
LIB_C := $(wildcard lib/*/*.c) $(wildcard kernels/*/*.c)
LIB_CU := $(if $(filter 1,$(CUDA)),$(wildcard kernels/*/*.cu),)
LIB_OBJ := $(LIB_C:%.c=$(BUILD)/obj/%.c.o) $(LIB_CU:%.cu=$(BUILD)/obj/%.cu.o)
LIB := $(BUILD)/libhomg.a

# The shared library: libhomg.so.X.Y.Z with soname libhomg.so.X (libhomg.so.0.Y while the
# major version is 0: every 0.Y may change the ABI).
version_part = $(shell sed -n 's/^\#define HOMG_VERSION_$(1)  *\([0-9]*\).*/\1/p' lib/homg.h)
VERSION := $(call version_part,MAJOR).$(call version_part,MINOR).$(call version_part,PATCH)
SONAME := libhomg.so.$(if $(filter 0,$(call version_part,MAJOR)),0.$(call version_part,MINOR),$(call version_part,MAJOR))
SHLIB := $(BUILD)/libhomg.so.$(VERSION)

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

ALL := $(LIB) $(TOOL) $(TESTS) $(FUZZ_REPLAY) $(BENCHES) $(DEMOS) $(if $(filter 1,$(SAN)),,$(SHLIB))

.PHONY: all build-all deps deps-build run test test-only bench fuzz fuzz-build install uninstall clean
# The packages first, then a second make that builds: under -j nothing compiles while
# apt-get still installs, and the second make sees the headers the first one installed
# (HAVE_GL, HAVE_DEMO are decided when the Makefile is read).
all: deps
	@$(MAKE) --no-print-directory build-all
build-all: $(ALL)

# deps: everything `make` builds needs (the tests' cmocka, the demos' GL headers);
# deps-build: what the library and the tool need (make run).
deps-build:
	@tools/dev/install-deps.sh build
deps:
	@tools/dev/install-deps.sh test

# Intermediate objects of pattern rules stay (no rebuild of test objects every time).
.SECONDARY:

# Objects depend on the flags they were compiled with: $(BUILD)/.flags changes (and they
# rebuild) when the compilers or their flags do (-fPIC added, CUDA=0 -> 1, ...).
FLAGS_STAMP := $(BUILD)/.flags
ifneq ($(MAKECMDGOALS),clean)
$(shell mkdir -p $(BUILD) && printf '%s\n' '$(CC) $(CPPFLAGS) $(CFLAGS)' '$(NVCC) $(NVCCFLAGS)' | cmp -s - $(FLAGS_STAMP) || \
        printf '%s\n' '$(CC) $(CPPFLAGS) $(CFLAGS)' '$(NVCC) $(NVCCFLAGS)' > $(FLAGS_STAMP))
endif

$(BUILD)/obj/%.c.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/%.cu.o: %.cu $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^
	@$(if $(filter 1,$(CUDA)),,echo "homg: nvcc not found or CUDA=0: building the CPU backend only")
	@$(if $(filter 1,$(HAVE_GL)),,echo "homg: no OpenGL headers (GL/gl.h, GL/glext.h): building without homg_view and the demos")
	@$(if $(filter 1,$(HAVE_GL)),$(if $(filter 1,$(HAVE_DEMO)),,echo "homg: no GLFW/GLEW/EGL/stb_easy_font headers: the demos are not built"),)

$(SHLIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,$(SONAME) $(LDFLAGS) $(LIB_OBJ) $(CUDA_LIBS) $(DEP_LIBS) -o $@

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


# test_grid_ref's checks of the general grid (issue 9) compile once lib/homg.h declares its API.
$(BUILD)/obj/tests/test_grid_ref.c.o: CPPFLAGS += $(if $(shell grep -l homg_grid_operator lib/homg.h 2>/dev/null),-DHOMG_GRID_GENERAL,)

# The tool's tests (test_tool_*) run the tool of the same build (its path relative to the repository root).
$(filter $(BUILD)/tests/test_tool_%,$(TESTS)): $(TOOL)
$(BUILD)/obj/tests/test_tool_%.c.o: CPPFLAGS += -DHOMG_TOOL_PATH='"$(TOOL)"'

# test_bench_out runs the benchmarks of the same build that need no GPU (their folder
# relative to the repository root).
$(BUILD)/tests/test_bench_out: $(BUILD)/bench/bench_gmg $(BUILD)/bench/bench_amg $(BUILD)/bench/bench_fluid
$(BUILD)/obj/tests/test_bench_out.c.o: CPPFLAGS += -DHOMG_BENCH_PATH='"$(BUILD)/bench"'

$(BUILD)/fuzz/%: $(BUILD)/obj/tests/fuzz/%.c.o $(BUILD)/obj/tests/fuzz/replay_main.c.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ $(CUDA_LIBS) $(LDLIBS) -o $@

HOMG_BUILD_ID ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
$(BUILD)/obj/bench/%.c.o: CPPFLAGS += -DHOMG_BUILD_ID='"$(HOMG_BUILD_ID)"'
# The benchmarks print the id: their objects depend on a stamp rewritten only when the
# commit changes, so a binary never prints the id of an older commit.
$(patsubst %.c,$(BUILD)/obj/%.c.o,$(wildcard bench/bench_*.c)): $(BUILD)/build-id
$(BUILD)/build-id: FORCE
	@mkdir -p $(@D)
	@echo '$(HOMG_BUILD_ID)' | cmp -s - $@ || echo '$(HOMG_BUILD_ID)' > $@
.PHONY: FORCE

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
run: deps-build
	@$(MAKE) --no-print-directory $(TOOL)
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

bench: deps-build
	@$(MAKE) --no-print-directory $(BENCHES)
	@for b in $(BENCHES); do echo "=== $$b"; $$b || exit 1; done

# libFuzzer (clang): one binary per target in $(BUILD)/libfuzzer/, each run FUZZ_SECONDS on a
# working corpus ($(BUILD)/fuzz-corpus/NAME, seeded from tests/fuzz/corpus/NAME); findings land
# in $(BUILD)/fuzz-artifacts/, logs in $(BUILD)/fuzz-logs/ and one summary line per target
# (runs, corpus size) appended to $(BUILD)/fuzz-logs/summary.txt.  `make -j5 fuzz` runs the targets side
# by side.  `make fuzz-merge` minimises the working corpora into tests/fuzz/corpus/.
FUZZ_SECONDS ?= 600
FUZZ_NAMES := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=%)
FUZZ_BIN := $(FUZZ_NAMES:%=$(BUILD)/libfuzzer/fuzz_%)
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -Ilib -Ikernels -DHOMG_HAVE_CUDA=0 -D_DEFAULT_SOURCE -std=c99
.PHONY: fuzz-merge fuzz-force
fuzz: $(FUZZ_NAMES:%=fuzz-run-%)
	@echo "summary (also in $(BUILD)/fuzz-logs/summary.txt):"; cat $(BUILD)/fuzz-logs/summary.txt

$(BUILD)/libfuzzer/%: tests/fuzz/%.c $(LIB_C) $(wildcard tests/fuzz/*.h)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) $< $(LIB_C) $(DEP_LIBS) -o $@

# (not .PHONY: make applies no pattern rule to phony targets; fuzz-force makes them always run)
fuzz-force:
fuzz-run-%: $(BUILD)/libfuzzer/fuzz_% fuzz-force
	@mkdir -p $(BUILD)/fuzz-corpus/$* $(BUILD)/fuzz-artifacts $(BUILD)/fuzz-logs
	@echo "fuzz_$*: $(FUZZ_SECONDS) s (log: $(BUILD)/fuzz-logs/$*.log)"
	@$< -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz-artifacts/$*- \
	    $(BUILD)/fuzz-corpus/$* tests/fuzz/corpus/$* > $(BUILD)/fuzz-logs/$*.log 2>&1; rc=$$?; \
	  runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(BUILD)/fuzz-logs/$*.log); \
	  line="fuzz_$*: $(FUZZ_SECONDS) s, $${runs:-?} runs, corpus $$(ls $(BUILD)/fuzz-corpus/$* | wc -l) new + $$(ls tests/fuzz/corpus/$* | wc -l) seed inputs, $$([ $$rc -eq 0 ] && echo 'no finding' || echo "FINDING (exit $$rc): see $(BUILD)/fuzz-artifacts/")"; \
	  echo "$$line" >> $(BUILD)/fuzz-logs/summary.txt; echo "$$line"; [ $$rc -eq 0 ]

fuzz-merge: $(FUZZ_BIN)
	@for n in $(FUZZ_NAMES); do \
	  $(BUILD)/libfuzzer/fuzz_$$n -merge=1 tests/fuzz/corpus/$$n $(BUILD)/fuzz-corpus/$$n 2>&1 | tail -1; \
	done

# --------------------------------------------------------------- install
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# Static linking (pkg-config --static) needs OpenMP's runtime and, with CUDA, CUDA's libraries.
LIBS_PRIVATE := $(OMPFLAGS) $(CUDA_LIBS) $(DEP_LIBS)
INSTALLED := $(BINDIR)/homg $(INCLUDEDIR)/homg.h $(LIBDIR)/libhomg.a $(LIBDIR)/libhomg.so.$(VERSION) \
             $(LIBDIR)/$(SONAME) $(LIBDIR)/libhomg.so $(PKGCONFIGDIR)/homg.pc

install: deps-build
	@$(MAKE) --no-print-directory $(LIB) $(SHLIB) $(TOOL)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 755 $(TOOL) $(DESTDIR)$(BINDIR)/homg
	install -m 644 lib/homg.h $(DESTDIR)$(INCLUDEDIR)/homg.h
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libhomg.a
	install -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/libhomg.so.$(VERSION)
	ln -sf libhomg.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libhomg.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' -e 's|@LIBS_PRIVATE@|$(strip $(LIBS_PRIVATE))|' lib/homg.pc.in \
	    > $(DESTDIR)$(PKGCONFIGDIR)/homg.pc
	@echo "homg $(VERSION) installed in $(DESTDIR)$(PREFIX)$(if $(filter 1,$(CUDA)), (CUDA backend), (CPU backend only))"

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

clean:
	rm -rf build build-san

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
