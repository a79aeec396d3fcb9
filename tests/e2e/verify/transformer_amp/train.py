"""Transformer encoder with torch.cuda.amp and gradient clipping."""
import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast


def main():
    torch.manual_seed(0)
    use_amp = torch.cuda.is_available()
    dev = "cuda" if use_amp else "cpu"
    layer = nn.TransformerEncoderLayer(d_model=16, nhead=2,
                                       dim_feedforward=32, dropout=0.0,
                                       batch_first=True)
    model = nn.Sequential(nn.Embedding(30, 16),
                          nn.TransformerEncoder(layer, num_layers=2),
                          nn.Linear(16, 30)).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = GradScaler(enabled=use_amp)
    src = torch.randint(0, 30, (4, 12))
    for step in range(4):
        x = src.to(dev)
        with autocast(enabled=use_amp):
            logits = model(x)
            loss = nn.functional.cross_entropy(logits.view(-1, 30),
                                               x.view(-1))
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
        print(f"loss {loss.item():.9g}")


if __name__ == "__main__":
    main()
