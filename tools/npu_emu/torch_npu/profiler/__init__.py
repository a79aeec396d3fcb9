"""torch_npu.profiler, emulated by torch.profiler on the CPU.

Converted scripts use torch_npu.profiler.profile with
ProfilerActivity.NPU and an experimental_config; here NPU activity is CPU
activity, experimental_config is accepted and ignored, and the trace is
torch's own (tensorboard_trace_handler writes kineto JSON).
"""
import torch.profiler as _tp
from torch.profiler import ProfilerAction, record_function, schedule, \
    tensorboard_trace_handler

__all__ = ["profile", "schedule", "tensorboard_trace_handler",
           "ProfilerActivity", "ProfilerAction", "record_function",
           "supported_activities", "ExportType", "ProfilerLevel",
           "AiCMetrics", "_ExperimentalConfig"]


class ProfilerActivity:
    CPU = _tp.ProfilerActivity.CPU
    NPU = _tp.ProfilerActivity.CPU  # the emulated NPU is the CPU


def supported_activities():
    return {ProfilerActivity.CPU}


class ExportType:
    Text = "text"
    Db = "db"


class ProfilerLevel:
    Level_none = "Level_none"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class AiCMetrics:
    AiCoreNone = "AiCoreNone"
    PipeUtilization = "PipeUtilization"


class _ExperimentalConfig:
    """Accepted for compatibility; NPU-only settings have no CPU meaning."""

    def __init__(self, **kwargs):
        self.options = kwargs


class profile(_tp.profile):
    def __init__(self, *, activities=None, experimental_config=None,
                 **kwargs):
        if activities is not None:
            activities = list(dict.fromkeys(activities))  # NPU == CPU
        super().__init__(activities=activities, **kwargs)
