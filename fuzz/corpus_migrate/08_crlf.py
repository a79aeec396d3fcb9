from torch import nn
import os, amp_C, sys

layer = nn.Linear(1, 1)
