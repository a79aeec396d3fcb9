#!/usr/bin/env python
"""Launcher without a torch import of its own."""
from __future__ import annotations
import torch_npu
from torch_npu.contrib import transfer_to_npu

from lib.model import build

if __name__ == "__main__":
    build()
