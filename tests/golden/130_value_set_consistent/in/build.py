import argparse

import torch


def build(net, accel="cuda"):
    assert accel in ("cpu", "cuda")
    if accel == "cuda":
        torch.backends.cudnn.benchmark = True
    return net.to(torch.device(accel))


def evaluate(net, accel="cuda"):
    if accel != "cuda":
        return net
    return net.half()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--accel", default="cuda", choices=["cpu", "cuda"])
    args = parser.parse_args()
    net = build(torch.nn.Linear(4, 4), accel="cuda")
    net = evaluate(net, accel=args.accel)
    if args.accel == "cuda":
        print("accelerated")


if __name__ == "__main__":
    main()
