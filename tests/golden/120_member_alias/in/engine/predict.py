import torch

from structures.boxes import Boxes, Generator, Results


def predict(model, images):
    gen = Generator(model).cuda()
    boxes = Boxes(torch.zeros(4, 4)).cuda()
    res = Results(boxes).cuda()
    if boxes.is_cuda:
        res = res.to("cuda:0")
    return gen(images.cuda()), res
