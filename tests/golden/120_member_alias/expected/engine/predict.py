import torch
import torch_npu

from structures.boxes import Boxes, Generator, Results


def predict(model, images):
    gen = Generator(model).npu()
    boxes = Boxes(torch.zeros(4, 4)).npu()
    res = Results(boxes).npu()
    if boxes.is_npu:
        res = res.to("npu:0")
    return gen(images.npu()), res
