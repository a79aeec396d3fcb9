import torch
from setup_model import model, crit, opt, x, y
loss = crit(model(x), y)
loss.backward()
opt.step()
print("loss %.4f" % loss.item())
