"""NPU streams and events, emulated.

The CPU runs every operation synchronously, so a stream is a token and
waiting on one returns at once. Events keep real timing: record() reads
time.perf_counter(), so elapsed_time() gives the wall-clock milliseconds
between two records, which is what a script timing its steps expects.
"""
import contextlib
import time

from .._emu import STATE, check_index, device_index


class Stream:
    """An NPU stream: ordering is trivial on the CPU, so this is a token."""

    def __init__(self, device=None, priority=0, **kwargs):
        self.device_index = device_index(device, STATE.current_device)
        check_index(self.device_index)
        self.priority = priority

    @property
    def device(self):
        return f"npu:{self.device_index}"

    def query(self):
        return True

    def synchronize(self):
        pass

    def wait_event(self, event):
        pass

    def wait_stream(self, other):
        pass

    def record_event(self, event=None):
        event = Event() if event is None else event
        event.record(self)
        return event

    def __repr__(self):
        return f"<torch_npu.npu.Stream device=npu:{self.device_index}>"


_DEFAULT_STREAMS = {}


def default_stream(device=None):
    index = device_index(device, STATE.current_device)
    check_index(index)
    return _DEFAULT_STREAMS.setdefault(index, Stream(index))


def current_stream(device=None):
    return default_stream(device)


def set_stream(stream_):
    pass


class StreamContext(contextlib.AbstractContextManager):
    def __init__(self, stream_):
        self.stream = stream_

    def __exit__(self, *exc):
        return False


def stream(stream_):
    return StreamContext(stream_)


class Event:
    """An NPU event timed with the host clock."""

    def __init__(self, enable_timing=False, blocking=False,
                 interprocess=False):
        self.enable_timing = enable_timing
        self._time = None

    def record(self, stream_=None):
        self._time = time.perf_counter()

    def query(self):
        return True

    def wait(self, stream_=None):
        pass

    def synchronize(self):
        pass

    def elapsed_time(self, end_event):
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Both events must be created with argument "
                               "'enable_timing=True'.")
        if self._time is None or end_event._time is None:
            raise RuntimeError("Both events must be recorded before "
                               "calculating elapsed time.")
        return (end_event._time - self._time) * 1000.0
