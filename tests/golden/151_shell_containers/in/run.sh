#!/bin/bash
# nvidia-smi in a comment is not reported; docker run --gpus all neither
nvidia-smi --query-gpu=name --format=csv
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
docker run --gpus all --rm -v "$PWD":/ws my/train:cu118 \
    python /ws/train.py --gpus 4
docker run --runtime=nvidia -it my/train:latest bash
nvidia-docker run -it my/train:latest bash
python train.py --gpus 8   # a training flag, not a container
pip install torch==2.1.0+cu118 --index-url https://download.pytorch.org/whl/cu118
docker pull my/train:latest && python train.py --gpus 4
pip install -r requirements.txt && nvidia-smi
