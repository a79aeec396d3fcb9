"""Tiny CPU training run for tests/check_capture.sh: a 2-layer MLP on
random data, SGD, a few steps. With --self-profile FILE it profiles itself
(autograd profiler, record_shapes=True) and writes one line per distinct
(op name, input shapes) pair from key_averages(group_by_input_shape=True),
as "name<TAB>shapes", for comparison with what npuify ops --capture finds.
"""
import argparse

import torch
from torch import nn


def train(steps, batch):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    for step in range(steps):
        x = torch.randn(batch, 20)
        y = torch.randint(0, 4, (batch,))
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        print("step %d loss %.4f" % (step, loss.item()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--self-profile", metavar="FILE")
    args = ap.parse_args()
    if not args.self_profile:
        train(args.steps, args.batch)
        return
    with torch.autograd.profiler.profile(record_shapes=True) as prof:
        train(args.steps, args.batch)
    rows = set()
    for avg in prof.key_averages(group_by_input_shape=True):
        rows.add("%s\t%s" % (avg.key, avg.input_shapes))
    with open(args.self_profile, "w") as f:
        for r in sorted(rows):
            f.write(r + "\n")


if __name__ == "__main__":
    main()
