#!/usr/bin/env python3
"""A word-level LSTM language model on a synthetic token stream.

Written for the npuify repository as a CUDA script that times itself the
CUDA way: torch.cuda.synchronize around wall-clock timing, torch.cuda.Event
pairs for per-step GPU time, torch.cuda.max_memory_allocated for the memory
peak, and torch.backends.cudnn switches. On a machine without CUDA it runs on
the CPU with wall-clock timing only:

    python3 train.py --steps 3
"""
import argparse
import math
import time

import torch
import torch.nn as nn


class LSTMLanguageModel(nn.Module):
    def __init__(self, vocab, emb, hidden, layers, dropout):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.drop = nn.Dropout(dropout)
        self.lstm = nn.LSTM(emb, hidden, layers, dropout=dropout,
                            batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, tokens, state=None):
        out, state = self.lstm(self.drop(self.embed(tokens)), state)
        return self.head(self.drop(out)), state


def token_stream(n, vocab, seed):
    # A stream with some structure (a noisy repeating pattern), so the loss
    # can actually go down.
    g = torch.Generator().manual_seed(seed)
    base = torch.arange(n) % 17
    noise = torch.randint(0, vocab, (n,), generator=g)
    keep = torch.rand(n, generator=g) < 0.8
    return torch.where(keep, base, noise)


def batches(stream, batch, seq_len):
    usable = (stream.numel() - 1) // (batch * seq_len) * batch * seq_len
    x = stream[:usable].view(batch, -1)
    y = stream[1:usable + 1].view(batch, -1)
    for i in range(0, x.size(1), seq_len):
        yield x[:, i:i + seq_len], y[:, i:i + seq_len]


def parse_args():
    parser = argparse.ArgumentParser(description="LSTM language model")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--vocab", type=int, default=100)
    parser.add_argument("--emb", type=int, default=32)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seq-len", type=int, default=20)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--clip", type=float, default=0.25)
    parser.add_argument("--deterministic", action="store_true")
    return parser.parse_args()


def main():
    args = parse_args()
    torch.manual_seed(0)
    torch.backends.cudnn.enabled = True
    torch.backends.cudnn.benchmark = not args.deterministic
    torch.backends.cudnn.deterministic = args.deterministic
    use_cuda = torch.cuda.is_available()
    device = torch.device("cuda:0" if use_cuda else "cpu")
    if use_cuda:
        torch.cuda.reset_peak_memory_stats()

    model = LSTMLanguageModel(args.vocab, args.emb, args.hidden, args.layers,
                              0.1).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.CrossEntropyLoss()
    stream = token_stream((args.steps + 1) * args.batch * args.seq_len,
                          args.vocab, seed=3)

    if use_cuda:
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    gpu_ms = 0.0
    state = None
    model.train()
    for step, (x, y) in enumerate(batches(stream, args.batch, args.seq_len)):
        if step >= args.steps:
            break
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        if use_cuda:
            start_ev = torch.cuda.Event(enable_timing=True)
            end_ev = torch.cuda.Event(enable_timing=True)
            start_ev.record()
        if state is not None:
            state = tuple(s.detach() for s in state)
        logits, state = model(x, state)
        loss = criterion(logits.reshape(-1, args.vocab), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        optimizer.step()
        if use_cuda:
            end_ev.record()
            torch.cuda.synchronize()
            gpu_ms += start_ev.elapsed_time(end_ev)
        if step % 20 == 0 or step == args.steps - 1:
            print(f"step {step}: loss {loss.item():.3f} "
                  f"ppl {math.exp(min(loss.item(), 20)):.1f}")

    if use_cuda:
        torch.cuda.synchronize()
    elapsed = time.perf_counter() - t0
    tokens = args.steps * args.batch * args.seq_len
    print(f"{tokens / elapsed:.0f} tokens/s over {elapsed:.2f}s")
    if use_cuda:
        peak = torch.cuda.max_memory_allocated() / 2**20
        print(f"GPU time {gpu_ms:.1f} ms, peak memory {peak:.1f} MiB")


if __name__ == "__main__":
    main()
