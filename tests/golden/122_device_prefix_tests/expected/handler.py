import argparse

import torch
import torch_npu


class Handler:
    def initialize(self, gpu_id):
        self.map_location = 'npu' if torch.npu.is_available() else 'cpu'
        self.device = torch.device(self.map_location + ':' + str(gpu_id)
                                   if torch.npu.is_available() else
                                   self.map_location)
        self.model = torch.load("model.pt", map_location=self.map_location)


def init_distributed(args):
    if args.device.startswith("npu:"):
        torch.npu.set_device(args.device)
    if str(args.device).startswith('npu'):
        backend = "hccl"
    else:
        backend = "gloo"
    return backend


def is_cuda_name(name):
    # not a device: a kernel name
    return name.startswith("cuda")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="npu:0")
    init_distributed(p.parse_args())
