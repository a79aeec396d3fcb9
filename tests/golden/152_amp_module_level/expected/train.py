import torch
import torch_npu
from setup_model import model, crit, opt, x, y
amp_scaler = torch.npu.amp.GradScaler()
with torch.autocast(device_type="npu"):
    loss = crit(model(x), y)
amp_scaler.scale(loss).backward()
amp_scaler.step(opt)
amp_scaler.update()
print("loss %.4f" % loss.item())
