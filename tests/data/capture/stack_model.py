# tests/check_capture.sh: a model whose forward calls aten::heaviside (a
# CPU fallback on torch_npu 1.11 and 2.0) directly, through a Tensor
# method and through a helper module. Trained 2 steps (for
# `ops --capture`); with --table OUT it profiles itself with_stack and
# writes key_averages(group_by_stack_n=5).table() to OUT (the text path).
import sys

import torch

import stack_helper


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        y = self.fc(x)
        a = torch.heaviside(y.detach(), torch.zeros(1))
        b = y.detach().heaviside(torch.ones(1))
        c = stack_helper.step_fn(y.detach())
        return (y + a + b + c).sum()


def train(steps):
    torch.manual_seed(0)
    net = Net()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        net(torch.randn(3, 4)).backward()
        opt.step()


if len(sys.argv) == 3 and sys.argv[1] == "--table":
    with torch.autograd.profiler.profile(record_shapes=True,
                                         with_stack=True) as prof:
        train(2)
    with open(sys.argv[2], "w") as f:
        f.write(prof.key_averages(group_by_stack_n=5).table(
            sort_by="self_cpu_time_total", row_limit=-1) + "\n")
else:
    train(2)
