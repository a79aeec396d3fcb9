"""Tests of the torch_npu emulator (tools/npu_emu) on hand-written NPU code.

Run by tests/check_e2e.sh as
    PYTHONPATH=tools/npu_emu /usr/bin/python3 tests/e2e/test_emu.py
Each test prints "ok NAME" or "FAIL NAME: why"; the last line is
"N passed, N failed". transfer_to_npu cannot be undone, so its tests run
last, in this process; environment settings are checked in a child process.
"""
import io
import json
import os
import pickle
import socket
import subprocess
import sys
import tempfile
import time
import traceback

# The tests expect the emulator's defaults (one NPU, bf16 autocast, no
# transfer_to_npu at import), whatever the calling shell has set.
for _name in ("NPUIFY_EMU_DEVICES", "NPUIFY_EMU_AMP", "NPUIFY_EMU_LOG",
              "TORCH_TRANSFER_TO_NPU"):
    os.environ.pop(_name, None)

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.nn as nn  # noqa: E402

import torch_npu  # noqa: E402,F401  (the emulator under test)

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def expect_raises(exc, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc:
        return
    raise AssertionError(f"{fn.__name__} did not raise {exc.__name__}")


@test
def npu_module_registered():
    import torch.npu as tn
    from torch.npu.amp import GradScaler, autocast  # noqa: F401
    assert tn is torch.npu is torch_npu.npu
    assert torch.npu.is_available() is True
    assert torch.npu.device_count() == 1
    assert torch.npu.get_device_name(0) == "Ascend910B (emulated on CPU)"
    props = torch.npu.get_device_properties(0)
    assert props.total_memory == 64 * 2**30 and "Ascend" in props.name
    assert torch.npu.get_device_capability() is None
    for name in ("memory_allocated", "max_memory_allocated",
                 "memory_reserved"):
        value = getattr(torch.npu, name)()
        assert isinstance(value, int) and value >= 0, name
    torch.npu.reset_peak_memory_stats()
    torch.npu.synchronize()
    torch.npu.empty_cache()
    free, total = torch.npu.mem_get_info()
    assert 0 < free <= total


@test
def set_default_tensor_type_refuses_npu_types():
    # torch_npu's restriction: torch.npu tensor types are not accepted
    try:
        torch.set_default_tensor_type("torch.npu.FloatTensor")
    except TypeError as e:
        assert "set_default_device" in str(e)
    else:
        raise AssertionError("torch.npu.FloatTensor was accepted")
    torch.set_default_tensor_type("torch.FloatTensor")  # CPU types are


@test
def set_device_checks_range():
    torch.npu.set_device(0)
    torch.npu.set_device("npu:0")
    assert torch.npu.current_device() == 0
    expect_raises(RuntimeError, torch.npu.set_device, 1)
    expect_raises(RuntimeError, torch.zeros, 1, device="npu:3")
    far = torch.device("npu:5")  # constructing is fine, using is not
    expect_raises(RuntimeError, torch.ones(1).npu, 5)
    assert far.type == "cpu"
    with torch.npu.device(0):
        assert torch.npu.current_device() == 0


@test
def events_time_with_host_clock():
    start = torch.npu.Event(enable_timing=True)
    end = torch.npu.Event(enable_timing=True)
    expect_raises(RuntimeError, start.elapsed_time, end)
    start.record()
    time.sleep(0.03)
    end.record()
    end.synchronize()
    ms = start.elapsed_time(end)
    assert 25.0 <= ms < 1000.0, ms
    s = torch.npu.Stream()
    with torch.npu.stream(s):
        torch.ones(2, device="npu").sum()
    assert torch.npu.current_stream().query()
    s.wait_stream(torch.npu.current_stream())
    x = torch.ones(2).npu()
    x.record_stream(s)
    torch.npu.ipc_collect()


@test
def npu_seed_leaves_cpu_generator_alone():
    torch.manual_seed(7)
    a = torch.rand(4)
    torch.manual_seed(7)
    torch.npu.manual_seed(123)
    torch.npu.manual_seed_all(123)
    b = torch.rand(4)
    assert torch.equal(a, b)
    assert torch.npu.initial_seed() == 123


@test
def device_specs_mean_cpu():
    for spec in ("npu", "npu:0", torch.device("npu"), torch.device("npu:0"),
                 torch.device("npu", 0), torch.device(type="npu", index=0)):
        x = torch.ones(2, device=spec)
        assert x.device.type == "cpu", spec
        assert x.to(spec).device.type == "cpu"
        assert x.to(device=spec, dtype=torch.float64).dtype == torch.float64
        assert x.to(spec, torch.float16).dtype == torch.float16
    d = torch.device("npu:0")
    assert isinstance(d, torch.device) and d == torch.ones(1).device
    assert isinstance(torch.device("cpu"), torch.device)
    assert torch.device("cpu").type == "cpu"


@test
def cuda_still_fails_without_transfer():
    # A converted script that still says "cuda" must fail here, as it would
    # on an NPU machine.
    expect_raises((RuntimeError, AssertionError), torch.zeros, 1,
                  device="cuda")
    expect_raises((RuntimeError, AssertionError), torch.ones(1).cuda)
    assert torch.cuda.is_available() is False


@test
def factories_take_npu():
    checks = {
        "zeros": lambda d: torch.zeros(2, 3, device=d),
        "ones": lambda d: torch.ones(2, device=d),
        "empty": lambda d: torch.empty(2, device=d),
        "full": lambda d: torch.full((2,), 1.5, device=d),
        "rand": lambda d: torch.rand(2, device=d),
        "randn": lambda d: torch.randn(2, device=d),
        "randint": lambda d: torch.randint(0, 5, (3,), device=d),
        "randperm": lambda d: torch.randperm(4, device=d),
        "arange": lambda d: torch.arange(5, device=d),
        "linspace": lambda d: torch.linspace(0, 1, 3, device=d),
        "eye": lambda d: torch.eye(2, device=d),
        "tensor": lambda d: torch.tensor([1, 2], device=d),
        "as_tensor": lambda d: torch.as_tensor([1.0], device=d),
        "zeros_like": lambda d: torch.zeros_like(torch.ones(2), device=d),
        "ones_like": lambda d: torch.ones_like(torch.ones(2), device=d),
        "empty_like": lambda d: torch.empty_like(torch.ones(2), device=d),
        "full_like": lambda d: torch.full_like(torch.ones(2), 3, device=d),
        "rand_like": lambda d: torch.rand_like(torch.ones(2), device=d),
        "randn_like": lambda d: torch.randn_like(torch.ones(2), device=d),
        "new_zeros": lambda d: torch.ones(1).new_zeros(3, device=d),
        "new_tensor": lambda d: torch.ones(1).new_tensor([2.0], device=d),
        "Linear(device=)": lambda d: nn.Linear(2, 2, device=d).weight,
    }
    for name, make in checks.items():
        for spec in ("npu", "npu:0"):
            assert make(spec).device.type == "cpu", (name, spec)


@test
def tensor_and_module_npu():
    x = torch.ones(3)
    assert x.is_npu and x.npu() is x and x.npu(0, non_blocking=True) is x
    m = nn.Linear(3, 1)
    assert m.npu() is m and m.npu(0) is m and m.to("npu:0") is m
    assert m.to(device="npu", dtype=torch.float64).weight.dtype == \
        torch.float64
    expect_raises(RuntimeError, x.npu, 2)
    assert x.pin_memory() is x and x.pin_memory("npu") is x


@test
def generator_on_npu():
    g = torch.Generator(device="npu")
    assert isinstance(g, torch.Generator)
    g.manual_seed(3)
    a = torch.rand(3, generator=g)
    g2 = torch.Generator()
    g2.manual_seed(3)
    assert torch.equal(a, torch.rand(3, generator=g2))


@test
def save_load_with_npu_map_location():
    state = {"w": torch.arange(4.0), "dev": torch.device("npu:0")}
    buf = io.BytesIO()
    torch.save(state, buf)
    for loc in ("npu:0", torch.device("npu"), {"cpu": "npu:0"}, None):
        buf.seek(0)
        back = torch.load(buf, map_location=loc)
        assert torch.equal(back["w"], state["w"]), loc
        assert back["dev"] == torch.device("cpu")
    # A checkpoint written here must unpickle in a plain torch too: the
    # device is stored as the global torch.device.
    assert b"ctorch\ndevice\n" in pickle.dumps(torch.device("npu"), 0)


@test
def jit_script_still_compiles_factories():
    sys.path.insert(0, HERE)
    import jit_snippet  # a file: TorchScript needs the source
    out = jit_snippet.scripted(torch.ones(3))
    assert torch.equal(out, torch.ones(3))


@test
def dataloader_pin_memory_device_npu():
    from torch.utils.data import DataLoader, TensorDataset
    data = TensorDataset(torch.arange(8.0))
    loader = DataLoader(data, batch_size=4, pin_memory=True,
                        pin_memory_device="npu")
    batches = [b[0] for b in loader]
    assert torch.equal(torch.cat(batches), torch.arange(8.0))
    loader = DataLoader(data, batch_size=2, num_workers=2, pin_memory=True,
                        pin_memory_device="npu:0")
    assert sorted(b[0].npu().sum().item() for b in loader) == [1, 5, 9, 13]


@test
def autocast_npu_is_cpu_bf16():
    from torch.npu.amp import autocast
    m = nn.Linear(4, 2)
    x = torch.randn(3, 4)
    with autocast():
        assert m(x).dtype == torch.bfloat16
    with autocast(enabled=False):
        assert m(x).dtype == torch.float32
    with torch.autocast(device_type="npu", dtype=torch.float16):
        assert m(x).dtype == torch.bfloat16
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=False):
        assert m(x).dtype == torch.float32

    @autocast()
    def decorated(t):
        return m(t)
    assert decorated(x).dtype == torch.bfloat16


@test
def grad_scaler_passes_through():
    from torch.npu.amp import GradScaler
    torch.manual_seed(0)
    m = nn.Linear(4, 1)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    scaler = GradScaler()
    loss = m(torch.ones(2, 4)).sum()
    assert scaler.scale(loss) is loss
    scaler.scale(loss).backward()
    grad = m.weight.grad.clone()
    before = m.weight.detach().clone()
    scaler.unscale_(opt)
    scaler.step(opt)
    scaler.update()
    assert torch.allclose(m.weight, before - 0.1 * grad)
    state = scaler.state_dict()
    assert set(state) >= {"scale", "growth_factor", "growth_interval"}
    GradScaler().load_state_dict(state)
    assert GradScaler(enabled=False).state_dict() == {}


@test
def profiler_takes_npu_activity():
    import torch_npu.profiler as prof
    config = prof._ExperimentalConfig(profiler_level=prof.ProfilerLevel.Level1)
    with prof.profile(activities=[prof.ProfilerActivity.CPU,
                                  prof.ProfilerActivity.NPU],
                      experimental_config=config) as p:
        torch.mm(torch.ones(8, 8, device="npu"), torch.ones(8, 8))
    names = {e.key for e in p.key_averages()}
    assert "aten::mm" in names, names


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sync_batch_norm_matches_batch_norm():
    # The synchronised CPU path over a one-process group must compute what
    # plain batch norm computes: output, running stats and gradients.
    from torch_npu._patch_syncbn import _synced_batch_norm
    torch.manual_seed(1)
    x = torch.randn(4, 3, 5, 5) * 2 + 1
    bn = nn.BatchNorm2d(3)
    sbn = nn.SyncBatchNorm.convert_sync_batchnorm(nn.Sequential(
        nn.BatchNorm2d(3)))[0]
    nn.init.uniform_(bn.weight)
    sbn.load_state_dict(bn.state_dict())
    xa = x.clone().requires_grad_()
    xb = x.clone().requires_grad_()
    ya = bn(xa)
    yb = _synced_batch_norm(sbn, xb, dist.group.WORLD)
    (ya * ya.detach().sign()).sum().backward()
    (yb * yb.detach().sign()).sum().backward()
    assert torch.allclose(ya, yb, atol=1e-5)
    assert torch.allclose(xa.grad, xb.grad, atol=1e-5)
    assert torch.allclose(bn.weight.grad, sbn.weight.grad, atol=1e-4)
    assert torch.allclose(bn.running_mean, sbn.running_mean, atol=1e-6)
    assert torch.allclose(bn.running_var, sbn.running_var, atol=1e-5)
    assert torch.allclose(sbn(x.npu()), bn(x), atol=1e-5)  # world size 1


@test
def hccl_process_group_and_ddp():
    from torch.nn.parallel import DistributedDataParallel as DDP
    assert dist.is_hccl_available()
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()))
    dist.init_process_group(backend="hccl", rank=0, world_size=1)
    try:
        assert dist.get_backend() == "hccl"
        t = torch.ones(2, device="npu") * 3
        dist.all_reduce(t)
        assert t.tolist() == [3.0, 3.0]
        torch.manual_seed(0)
        for bad in (["cuda:0"], [1]):  # not an emulated NPU
            expect_raises((ValueError, RuntimeError), DDP,
                          nn.Linear(4, 1).npu(), device_ids=bad)
        DDP(nn.Linear(4, 1).npu(), device_ids=["npu:0"], output_device=0)
        model = DDP(nn.Linear(4, 1).npu(0), device_ids=[0])
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        loss = model(torch.ones(2, 4, device="npu:0")).pow(2).mean()
        loss.backward()
        opt.step()
        assert torch.isfinite(loss)
        dist.barrier()
        sync_batch_norm_matches_batch_norm()
    finally:
        dist.destroy_process_group()


@test
def npu_training_matches_cpu_training():
    # The same tiny model trained as NPU code and as CPU code must produce
    # the same losses: the emulator adds no arithmetic of its own.
    def train(device, use_npu_api):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
        model = model.npu() if use_npu_api else model.to(device)
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        losses = []
        for _ in range(5):
            x = torch.randn(4, 8, device=device)
            y = torch.randn(4, 1, device=device)
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if use_npu_api:
                torch.npu.synchronize()
            losses.append(loss.item())
        return losses
    cpu = train("cpu", False)
    npu = train("npu:0", True)
    assert cpu == npu, (cpu, npu)


@test
def environment_settings_in_child():
    code = ("import torch, torch_npu\n"
            "m = torch.nn.Linear(2, 2)\n"
            "with torch.npu.amp.autocast():\n"
            "    dt = m(torch.ones(1, 2)).dtype\n"
            "torch.npu.set_device(1)\n"
            "torch.npu.config.allow_internal_format = False\n"
            "assert torch.cuda.is_available()  # TORCH_TRANSFER_TO_NPU=1\n"
            "torch.ones(1).npu()\n"
            "print(torch.npu.device_count(), dt)\n")
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "emu.jsonl")
        env = dict(os.environ, NPUIFY_EMU_DEVICES="2", NPUIFY_EMU_AMP="off",
                   NPUIFY_EMU_LOG=log, TORCH_TRANSFER_TO_NPU="1")
        env.pop("NPUIFY_EMU_QUIET", None)
        run = subprocess.run([sys.executable, "-c", code], env=env,
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        assert run.stdout.split() == ["2", "torch.float32"], run.stdout
        banner = [ln for ln in run.stderr.splitlines() if "emulator" in ln]
        assert banner == [torch_npu._BANNER], run.stderr
        with open(log, encoding="utf-8") as f:
            record = json.loads(f.read())
        assert record["set_device"] == [1], record
        assert record["npu_device_uses"] == 1, record
        assert record["autocast_enters"] == 1, record
        assert record["transfer_to_npu"] is True, record


@test
def transfer_to_npu_maps_cuda():  # irreversible: keep it last
    nvtx = torch.cuda.nvtx
    from torch_npu.contrib import transfer_to_npu  # noqa: F401
    from torch.cuda.amp import GradScaler, autocast
    assert torch.cuda.is_available() and torch.cuda.device_count() == 1
    assert torch.cuda.get_device_name() == "Ascend910B (emulated on CPU)"
    assert torch.cuda.nvtx is nvtx  # names torch.npu lacks stay CUDA's
    x = torch.ones(2).cuda()
    assert x.is_cuda and x.device.type == "cpu"
    assert torch.zeros(1, device="cuda:0").device.type == "cpu"
    assert torch.ones(1).to(0).device.type == "cpu"
    assert torch.device("cuda", 0) == torch.device("cpu")
    assert nn.Linear(2, 2).cuda().weight.device.type == "cpu"
    with autocast():
        assert nn.Linear(2, 2)(x).dtype == torch.bfloat16
    assert GradScaler is torch.npu.amp.GradScaler
    assert dist.is_nccl_available()
    os.environ["MASTER_PORT"] = str(free_port())
    dist.init_process_group("nccl", rank=0, world_size=1)
    try:
        assert dist.get_backend() == "hccl"
    finally:
        dist.destroy_process_group()


def main():
    passed = failed = 0
    for fn in TESTS:
        try:
            fn()
        except Exception:  # noqa: BLE001  (report every failure, go on)
            failed += 1
            why = traceback.format_exc().strip().splitlines()
            print(f"FAIL {fn.__name__}: {why[-1]}")
            print("\n".join("    " + ln for ln in why[-6:]))
        else:
            passed += 1
            print(f"ok {fn.__name__}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
