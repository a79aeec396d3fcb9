import torch
import torch_npu


def loader(ds, device):
    return torch.utils.data.DataLoader(
        ds, batch_size=8, pin_memory=(device.type == "npu")
    )


def step(model, x, y, opt):
    use_amp = x.device.type == "npu"
    scaler = torch.npu.amp.GradScaler(enabled=use_amp)
    with torch.autocast(device_type=x.device.type, enabled=use_amp):
        loss = torch.nn.functional.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    return loss


def move(batch, device):
    if "npu" in str(device):
        batch = batch.pin_memory()
    if batch.is_npu:
        return batch
    return batch.to(device, non_blocking=True)


def main():
    device = torch.device("npu" if torch.npu.is_available() else "cpu")
    model = torch.nn.Linear(4, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = move(torch.randn(8, 4), device)
    print(step(model, x, torch.randn(8, 1, device=device), opt))
