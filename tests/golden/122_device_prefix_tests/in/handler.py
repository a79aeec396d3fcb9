import argparse

import torch


class Handler:
    def initialize(self, gpu_id):
        self.map_location = 'cuda' if torch.cuda.is_available() else 'cpu'
        self.device = torch.device(self.map_location + ':' + str(gpu_id)
                                   if torch.cuda.is_available() else
                                   self.map_location)
        self.model = torch.load("model.pt", map_location=self.map_location)


def init_distributed(args):
    if args.device.startswith("cuda:"):
        torch.cuda.set_device(args.device)
    if str(args.device).startswith('cuda'):
        backend = "nccl"
    else:
        backend = "gloo"
    return backend


def is_cuda_name(name):
    # not a device: a kernel name
    return name.startswith("cuda")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cuda:0")
    init_distributed(p.parse_args())
