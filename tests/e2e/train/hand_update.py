# A hand-written SGD update from .grad (word_language_model style): no
# optimizer, so the model is found by its forward call; AMP needs bf16.
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 8)
        self.out = nn.Linear(8, 10)

    def forward(self, tok):
        return self.out(torch.tanh(self.emb(tok)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    torch.manual_seed(0)
    src = torch.randint(0, 10, (64,))
    tgt = (src + 1) % 10
    loader = DataLoader(TensorDataset(src, tgt), batch_size=args.batch)
    model = TinyLM().cuda()
    criterion = nn.CrossEntropyLoss()
    lr = 0.5
    for epoch in range(args.epochs):
        model.train()
        for data, targets in loader:
            model.zero_grad()
            output = model(data.cuda())
            loss = criterion(output, targets.cuda())
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
            for p in model.parameters():
                p.data.add_(p.grad, alpha=-lr)
        with torch.no_grad():
            full = criterion(model(src.cuda()), tgt.cuda()).item()
        print("epoch %d loss %.6f" % (epoch, full))


if __name__ == "__main__":
    main()
