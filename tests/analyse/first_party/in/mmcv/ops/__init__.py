from .nms import nms
