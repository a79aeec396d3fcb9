import torch


def nms(boxes, scores, iou):
    return torch.ops.mmcv.nms(boxes, scores, iou)
