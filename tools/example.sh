#!/bin/sh
# The main job on the bundled example: convert examples/ (GPU training
# scripts) into an Ascend NPU project under build/example-npu and show the
# migration report summary.
set -e
bin=${1:-build/release/npuify}
out=build/example-npu
rm -rf "$out"
"$bin" convert examples -o "$out"
echo
echo "Converted tree: $out   Reports: $out/npuify_report/"
