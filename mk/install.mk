# make install: besides the binary, data and emulated NPU (Makefile), the
# library (static, and shared built from -fPIC objects with
# -fvisibility=hidden: only the NFY_API functions of include/npuify/npuify.h are exported),
# public headers, npuify.pc, a man page per command generated from each
# command's --help, and bash completion. `make shared` builds the .so only.
.DEFAULT_GOAL := all

NFY_SOVERSION := 0
NFY_LIBVERSION := $(shell sed -n 's/^\#define NPUIFY_VERSION "\(.*\)"/\1/p' include/npuify/npuify.h)
SO       := $(BUILD)/libnpuify.so.$(NFY_LIBVERSION)
PIC_OBJS  = $(LIB_SRCS:%.c=$(BUILD)/pic/%.o) \
            $(GEN_SRCS:$(BUILD)/gen/%.c=$(BUILD)/pic/gen/%.o)
PIC_FLAGS := -fPIC -fvisibility=hidden

$(BUILD)/pic/src/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PIC_FLAGS) -MMD -MP -c $< -o $@

$(BUILD)/pic/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PIC_FLAGS) -Wno-overlength-strings -MMD -MP -c $< -o $@

# mk/*.mk read after this file still add to GEN_SRCS: expand late.
.SECONDEXPANSION:
$(SO): $$(PIC_OBJS)
	$(CC) -shared -Wl,-soname,libnpuify.so.$(NFY_SOVERSION) $(LDFLAGS) \
	  -o $@ $(PIC_OBJS) $(LDLIBS)

-include $(wildcard $(BUILD)/pic/src/*/*.d $(BUILD)/pic/src/*/*/*.d $(BUILD)/pic/gen/*.d)

.PHONY: shared install-lib install-man install-completion
shared: $(SO)

LIBDIR ?= $(PREFIX)/lib
install-lib: $(LIB) $(SO)
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/include/npuify
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libnpuify.a
	install -m 755 $(SO) $(DESTDIR)$(LIBDIR)/libnpuify.so.$(NFY_LIBVERSION)
	ln -sf libnpuify.so.$(NFY_LIBVERSION) $(DESTDIR)$(LIBDIR)/libnpuify.so.$(NFY_SOVERSION)
	ln -sf libnpuify.so.$(NFY_SOVERSION) $(DESTDIR)$(LIBDIR)/libnpuify.so
	install -m 644 include/npuify/npuify.h $(DESTDIR)$(PREFIX)/include/npuify/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	  -e 's|@VERSION@|$(NFY_LIBVERSION)|' docs/npuify.pc.in \
	  >$(DESTDIR)$(LIBDIR)/pkgconfig/npuify.pc

install-man: $(BIN)
	sh tools/gen-man.sh $(BIN) $(DESTDIR)$(PREFIX)/share/man/man1

install-completion:
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 docs/completion/npuify.bash \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/npuify

install: install-lib install-man install-completion
