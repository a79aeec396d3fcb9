"""Two-process DDP launched by torchrun: LOCAL_RANK, set_device,
DistributedSampler, nccl. Only rank 0 prints losses."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def main():
    local_rank = int(os.environ["LOCAL_RANK"])
    use_cuda = torch.cuda.is_available()
    dist.init_process_group("nccl" if use_cuda else "gloo")
    if use_cuda:
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
    else:
        device = torch.device("cpu")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1))
    model = model.to(device)
    ddp = DistributedDataParallel(
        model, device_ids=[local_rank] if use_cuda else None)
    g = torch.Generator().manual_seed(3)
    data = TensorDataset(torch.randn(32, 6, generator=g),
                         torch.randn(32, 1, generator=g))
    sampler = DistributedSampler(data, shuffle=False)
    loader = DataLoader(data, batch_size=4, sampler=sampler)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        loss = nn.functional.mse_loss(ddp(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        avg = loss.detach().clone()
        dist.all_reduce(avg)
        if dist.get_rank() == 0:
            print(f"loss {avg.item() / dist.get_world_size():.9g}")
    dist.barrier()  # no rank tears the store down while another uses it
    # Free DDP while the group is still registered: torch 1.13's Reducer,
    # destroyed holding the GIL, hangs the process at exit if it drops the
    # group's last reference while a gloo worker needs the GIL.
    del ddp
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
