"""LSTM language model, timed with torch.cuda.synchronize()."""
import argparse
import sys
import time

import torch
import torch.nn as nn


class LM(nn.Module):
    def __init__(self, vocab=50, emb=16, hid=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hid, num_layers=2, batch_first=True)
        self.out = nn.Linear(hid, vocab)

    def forward(self, x, h=None):
        y, h = self.lstm(self.emb(x), h)
        return self.out(y), h


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cuda", action="store_true", default=True)
    args = p.parse_args()
    args.cuda = args.cuda and torch.cuda.is_available()
    torch.manual_seed(0)
    dev = torch.device("cuda" if args.cuda else "cpu")
    model = LM().to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    data = torch.randint(0, 50, (4, 21))
    for step in range(4):
        start = time.time()
        x, y = data[:, :-1].to(dev), data[:, 1:].to(dev)
        logits, _ = model(x)
        loss = nn.functional.cross_entropy(logits.reshape(-1, 50),
                                           y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        opt.step()
        if args.cuda:
            torch.cuda.synchronize()
        elapsed = time.time() - start
        print(f"loss {loss.item():.9g}")
        print(f"step {step}: {elapsed * 1000:.1f} ms", file=sys.stderr)


if __name__ == "__main__":
    main()
