# bench: the front-end benchmark program (bench/bench_front.c), linked
# against libnpuify; `make bench` builds it before running bench/run.sh.
.DEFAULT_GOAL := all

$(BUILD)/bench_front: bench/bench_front.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS)

bench: $(BUILD)/bench_front
