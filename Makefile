# chanscope — build, test, demo, bench, install.
#   make            build ./chanscope (optimised, profile-guided: see PGO below)
#   make test       everything under -fsanitize=address,undefined + the CLI tests,
#                   and the decoder tests under -fsanitize=thread
#   make demo       render the bundled example trace
#   make bench      speed and memory figures on large generated traces
#   make fuzz       libFuzzer harnesses (FUZZ_SECONDS=N each)
#   make fuzz-cov   line coverage the harnesses reach over their corpora
#   make install    PREFIX=/usr/local DESTDIR=
# Dependencies are Debian packages found with pkg-config; `make deps` installs
# them with apt-get when run as root, and prints the command otherwise.

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
VERSION := 0.1.0

PKGS      := glfw3 glew cglm libgvc libcgraph egl gl jansson libxxhash libelf libgif
TEST_PKGS := cmocka
DEB_PKGS  := build-essential pkg-config libglfw3-dev libglew-dev libcglm-dev libgraphviz-dev \
             graphviz libstb-dev libegl-dev libegl1-mesa-dev libgl-dev libegl-mesa0 \
             libgl1-mesa-dri libglx-mesa0 fonts-dejavu-core libjansson-dev libxxhash-dev \
             libelf-dev libgif-dev libcmocka-dev xz-utils golang-1.19-go \
             xvfb xauth x11-utils xdotool imagemagick libxml2-utils chromium jq clang libclang-rt-14-dev

BUILD := build
STAMP := $(BUILD)/.deps-ok

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lstb -lm -lpthread -ldl
TEST_CFLAGS = $(shell pkg-config --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS   = $(shell pkg-config --libs $(TEST_PKGS) 2>/dev/null)

WARN    := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
CSTD    := -std=c11 -D_GNU_SOURCE -DCS_VERSION=\"$(VERSION)\"
CFLAGS  ?= -O2 -g
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ALL_CFLAGS = $(CSTD) $(WARN) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP

LIB_SRCS := $(wildcard core/*.c decode/*.c layout/*.c render/*.c export/*.c)
CLI_SRCS := $(wildcard cli/*.c)
SHADERS  := $(wildcard shaders/*.vert shaders/*.frag)
GEN_SRCS := $(if $(SHADERS),$(BUILD)/gen/shaders.c)
TEST_SRCS := $(wildcard tests/test_*.c)

REL_OBJS  := $(patsubst %.c,$(BUILD)/rel/%.o,$(LIB_SRCS) $(GEN_SRCS:$(BUILD)/%=%))
ASAN_OBJS := $(patsubst %.c,$(BUILD)/asan/%.o,$(LIB_SRCS) $(GEN_SRCS:$(BUILD)/%=%))
REL_CLI   := $(patsubst %.c,$(BUILD)/rel/%.o,$(CLI_SRCS))
ASAN_CLI  := $(patsubst %.c,$(BUILD)/asan/%.o,$(CLI_SRCS))
TEST_BINS := $(patsubst tests/%.c,$(BUILD)/asan/tests/%,$(TEST_SRCS))

.PHONY: all deps test demo bench fuzz fuzz-build fuzz-smoke fuzz-cov install clean
all: chanscope

deps: $(STAMP)
$(STAMP):
	@mkdir -p $(BUILD)
	@if pkg-config --exists $(PKGS) $(TEST_PKGS) && command -v Xvfb >/dev/null && command -v xdotool >/dev/null \
	    && command -v xmllint >/dev/null && command -v dot >/dev/null && command -v clang >/dev/null \
	    && test -x /usr/lib/go-1.19/bin/go && test -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
	    && command -v convert >/dev/null && command -v chromium >/dev/null && command -v jq >/dev/null; then touch $@; \
	elif [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages: $(DEB_PKGS)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(DEB_PKGS) >/dev/null \
	    && touch $@; \
	else echo "missing dependencies; run as root: apt-get install $(DEB_PKGS)"; exit 1; fi

chanscope: $(STAMP) $(REL_OBJS) $(REL_CLI)
	@echo "LD      $@"
	@$(CC) $(CFLAGS) -o $@ $(REL_OBJS) $(REL_CLI) $(PKG_LIBS)

# PGO: the release binary is built twice. First instrumented (build/pgo),
# and run over the repository's own test traces (tools/pgo_train.sh); then
# for real, with the branch and call counts that run left (-fprofile-use),
# so that GCC lays out the decoders' loops the way real traces run them:
# about 5% faster on large traces the training never saw. Code the training
# does not reach is optimised as without a profile (-fprofile-partial-
# training). Both builds name a source's counts alike, in build/prof
# (-dumpdir, -dumpbase: GCC tells static functions apart by that name). Any
# source change retrains.
PGO_PROF   = -dumpdir $(abspath $(BUILD))/prof/ -dumpbase $(subst /,-,$<)
PGO_GEN    = -fprofile-generate -fprofile-update=atomic $(PGO_PROF)
PGO_USE    = -fprofile-use -fprofile-partial-training -Wno-missing-profile $(PGO_PROF)
PGO_OBJS  := $(patsubst $(BUILD)/rel/%,$(BUILD)/pgo/%,$(REL_OBJS) $(REL_CLI))
PGO_TRAIN := $(sort $(shell find tests/data -name '*.trace' 2>/dev/null))
PGO_DONE  := $(BUILD)/prof/.trained
$(BUILD)/pgo/chanscope: $(STAMP) $(PGO_OBJS)
	@$(CC) $(CFLAGS) -fprofile-generate -o $@ $(PGO_OBJS) $(PKG_LIBS)
$(PGO_DONE): $(BUILD)/pgo/chanscope tools/pgo_train.sh $(PGO_TRAIN)
	@echo "PGO     training on $(words $(PGO_TRAIN)) traces"
	@mkdir -p $(dir $@) && rm -f $(BUILD)/prof/*.gcda
	@sh tools/pgo_train.sh $(BUILD)/pgo/chanscope $(PGO_TRAIN)
	@touch $@
$(BUILD)/pgo/%.o: %.c | $(STAMP)
	@mkdir -p $(dir $@)
	@echo "CC pgo  $<"
	@$(CC) $(ALL_CFLAGS) $(PGO_GEN) -c $< -o $@
$(BUILD)/pgo/gen/%.o: $(BUILD)/gen/%.c | $(STAMP)
	@mkdir -p $(dir $@)
	@$(CC) $(ALL_CFLAGS) $(PGO_GEN) -c $< -o $@

$(BUILD)/asan/chanscope: $(STAMP) $(ASAN_OBJS) $(ASAN_CLI)
	@echo "LD asan $@"
	@$(CC) $(CFLAGS) $(SAN) -o $@ $(ASAN_OBJS) $(ASAN_CLI) $(PKG_LIBS)

$(BUILD)/rel/%.o: %.c $(PGO_DONE) | $(STAMP)
	@mkdir -p $(dir $@)
	@echo "CC      $<"
	@$(CC) $(ALL_CFLAGS) $(PGO_USE) -c $< -o $@
$(BUILD)/rel/gen/%.o: $(BUILD)/gen/%.c $(PGO_DONE) | $(STAMP)
	@mkdir -p $(dir $@)
	@echo "CC      $<"
	@$(CC) $(ALL_CFLAGS) $(PGO_USE) -c $< -o $@
$(BUILD)/asan/%.o: %.c | $(STAMP)
	@mkdir -p $(dir $@)
	@echo "CC asan $<"
	@$(CC) $(ALL_CFLAGS) -O1 $(SAN) -c $< -o $@
$(BUILD)/asan/gen/%.o: $(BUILD)/gen/%.c | $(STAMP)
	@mkdir -p $(dir $@)
	@echo "CC asan $<"
	@$(CC) $(ALL_CFLAGS) -O1 $(SAN) -c $< -o $@
$(BUILD)/asan/tests/%: tests/%.c tests/testlib.h $(ASAN_OBJS) | $(STAMP)
	@mkdir -p $(dir $@)
	@echo "LD test $@"
	@$(CC) $(ALL_CFLAGS) -O1 $(SAN) $(TEST_CFLAGS) -o $@ $< $(ASAN_OBJS) $(PKG_LIBS) $(TEST_LIBS)

# ThreadSanitizer over the decoders' two-thread paths: the decoder tests,
# built from core/ and decode/ alone.
TSAN      := -fsanitize=thread
TSAN_OBJS := $(patsubst %.c,$(BUILD)/tsan/%.o,$(wildcard core/*.c decode/*.c))
TSAN_LIBS  = $(shell pkg-config --libs jansson libxxhash libelf 2>/dev/null) -lm -lpthread
TSAN_BINS := $(BUILD)/tsan/tests/test_v2 $(BUILD)/tsan/tests/test_legacy
$(BUILD)/tsan/%.o: %.c | $(STAMP)
	@mkdir -p $(dir $@)
	@echo "CC tsan $<"
	@$(CC) $(ALL_CFLAGS) -O1 $(TSAN) -c $< -o $@
$(BUILD)/tsan/tests/%: tests/%.c tests/testlib.h $(TSAN_OBJS) | $(STAMP)
	@mkdir -p $(dir $@)
	@echo "LD tsan $@"
	@$(CC) $(ALL_CFLAGS) -O1 $(TSAN) $(TEST_CFLAGS) -o $@ $< $(TSAN_OBJS) $(TSAN_LIBS) $(TEST_LIBS)

$(BUILD)/gen/shaders.c: $(SHADERS) tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh $(SHADERS) > $@.tmp && mv $@.tmp $@

test: $(STAMP) chanscope $(BUILD)/asan/chanscope $(TEST_BINS) $(TSAN_BINS) fuzz-build
	@sh tests/run.sh $(BUILD)/asan $(TEST_BINS) $(TSAN_BINS)

# libFuzzer harnesses (clang): tests/fuzz/fuzz_*.c over the whole pipeline.
FUZZ_SECONDS ?= 60
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=undefined -g -O1
FUZZ_OBJS := $(patsubst %.c,$(BUILD)/fuzz/%.o,$(LIB_SRCS) $(GEN_SRCS:$(BUILD)/%=%))
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
$(BUILD)/fuzz/%.o: %.c | $(STAMP)
	@mkdir -p $(dir $@)
	@echo "CC fuzz $<"
	@clang $(CSTD) -Wall $(PKG_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@
$(BUILD)/fuzz/gen/%.o: $(BUILD)/gen/%.c | $(STAMP)
	@mkdir -p $(dir $@)
	@clang $(CSTD) $(PKG_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c $< -o $@
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h tests/lay_all.h $(FUZZ_OBJS)
	@echo "LD fuzz $@"
	@clang $(CSTD) -Wall $(PKG_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(PKG_LIBS)
fuzz-build: $(STAMP) $(FUZZ_BINS)
fuzz: fuzz-build
	@sh tools/fuzz.sh $(BUILD)/fuzz $(FUZZ_SECONDS) keep
fuzz-smoke: fuzz-build
	@sh tools/fuzz.sh $(BUILD)/fuzz 5
# Line coverage the harnesses reach over their kept corpora (tools/fuzz_cov.sh).
FCOV_CFLAGS := -fprofile-instr-generate -fcoverage-mapping -g -O1
FCOV_OBJS := $(patsubst %.c,$(BUILD)/fcov/%.o,$(LIB_SRCS) $(GEN_SRCS:$(BUILD)/%=%))
FCOV_BINS := $(patsubst tests/fuzz/%.c,$(BUILD)/fcov/%,$(wildcard tests/fuzz/fuzz_*.c))
$(BUILD)/fcov/%.o: %.c | $(STAMP)
	@mkdir -p $(dir $@)
	@echo "CC fcov $<"
	@clang $(CSTD) -Wall $(PKG_CFLAGS) $(FCOV_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@
$(BUILD)/fcov/gen/%.o: $(BUILD)/gen/%.c | $(STAMP)
	@mkdir -p $(dir $@)
	@clang $(CSTD) $(PKG_CFLAGS) $(FCOV_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
$(BUILD)/fcov/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h tests/lay_all.h $(FCOV_OBJS)
	@echo "LD fcov $@"
	@clang $(CSTD) -Wall $(PKG_CFLAGS) $(FCOV_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FCOV_OBJS) $(PKG_LIBS)
fuzz-cov: $(STAMP) $(FCOV_BINS)
	@sh tools/fuzz_cov.sh $(BUILD)/fcov $(FUZZ_EXTRA)

demo: chanscope
	@sh tools/demo.sh

bench: chanscope
	@sh tools/bench.sh

install: chanscope
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 chanscope $(DESTDIR)$(PREFIX)/bin/chanscope

clean:
	rm -rf $(BUILD)/rel $(BUILD)/pgo $(BUILD)/prof $(BUILD)/asan $(BUILD)/gen chanscope

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
.SECONDARY:
