# bench: the front-end benchmark program (bench/bench_front.c), linked
# against libnpuify; `make bench` builds it before running bench/tree.sh
# (its front-end rows) and bench/run.sh uses it for the detailed table.
# (The Makefile defines LIB after including this file, so the library is
# named directly in the prerequisites.)
.DEFAULT_GOAL := all

$(BUILD)/bench_front: bench/bench_front.c $(BUILD)/libnpuify.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libnpuify.a $(LDFLAGS) $(LDLIBS)

bench: $(BUILD)/bench_front
