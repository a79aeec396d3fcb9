FROM pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime
RUN conda install -y pytorch-cuda=12.1 -c nvidia
