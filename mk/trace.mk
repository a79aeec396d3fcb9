# proflog trace reader: the benchmark driver.
#   make MODE=release bench-trace   builds $(BUILD)/bench/trace_bench
#                                   and runs bench/trace.sh
# (The fuzz targets fuzz/fuzz_trace.c and fuzz/fuzz_proftext.c are built and
# run by fuzz/run.sh like every fuzz/fuzz_*.c.)
# The Makefile includes mk/*.mk before its own "all" rule; keep "all" the
# default goal. ($(LIB) and $(BIN) are defined after this file is read, so
# prerequisites spell the paths out.)
.DEFAULT_GOAL := all

.PHONY: bench-trace

$(BUILD)/bench/trace_bench: bench/trace_bench.c $(BUILD)/libnpuify.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libnpuify.a $(LDFLAGS) $(LDLIBS)

bench-trace: $(BUILD)/bench/trace_bench $(BUILD)/npuify
	@sh bench/trace.sh $(BUILD)
