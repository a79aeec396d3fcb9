# rules: the built-in catalogue data/rules/rules.json becomes a byte array in
# $(BUILD)/gen/rules_builtin.c (tools/rules_embed.sh), compiled into
# libnpuify through GEN_SRCS and parsed at start-up by src/rules.

RULES_GEN  := $(BUILD)/gen/rules_builtin.c
RULES_JSON := data/rules/rules.json

GEN_SRCS += $(RULES_GEN)

$(RULES_GEN): $(RULES_JSON) tools/rules_embed.sh
	@mkdir -p $(dir $@)
	sh tools/rules_embed.sh $(RULES_JSON) $@
