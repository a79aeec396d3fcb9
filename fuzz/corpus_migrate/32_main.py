"""Entry script."""
import torch
from lib.model import build


def main():
    model = build().cuda()
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
