"""device = "cuda" if torch.cuda.is_available() else "cpu", .to(device)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv1d(2, 4, 3), nn.ReLU(), nn.Flatten(),
                          nn.Linear(4 * 14, 1)).to(device)
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    for step in range(5):
        x = torch.randn(8, 2, 16).to(device)
        y = torch.zeros(8, 1, device=device)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"loss {loss.item():.9g}")
    torch.save(model.state_dict(), "model.pt")
    state = torch.load("model.pt", map_location=device)
    assert set(state) == set(model.state_dict())


if __name__ == "__main__":
    main()
