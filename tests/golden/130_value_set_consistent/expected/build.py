import argparse

import torch
import torch_npu


def build(net, accel="npu"):
    assert accel in ("cpu", "npu")
    if accel == "npu":
        torch.backends.cudnn.benchmark = True
    return net.to(torch.device(accel))


def evaluate(net, accel="npu"):
    if accel != "npu":
        return net
    return net.half()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--accel", default="npu", choices=["cpu", "npu"])
    args = parser.parse_args()
    net = build(torch.nn.Linear(4, 4), accel="npu")
    net = evaluate(net, accel=args.accel)
    if args.accel == "npu":
        print("accelerated")


if __name__ == "__main__":
    main()
