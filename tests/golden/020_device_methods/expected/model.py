import torch
import torch_npu
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        if not x.is_npu:
            x = x.npu(non_blocking=True)
        return self.fc(x)


def build(gpu):
    model = Net().npu()
    model = model.npu(gpu)
    loss = nn.CrossEntropyLoss().npu()
    state = {k: v.npu() for k, v in model.state_dict().items()}
    ok = torch.npu.is_available() and torch.npu
    fn = model.cuda  # a bound method, not called: left alone
    return model, loss, state, ok, fn
