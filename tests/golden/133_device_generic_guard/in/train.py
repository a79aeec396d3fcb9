import torch


def loader(ds, device):
    return torch.utils.data.DataLoader(
        ds, batch_size=8, pin_memory=(device.type == "cuda")
    )


def step(model, x, y, opt):
    use_amp = x.device.type == "cuda"
    scaler = torch.cuda.amp.GradScaler(enabled=use_amp)
    with torch.autocast(device_type=x.device.type, enabled=use_amp):
        loss = torch.nn.functional.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    return loss


def move(batch, device):
    if "cuda" in str(device):
        batch = batch.pin_memory()
    if batch.is_cuda:
        return batch
    return batch.to(device, non_blocking=True)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = torch.nn.Linear(4, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = move(torch.randn(8, 4), device)
    print(step(model, x, torch.randn(8, 1, device=device), opt))
