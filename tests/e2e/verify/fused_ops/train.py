"""The GPU original: plain-torch RMSNorm, rotary embedding, attention,
torch.optim.AdamW, on "cuda" when there is one."""
import torch

from model import Block


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Block().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    x = torch.randn(2, 8, 16, device=device)
    for step in range(4):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"loss {loss.item():.9g}")


if __name__ == "__main__":
    main()
