import glob
import os

import torch
import torch.utils.cpp_extension


def get_plugin(module_name, sources, **build_kwargs):
    # The loader itself: its sources come from the callers.
    return torch.utils.cpp_extension.load(name=module_name, sources=sources,
                                          **build_kwargs)
