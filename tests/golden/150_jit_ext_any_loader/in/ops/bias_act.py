import os

import torch

from . import custom_ops

_plugin = None
_here = os.path.dirname(__file__)


def _init():
    global _plugin
    if _plugin is None:
        _plugin = custom_ops.get_plugin(
            module_name="bias_act_plugin",
            sources=["bias_act.cpp", "bias_act.cu"],
            headers=["bias_act.h"],
            source_dir=_here,
            extra_cuda_cflags=["--use_fast_math"],
        )
    return True
