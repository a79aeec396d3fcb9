#!/bin/sh
# Convert real training projects and audit what CUDA usage is left over.
#
#   sh tools/try_projects.sh PROJ_DIR OUT_DIR [NAME...]
#
# PROJ_DIR holds one extracted source tree per project (PROJ_DIR/NAME/);
# each is converted with `npuify convert PROJ_DIR/NAME -o OUT_DIR/NAME`
# (OUT_DIR/NAME is replaced), then tools/audit_cuda.py lists every CUDA-ish
# line of the output that is neither converted nor covered by the report.
# No network: fetch and extract the trees first, e.g.
#   git --git-dir=MIRROR archive HEAD imagenet | tar -x -C PROJ_DIR/imagenet
# Trees audited so far (subtrees): pytorch/examples (imagenet/; all *.py),
# pytorch-image-models (timm/ train.py), yolov5 (all), detectron2
# (detectron2/ tools/), fairseq (fairseq/ fairseq_cli/), accelerate
# (examples/), DeepSpeedExamples (training/), Megatron-LM (megatron/
# pretrain_gpt.py), nanoGPT (all), pytorch-lightning (src/lightning/
# {pytorch,fabric}/{accelerators,strategies}), mmengine (mmengine/{runner,
# device,dist,model/wrappers,optim/optimizer,utils/dl_utils}), mmdetection
# 3.x (tools/, from a fork: the upstream snapshot is too large to fetch),
# diffusers (examples/text_to_image), detr and DINO (all), ultralytics 8.4
# (ultralytics/engine, utils/{torch_utils,autobatch,dist,checks}.py, from a
# mirror), transformers 4.33 (examples/pytorch, src/transformers/{trainer,
# training_args,trainer_utils,trainer_pt_utils}.py, from a snapshot repo).
# Env: NPUIFY (default build/release/npuify), AUDIT_FLAGS (default -v).
# Exit status: the audit's (1 when something was missed).
set -u
[ $# -ge 2 ] || { sed -n '2,25p' "$0"; exit 2; }
NPUIFY=${NPUIFY:-build/release/npuify}
proj=$1; out=$2; shift 2
[ $# -gt 0 ] || set -- $(ls "$proj")
mkdir -p "$out"
pairs=""
for name in "$@"; do
    [ -d "$proj/$name" ] || continue
    rm -rf "${out:?}/$name"
    "$NPUIFY" convert "$proj/$name" -o "$out/$name" --quiet \
        >"$out/$name.log" 2>&1
    echo "convert $name: rc=$?" >&2
    pairs="$pairs $proj/$name $out/$name"
done
exec /usr/bin/python3 "$(dirname "$0")/audit_cuda.py" ${AUDIT_FLAGS--v} $pairs
