"""Leftovers found by converting real projects (detectron2, fairseq, timm,
yolov5, Megatron-LM, DeepSpeedExamples): each line is CUDA usage that must be
converted or reported."""
import os
from dataclasses import dataclass, field

import torch
import torch_npu
import torch.distributed as dist
from torch import _C
import tensorrt as trt
import pycuda.autoinit
import transformer_engine.pytorch as te
from cudnn import DSA
import xentropy_cuda
from mypkg import libnat_cuda
from caffe2.proto import caffe2_pb2

os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
os.environ.setdefault("NCCL_TREE_THRESHOLD", "0")
USE_NEW_NCCL = os.getenv("NCCL_USE_NEW_PATH", "0")


@dataclass
class DistConfig:
    distributed_backend: str = field(default="hccl", metadata={"help": "backend"})


def setup(has_gpu, rank, world):
    dist.init_process_group(backend="HCCL" if has_gpu else "GLOO", rank=rank,
                            world_size=world)
    if dist.get_backend() == "hccl":
        print("nccl backend >=2.5 requires GPU count>1")
    # cudnn benchmark has large overhead for small inputs
    print(f"CUDA device: {torch.npu.get_device_name()}")
    x = torch.zeros(2).to(f"npu:{rank}")
    return x


def profile(step):
    with torch.autograd.profiler.emit_nvtx():
        step()


def set_rng(new_state):
    _C._cuda_setRNGState(new_state)


def extension(x, w):
    return xentropy_cuda.forward(x, w), libnat_cuda


def caffe2_device(core):
    return core.DeviceOption(caffe2_pb2.CUDA, 0)


OPTIMIZERS = [
    dict(name="fusedadam", opt_class="apex.optimizers.FusedAdam"),
]
