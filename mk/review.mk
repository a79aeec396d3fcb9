# npuify review: embed the page's stylesheet and script (src/review/review.css,
# src/review/review.js, ASCII only) into the library as NUL-terminated arrays
# (od and sed, as mk/capture.mk).
.DEFAULT_GOAL := all

REVIEW_ASSETS := src/review/review.css src/review/review.js

$(BUILD)/gen/review_assets.c: $(REVIEW_ASSETS) mk/review.mk
	@mkdir -p $(dir $@)
	@{ echo '/* Generated from $(REVIEW_ASSETS) by mk/review.mk; do not edit. */'; \
	  echo '#include "review/review_internal.h"'; \
	  echo 'const char nfy__review_css[] = {'; \
	  od -An -v -tx1 src/review/review.css | sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '0x00};'; \
	  echo 'const char nfy__review_js[] = {'; \
	  od -An -v -tx1 src/review/review.js | sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '0x00};'; } >$@.tmp && mv $@.tmp $@

GEN_SRCS += $(BUILD)/gen/review_assets.c
