#!/bin/sh
torchrun --nproc_per_node 2 tools/train.py --cfg configs/a.yaml
python -m pkg.evaluate --ckpt last.pt
