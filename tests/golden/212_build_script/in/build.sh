#!/bin/sh
nvcc --version
export TORCH_CUDA_ARCH_LIST="8.0"
python setup.py build_ext --inplace
