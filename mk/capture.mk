# npuify ops --capture: embed tools/capture/sitecustomize.py into the library
# as a byte array (no Python or xxd needed at build time: od and sed).
# The Makefile includes mk/*.mk before its own "all" rule; keep "all" the
# default goal (a rule here would otherwise become it).
.DEFAULT_GOAL := all

CAPTURE_TEMPLATE := tools/capture/sitecustomize.py

$(BUILD)/gen/capture_data.c: $(CAPTURE_TEMPLATE) mk/capture.mk
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from $(CAPTURE_TEMPLATE) by mk/capture.mk; do not edit. */'; \
	  echo '#include <stddef.h>'; \
	  echo 'extern const unsigned char nfy__capture_sitecustomize[];'; \
	  echo 'extern const size_t nfy__capture_sitecustomize_len;'; \
	  echo 'const unsigned char nfy__capture_sitecustomize[] = {'; \
	  od -An -v -tx1 $(CAPTURE_TEMPLATE) | sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '0x00};'; \
	  echo 'const size_t nfy__capture_sitecustomize_len ='; \
	  echo '    sizeof nfy__capture_sitecustomize - 1;'; } >$@.tmp && mv $@.tmp $@

GEN_SRCS += $(BUILD)/gen/capture_data.c
