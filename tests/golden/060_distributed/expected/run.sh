#!/bin/sh
# launch on 8 cards
export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
export HCCL_SOCKET_IFNAME=eth0
NCCL_DEBUG=INFO python -m torch.distributed.run --nproc_per_node 8 dist_train.py
