#!/bin/sh
# Launch train.py on one node with one process per GPU over NCCL.
#   sh run.sh [DATA_DIR] [extra train.py args...]
# GPUS picks the devices (default: the first four).
set -e
cd "$(dirname "$0")"

export CUDA_VISIBLE_DEVICES=${GPUS:-0,1,2,3}
export NCCL_DEBUG=${NCCL_DEBUG:-INFO}
export NCCL_SOCKET_IFNAME=${NCCL_SOCKET_IFNAME:-eth0}
export NCCL_IB_DISABLE=1
export MASTER_ADDR=127.0.0.1
export MASTER_PORT=${MASTER_PORT:-29500}

NPROC=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | wc -l)
DATA=${1:-/data/imagenet}
[ $# -gt 0 ] && shift

echo "training on GPUs $CUDA_VISIBLE_DEVICES ($NPROC processes)"
torchrun --nproc_per_node="$NPROC" train.py "$DATA" \
    --dist-backend nccl --batch-size 256 --workers 8 "$@"
