"""torch.amp style: torch.autocast(device_type=...), torch.cuda.amp's
GradScaler, device from torch.device."""
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = device.type == "cuda"
    model = nn.Sequential(nn.Linear(12, 24), nn.GELU(), nn.LayerNorm(24),
                          nn.Linear(24, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    scaler = torch.cuda.amp.GradScaler(enabled=use_amp)
    for step in range(5):
        x = torch.randn(10, 12, device=device)
        y = torch.randint(0, 2, (10,), device=device)
        with torch.autocast(device_type="cuda", dtype=torch.float16,
                            enabled=use_amp):
            loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        print(f"loss {loss.item():.9g}")


if __name__ == "__main__":
    main()
