# proflog trace reader: the benchmark driver and the libFuzzer targets.
#   make MODE=release bench-trace   builds $(BUILD)/bench/trace_bench
#                                   and runs bench/trace.sh
#   make fuzz-proflog               builds build/fuzz/fuzz_trace and
#                                   build/fuzz/fuzz_proftext (clang-14,
#                                   -fsanitize=fuzzer,address,undefined)
# The Makefile includes mk/*.mk before its own "all" rule; keep "all" the
# default goal. ($(LIB) and $(BIN) are defined after this file is read, so
# prerequisites spell the paths out.)
.DEFAULT_GOAL := all

.PHONY: bench-trace fuzz-proflog

$(BUILD)/bench/trace_bench: bench/trace_bench.c $(BUILD)/libnpuify.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libnpuify.a $(LDFLAGS) $(LDLIBS)

bench-trace: $(BUILD)/bench/trace_bench $(BUILD)/npuify
	@sh bench/trace.sh $(BUILD)

FUZZ_CC     ?= $(shell command -v clang-14 || command -v clang)
FUZZ_FLAGS  := $(CSTD) -g -O1 -fsanitize=fuzzer,address,undefined \
               -fno-sanitize-recover=all -Iinclude -Isrc
FUZZ_CORE   := $(wildcard src/core/*.c)
FUZZ_TRACE  := $(FUZZ_CORE) $(filter-out src/proflog/trace_capture.c, \
               $(wildcard src/proflog/json_*.c src/proflog/trace_*.c))
FUZZ_TEXT   := $(FUZZ_CORE) $(wildcard src/proflog/text_*.c)

build/fuzz/fuzz_trace: fuzz/fuzz_trace.c $(FUZZ_TRACE)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ -lz -lm

build/fuzz/fuzz_proftext: fuzz/fuzz_proftext.c $(FUZZ_TEXT)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ -lz -lm

fuzz-proflog: build/fuzz/fuzz_trace build/fuzz/fuzz_proftext
