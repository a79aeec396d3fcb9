import torch

from lib.model import Net


def main():
    model = Net().cuda()
    print(model)


main()
