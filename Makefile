# npuify build. Plain make, sources found by wildcard (src/MODULE/*.c and
# one folder below, src/MODULE/SUB/*.c), one output tree per mode:
# build/release (default), build/asan (ASan+UBSan), build/debug.
# Module-specific rules (generated data, extra test programs) live in mk/*.mk.

MODE    ?= release
PREFIX  ?= /usr/local
CC      ?= gcc
BUILD   := build/$(MODE)
LIB     := $(BUILD)/libnpuify.a
BIN     := $(BUILD)/npuify
.DEFAULT_GOAL := all

WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wformat=2 -Wvla -Wno-format-nonliteral
WERROR  ?= -Werror
CSTD    := -std=c11 -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE
OPT_release := -O2 -g
OPT_debug   := -O0 -g3
OPT_asan    := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
               -fno-omit-frame-pointer
OPT_cov     := -O0 -g --coverage
# Library objects for the libFuzzer targets (built with CC=clang-14).
OPT_fuzz    := -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
               -fno-sanitize-recover=all -fno-omit-frame-pointer
CFLAGS  ?=
CFLAGS  += $(CSTD) $(WARN) $(WERROR) $(OPT_$(MODE)) -Iinclude -Isrc -I$(BUILD)/gen
LDFLAGS += $(filter-out -fsanitize=fuzzer-no-link%,$(filter -fsanitize% --coverage,$(OPT_$(MODE))))
LDLIBS  += -ljansson -lsqlite3 -lz -lm -lpthread

LIB_SRCS  = $(filter-out src/cli/%,$(wildcard src/*/*.c src/*/*/*.c))
CLI_SRCS  = $(wildcard src/cli/*.c)
GEN_SRCS  :=
# mk/*.mk may add to GEN_SRCS (generated C under $(BUILD)/gen) and TEST_EXTRA.
-include mk/*.mk

LIB_OBJS  = $(LIB_SRCS:%.c=$(BUILD)/%.o) $(GEN_SRCS:$(BUILD)/%.c=$(BUILD)/%.o)
CLI_OBJS  = $(CLI_SRCS:%.c=$(BUILD)/%.o)
UNIT_SRCS = $(wildcard tests/unit/test_*.c)
UNIT_BINS = $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all lib unit test check asan example install format format-check \
        bench fuzz clean lint e2e

all: $(BIN) $(UNIT_BINS)

lib: $(LIB)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Wno-overlength-strings -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(CLI_OBJS) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS) -lcmocka

# Unit tests only (fast).
unit: $(UNIT_BINS)
	@sh tools/run-tests.sh --unit $(BUILD)

# The whole suite: unit tests in release and under ASan+UBSan, golden cases,
# corpus properties. Ends with one "N passed, N failed" line.
test: all
	$(MAKE) MODE=asan all
	@sh tools/run-tests.sh --all $(BUILD) build/asan

check: test

asan:
	$(MAKE) MODE=asan all
	@sh tools/run-tests.sh --unit build/asan

# The main job on the bundled example.
example: $(BIN)
	@sh tools/example.sh $(BIN)

# Every benchmark, each against its baselines in the same run.
bench: $(BIN)
	@sh bench/tree.sh $(BIN)
	@/usr/bin/python3 bench/lsp_latency.py $(BIN)
	@/usr/bin/python3 bench/lsp_latency.py $(BIN) 20000 30 real

fuzz:
	@sh fuzz/run.sh

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/npuify
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/npuify
	cp -R data/. $(DESTDIR)$(PREFIX)/share/npuify/
	rm -rf $(DESTDIR)$(PREFIX)/share/npuify/npu_emu
	cp -R tools/npu_emu $(DESTDIR)$(PREFIX)/share/npuify/npu_emu
	find $(DESTDIR)$(PREFIX)/share/npuify/npu_emu -name __pycache__ \
	  -type d -prune -exec rm -rf {} +

# run/verify end to end: training scripts x conversion modes on the
# emulated NPU against their CPU originals (tests/check_verify.sh).
e2e: $(BIN)
	@NPUIFY=$(BIN) sh tests/check_verify.sh

FORMAT_FILES = $(wildcard include/npuify/*.h src/*/*.c src/*/*.h src/*/*/*.c src/*/*/*.h tests/unit/*.c tests/unit/*.h fuzz/*.c)
format:
	clang-format -i $(FORMAT_FILES)

format-check:
	clang-format --dry-run -Werror $(FORMAT_FILES)
	@sh tools/banned.sh

lint:
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
	  --std=c11 -Iinclude -Isrc src include

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
