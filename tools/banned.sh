#!/bin/sh
# Functions the house style bans (c_style.md 3.9): unsafe or non-reentrant.
if grep -nE '\b(strcpy|strcat|sprintf|vsprintf|strtok|atoi|atol|gets)\s*\(' \
    src/*/*.c src/*/*.h src/*/*/*.c src/*/*/*.h include/npuify/*.h 2>/dev/null; then
    echo "banned function used (see above)" >&2
    exit 1
fi
exit 0
