# chanscope — build, test, demo, bench, install.
#   make            build ./chanscope (optimised, -O2), needing only the
#                   libraries it links (`make deps` installs them)
#   make release    ./chanscope built profile-guided (see PGO below): about
#                   5% faster on large traces; what `make bench` times
#   make test       everything under -fsanitize=address,undefined + the CLI tests,
#                   and the decoder tests under -fsanitize=thread; installs
#                   the test tools first (`make test-deps`)
#   make demo       render the bundled example trace
#   make bench      speed and memory figures on large generated traces
#   make fuzz       libFuzzer harnesses (FUZZ_SECONDS=N each)
#   make fuzz-cov   line coverage the harnesses reach over their corpora
#   make install    PREFIX=/usr/local DESTDIR=
# Dependencies are Debian packages found with pkg-config; the two stamps
# below install them with apt-get when run as root, and print the command
# otherwise: BUILD_DEBS to build and run chanscope, TEST_DEBS (a superset)
# for the tests, fuzzers and benchmarks.

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
VERSION := 0.1.0

PKGS      := glfw3 glew cglm libgvc libcgraph egl gl jansson libxxhash libelf libgif libpng
TEST_PKGS := cmocka
BUILD_DEBS := build-essential pkg-config libglfw3-dev libglew-dev libcglm-dev libgraphviz-dev graphviz \
              libstb-dev libegl-dev libegl1-mesa-dev libgl-dev libegl-mesa0 libgl1-mesa-dri \
              libglx-mesa0 fonts-dejavu-core libjansson-dev libxxhash-dev libelf-dev libgif-dev libpng-dev
TEST_DEBS  := $(BUILD_DEBS) libcmocka-dev xz-utils golang-1.19-go xvfb xauth x11-utils \
              xdotool imagemagick libxml2-utils chromium jq clang libclang-rt-14-dev

BUILD := build
STAMP      := $(BUILD)/.deps-build
TEST_STAMP := $(BUILD)/.deps-test

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lstb -lm -lpthread -ldl
TEST_CFLAGS = $(shell pkg-config --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS   = $(shell pkg-config --libs $(TEST_PKGS) 2>/dev/null)

WARN    := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
CSTD    := -std=c11 -D_GNU_SOURCE -DCS_VERSION=\"$(VERSION)\"
CFLAGS  ?= -O2 -g
ALL_CFLAGS = $(CSTD) $(WARN) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP
# The decoders without GCC's SLP vectorizer, which packs pairs of 8-byte
# fields of their hot paths into 16-byte registers and back: it costs the
# decoders more than it saves (README, "Speed"). Private: not passed on to
# what an object depends on.
$(foreach f,rel asan tsan pgo opt,$(BUILD)/$(f)/decode/%.o): private ALL_CFLAGS += -fno-tree-slp-vectorize

LIB_SRCS := $(wildcard core/*.c decode/*.c traffic/*.c layout/*.c render/*.c export/*.c)
CLI_SRCS := $(wildcard cli/*.c)
SHADERS  := $(wildcard shaders/*.vert shaders/*.frag)
GEN_SRCS := $(if $(SHADERS),$(BUILD)/gen/shaders.c)
TEST_SRCS := $(wildcard tests/test_*.c)

# objs FLAVOUR SOURCES: the object files of SOURCES in build/FLAVOUR
objs = $(patsubst %.c,$(BUILD)/$(1)/%.o,$(patsubst $(BUILD)/%,%,$(2)))
LIB_OBJ_SRCS := $(LIB_SRCS) $(GEN_SRCS)
TEST_BINS := $(patsubst tests/%.c,$(BUILD)/asan/tests/%,$(TEST_SRCS))

.PHONY: all deps test-deps release test demo bench fuzz fuzz-build fuzz-smoke fuzz-cov install clean
all: chanscope

# install-debs STAMP "CHECK" PACKAGES: touch STAMP if CHECK holds, else
# install PACKAGES (as root) or say how
define install-debs
	@mkdir -p $(BUILD)
	@if $(2); then touch $(1); \
	elif [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages: $(3)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(3) >/dev/null \
	    && touch $(1); \
	else echo "missing dependencies; run as root: apt-get install $(3)"; exit 1; fi
endef
deps: $(STAMP)
$(STAMP):
	$(call install-debs,$@,pkg-config --exists $(PKGS) && test -f /usr/include/stb/stb_truetype.h \
	    && test -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf,$(BUILD_DEBS))
test-deps: $(TEST_STAMP)
$(TEST_STAMP): $(STAMP)
	$(call install-debs,$@,pkg-config --exists $(TEST_PKGS) && command -v Xvfb >/dev/null \
	    && command -v xdotool >/dev/null && command -v xmllint >/dev/null && command -v dot >/dev/null \
	    && command -v clang >/dev/null && test -x /usr/lib/go-1.19/bin/go && command -v xz >/dev/null \
	    && command -v convert >/dev/null && command -v chromium >/dev/null && command -v jq >/dev/null,$(TEST_DEBS))

# PGO (`make release`): the binary is built twice. First instrumented
# (build/pgo), and run over the repository's own test traces
# (tools/pgo_train.sh); then for real (build/opt), with the branch and call
# counts that run left (-fprofile-use), so that GCC lays out the decoders'
# loops the way real traces run them: about 5% faster on large traces the
# training never saw. Code the training does not reach is optimised as
# without a profile (-fprofile-partial-training). Both builds name a
# source's counts alike, in build/prof (-dumpdir, -dumpbase: GCC tells
# static functions apart by that name). Any source change retrains.
PGO_PROF   = -dumpdir $(abspath $(BUILD))/prof/ -dumpbase $(subst /,-,$<)
PGO_GEN    = -fprofile-generate -fprofile-update=atomic $(PGO_PROF)
PGO_USE    = -fprofile-use -fprofile-partial-training -Wno-missing-profile $(PGO_PROF)
PGO_TRAIN := $(sort $(shell find tests/data -name '*.trace' 2>/dev/null))
PGO_DONE  := $(BUILD)/prof/.trained

# Build flavours, one object rule each from one template:
# flavour NAME,COMPILE,PREREQ: build/NAME/X.o from X.c (and from the
# generated build/gen/X.c) by the command COMPILE, after PREREQ.
define flavour
$(BUILD)/$(1)/%.o: %.c $(3) | $(STAMP)
	@mkdir -p $$(dir $$@)
	@echo "CC $(1) $$<"
	@$(2) -c $$< -o $$@
$(BUILD)/$(1)/gen/%.o: $(BUILD)/gen/%.c $(3) | $(STAMP)
	@mkdir -p $$(dir $$@)
	@echo "CC $(1) $$<"
	@$(2) -c $$< -o $$@
endef
# float-cast-overflow (a double out of range converted to an integer) is not
# part of -fsanitize=undefined; gcc and clang both have it.
SAN      := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
            -fno-sanitize-recover=undefined,float-cast-overflow
TSAN     := -fsanitize=thread
FUZZ_SAN := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow -g -O1
FCOV     := -fprofile-instr-generate -fcoverage-mapping -g -O1
CLANG     = clang $(CSTD) -Wall $(PKG_CFLAGS) -MMD -MP
$(eval $(call flavour,rel,$$(CC) $$(ALL_CFLAGS)))
$(eval $(call flavour,asan,$$(CC) $$(ALL_CFLAGS) -O1 $$(SAN)))
$(eval $(call flavour,tsan,$$(CC) $$(ALL_CFLAGS) -O1 $$(TSAN)))
$(eval $(call flavour,pgo,$$(CC) $$(ALL_CFLAGS) $$(PGO_GEN)))
$(eval $(call flavour,opt,$$(CC) $$(ALL_CFLAGS) $$(PGO_USE),$$(PGO_DONE)))
$(eval $(call flavour,fuzz,$$(CLANG) $$(FUZZ_SAN) -fsanitize=fuzzer-no-link))
$(eval $(call flavour,fcov,$$(CLANG) $$(FCOV) -fsanitize=fuzzer-no-link))

chanscope: $(STAMP) $(call objs,rel,$(LIB_OBJ_SRCS) $(CLI_SRCS))
	@echo "LD      $@"
	@$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(PKG_LIBS)

$(BUILD)/pgo/chanscope: $(STAMP) $(call objs,pgo,$(LIB_OBJ_SRCS) $(CLI_SRCS))
	@$(CC) $(CFLAGS) -fprofile-generate -o $@ $(filter %.o,$^) $(PKG_LIBS)
$(PGO_DONE): $(BUILD)/pgo/chanscope tools/pgo_train.sh $(PGO_TRAIN)
	@echo "PGO     training on $(words $(PGO_TRAIN)) traces"
	@mkdir -p $(dir $@) && rm -f $(BUILD)/prof/*.gcda
	@sh tools/pgo_train.sh $(BUILD)/pgo/chanscope $(PGO_TRAIN)
	@touch $@
$(BUILD)/opt/chanscope: $(STAMP) $(call objs,opt,$(LIB_OBJ_SRCS) $(CLI_SRCS))
	@echo "LD opt  $@"
	@$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(PKG_LIBS)
release: $(BUILD)/opt/chanscope
	@cp $< chanscope.tmp && mv chanscope.tmp chanscope && echo "chanscope: the profile-guided build"

$(BUILD)/asan/chanscope: $(STAMP) $(call objs,asan,$(LIB_OBJ_SRCS) $(CLI_SRCS))
	@echo "LD asan $@"
	@$(CC) $(CFLAGS) $(SAN) -o $@ $(filter %.o,$^) $(PKG_LIBS)
$(BUILD)/asan/tests/%: tests/%.c tests/testlib.h $(call objs,asan,$(LIB_OBJ_SRCS)) | $(TEST_STAMP)
	@mkdir -p $(dir $@)
	@echo "LD test $@"
	@$(CC) $(ALL_CFLAGS) -O1 $(SAN) $(TEST_CFLAGS) -o $@ $< $(filter %.o,$^) $(PKG_LIBS) $(TEST_LIBS)

# ThreadSanitizer over the two-thread paths of the decoders, the model
# builder's layout and the traffic: their tests, built from core/, decode/
# and traffic/ alone; and over the renderer's, whose summaries are made on
# threads of their own (the lanes' summaries, the viewer's jobs):
# test_render, built from everything (tests/tsan.supp: what the libraries
# do on threads of their own).
TSAN_LIBS  = $(shell pkg-config --libs jansson libxxhash libelf 2>/dev/null) -lm -lpthread
TSAN_BINS := $(BUILD)/tsan/tests/test_v2 $(BUILD)/tsan/tests/test_legacy $(BUILD)/tsan/tests/test_chan \
             $(BUILD)/tsan/tests/test_core $(BUILD)/tsan/tests/test_render
$(BUILD)/tsan/tests/test_render: $(call objs,tsan,$(LIB_OBJ_SRCS))
$(BUILD)/tsan/tests/test_render: TSAN_LIBS = $(PKG_LIBS)
$(BUILD)/tsan/tests/%: tests/%.c tests/testlib.h $(call objs,tsan,$(wildcard core/*.c decode/*.c traffic/*.c)) | $(TEST_STAMP)
	@mkdir -p $(dir $@)
	@echo "LD tsan $@"
	@$(CC) $(ALL_CFLAGS) -O1 $(TSAN) $(TEST_CFLAGS) -o $@ $< $(filter %.o,$^) $(TSAN_LIBS) $(TEST_LIBS)

$(BUILD)/gen/shaders.c: $(SHADERS) tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh $(SHADERS) > $@.tmp && mv $@.tmp $@

test: $(TEST_STAMP) chanscope $(BUILD)/asan/chanscope $(TEST_BINS) $(TSAN_BINS) fuzz-build
	@sh tests/run.sh $(BUILD)/asan $(TEST_BINS) $(TSAN_BINS)

# libFuzzer harnesses (clang): tests/fuzz/fuzz_*.c over the whole pipeline.
FUZZ_SECONDS ?= 60
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h tests/lay_all.h $(call objs,fuzz,$(LIB_OBJ_SRCS))
	@echo "LD fuzz $@"
	@$(CLANG) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $< $(filter %.o,$^) $(PKG_LIBS)
fuzz-build: $(TEST_STAMP) $(FUZZ_BINS)
fuzz: fuzz-build
	@sh tools/fuzz.sh $(BUILD)/fuzz $(FUZZ_SECONDS) keep
fuzz-smoke: fuzz-build
	@sh tools/fuzz.sh $(BUILD)/fuzz 5
# Line coverage the harnesses reach over their kept corpora (tools/fuzz_cov.sh).
FCOV_BINS := $(patsubst tests/fuzz/%.c,$(BUILD)/fcov/%,$(wildcard tests/fuzz/fuzz_*.c))
$(BUILD)/fcov/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h tests/lay_all.h $(call objs,fcov,$(LIB_OBJ_SRCS))
	@echo "LD fcov $@"
	@$(CLANG) $(FCOV) -fsanitize=fuzzer -o $@ $< $(filter %.o,$^) $(PKG_LIBS)
fuzz-cov: $(TEST_STAMP) $(FCOV_BINS)
	@sh tools/fuzz_cov.sh $(BUILD)/fcov $(FUZZ_EXTRA)

demo: chanscope
	@sh tools/demo.sh

bench: release $(TEST_STAMP) $(BUILD)/bench_layout
	@sh tools/bench.sh
$(BUILD)/bench_layout: tools/bench_layout.c $(call objs,opt,$(LIB_OBJ_SRCS))
	@$(CC) $(CSTD) -O2 $(PKG_CFLAGS) -o $@ $< $(filter %.o,$^) $(PKG_LIBS)

install: chanscope
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 chanscope $(DESTDIR)$(PREFIX)/bin/chanscope

clean:
	rm -rf $(BUILD)/rel $(BUILD)/opt $(BUILD)/pgo $(BUILD)/prof $(BUILD)/asan $(BUILD)/tsan $(BUILD)/fuzz \
	    $(BUILD)/fcov $(BUILD)/gen chanscope

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
.SECONDARY:
