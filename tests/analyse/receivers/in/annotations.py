from typing import Optional
import torch


def f(tokens: torch.LongTensor, mask: Optional[torch.BoolTensor] = None,
      d=torch.LongTensor([1]), s: slice = slice(1, 2)) -> torch.FloatTensor:
    x: torch.IntTensor = torch.IntTensor([1])
    return torch.LongTensor([1, 2])
