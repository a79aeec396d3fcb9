#!/usr/bin/env python
"""Launcher without a torch import of its own."""
from __future__ import annotations

from lib.model import build

if __name__ == "__main__":
    build()
