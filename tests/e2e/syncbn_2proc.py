"""Two processes over the emulated "hccl" backend: SyncBatchNorm on the
emulated NPU must equal BatchNorm over the whole batch in one process
(outputs, input gradients, summed weight gradients, running variance).
Run by tests/check_e2e.sh with PYTHONPATH=tools/npu_emu; prints
"rank R: OK" per rank."""
import os
import socket
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn

import torch_npu  # noqa: F401  (the emulator)


def worker(rank, port):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("hccl", rank=rank, world_size=2)
    torch.npu.set_device(rank)
    torch.manual_seed(0)
    x = torch.randn(8, 3, 4, 4) * 3 + 2
    ref = nn.BatchNorm2d(3)
    nn.init.uniform_(ref.weight)
    sbn = nn.SyncBatchNorm(3).npu()
    sbn.load_state_dict(ref.state_dict())
    xr = x.clone().requires_grad_()
    yr = ref(xr)
    (yr ** 3).sum().backward()
    part = slice(rank * 4, rank * 4 + 4)
    xs = x[part].clone().npu().requires_grad_()
    ys = sbn(xs)
    (ys ** 3).sum().backward()
    grad = sbn.weight.grad.clone()
    dist.all_reduce(grad)
    checks = {
        "output": torch.allclose(ys, yr[part], atol=1e-5),
        "input grad": torch.allclose(xs.grad, xr.grad[part], atol=1e-4),
        "weight grad": torch.allclose(grad, ref.weight.grad, atol=1e-3),
        "running var": torch.allclose(sbn.running_var, ref.running_var,
                                      atol=1e-5),
    }
    bad = [name for name, good in checks.items() if not good]
    line = f"rank {rank}: {'OK' if not bad else 'MISMATCH ' + ', '.join(bad)}"
    # one write(2) per line: the two ranks share stdout, and print() may
    # write the text and its newline separately
    os.write(1, (line + "\n").encode())
    dist.destroy_process_group()
    if bad:
        sys.exit(1)


def main():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(worker, args=(port,), nprocs=2)  # raises if a rank fails


if __name__ == "__main__":
    main()
