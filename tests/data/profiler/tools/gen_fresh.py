#!/usr/bin/python3
"""Make fresh profiler logs with Debian's torch (1.13 CPU) and the truth.

usage: gen_fresh.py OUTDIR

For each tiny model (mlp, cnn, lstm, transformer) it trains 3 steps under
torch.autograd.profiler.profile(record_shapes=True), printing training
chatter and, per step, key_averages(group_by_input_shape=True).table(
row_limit=-1) into OUTDIR/<model>.log (the Ascend guide's per-step recipe),
and one raw-event table of the last step (prof.table(row_limit=-1)) into
OUTDIR/<model>_raw.log. Next to each log, <log>.truth holds what the
profiler's Python API reports for the same profiles: one line per
(step, name, shapes) group, "step<TAB>name<TAB>count<TAB>shapes", with the
name and shapes as the table prints them (name cut to 52 chars + "...",
shapes cut to the column width), so tests can compare npuify's rows with
the API instead of with npuify itself.
"""
import os
import sys

import torch
import torch.nn as nn

torch.manual_seed(0)


def models():
    yield 'mlp', nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5)), \
        lambda b: torch.randn(b, 20), 5
    yield 'cnn', nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(),
                               nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                               nn.Linear(8, 4)), \
        lambda b: torch.randn(b, 3, 12, 12), 4

    class Lstm(nn.Module):
        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(6, 12, batch_first=True)
            self.head = nn.Linear(12, 3)

        def forward(self, x):
            return self.head(self.lstm(x)[0][:, -1])
    yield 'lstm', Lstm(), lambda b: torch.randn(b, 4, 6), 3

    class Tiny(nn.Module):
        def __init__(self):
            super().__init__()
            self.enc = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0,
                                                  batch_first=True)
            self.head = nn.Linear(16, 2)

        def forward(self, x):
            return self.head(self.enc(x).mean(1))
    yield 'transformer', Tiny(), lambda b: torch.randn(b, 5, 16), 2


def name_as_printed(name):
    return name[:52] + '...' if len(name) >= 52 else name


def table_widths(events):
    """Shape column width as _build_table computes it (1.13)."""
    longest = max([len(str(e.input_shapes)) for e in events] + [0])
    return min(longest + 4, 80)


def truth_lines(step, events):
    width = table_widths(events)
    out = []
    for e in events:
        shapes = str(e.input_shapes)[:width]
        out.append('%d\t%s\t%d\t%s' % (step, name_as_printed(e.key), e.count,
                                        shapes))
    return out


def train(out, name, model, make, classes):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    log = open(os.path.join(out, name + '.log'), 'w')
    truth = []
    for step in (1, 2, 3):
        batch = 8 if step < 3 else 5  # the last batch is smaller
        x, y = make(batch), torch.randint(0, classes, (batch,))
        with torch.autograd.profiler.profile(record_shapes=True) as prof:
            loss = loss_fn(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print('epoch 0 step %d loss: %.4f [lr=0.1]' % (step, loss.item()),
              file=log)
        avg = prof.key_averages(group_by_input_shape=True)
        print(avg.table(sort_by='self_cpu_time_total', row_limit=-1), file=log)
        truth += truth_lines(step, avg)
    log.close()
    with open(os.path.join(out, name + '.log.truth'), 'w') as f:
        f.write('\n'.join(truth) + '\n')
    # raw events of one more step: one row per call
    with torch.autograd.profiler.profile(record_shapes=True) as prof:
        loss = loss_fn(model(make(4)), torch.randint(0, classes, (4,)))
        loss.backward()
    with open(os.path.join(out, name + '_raw.log'), 'w') as f:
        print('raw events follow', file=f)
        print(prof.table(row_limit=-1), file=f)
    events = prof.function_events
    width = table_widths(events)
    with open(os.path.join(out, name + '_raw.log.truth'), 'w') as f:
        for e in events:
            f.write('1\t%s\t1\t%s\n' % (name_as_printed(e.name),
                                        str(e.input_shapes)[:width]))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, model, make, classes in models():
        train(out, name, model, make, classes)


if __name__ == '__main__':
    main()
