"""Entry script."""
import torch
import torch_npu
from torch_npu.contrib import transfer_to_npu
from lib.model import build


def main():
    model = build().cuda()
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
