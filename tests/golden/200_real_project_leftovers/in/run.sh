#!/bin/sh
# 1-bit Adam needs nccl >= 2.8.3
NCCL_TREE_THRESHOLD=0 deepspeed train.py --deepspeed_config ds_nccl.json
