import torch
import torch_npu
from torch_npu.contrib import transfer_to_npu

from lib.model import Net


def main():
    model = Net().cuda()
    print(model)


main()
