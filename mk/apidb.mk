# apidb: the support data under data/ become C tables at build time.
# tools/gendata.c is a host tool (plain flags, no sanitizers); it reads every
# file of data/npu and data/torch and writes $(BUILD)/gen/apidb_data.c, which
# the Makefile compiles into libnpuify through GEN_SRCS. The directories are
# prerequisites too, so adding or removing a data file regenerates.

APIDB_GEN      := $(BUILD)/gen/apidb_data.c
APIDB_GENDATA  := $(BUILD)/tools/gendata
APIDB_DATA     := $(wildcard data/npu/* data/torch/*)

GEN_SRCS += $(APIDB_GEN)

$(APIDB_GENDATA): tools/gendata.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -Werror -O2 -o $@ $<

$(APIDB_GEN): $(APIDB_GENDATA) $(APIDB_DATA) data/npu data/torch
	@mkdir -p $(dir $@)
	$(APIDB_GENDATA) data $@
