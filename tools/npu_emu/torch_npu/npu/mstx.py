"""torch_npu.npu.mstx, the NVTX replacement: marks and ranges, recorded.

On an NPU these annotate the msprof timeline; here they only check their
arguments and keep the open ranges, so range_pop without a push fails as
a mismatched range would in a profile.
"""
import functools

_RANGES = []
_NEXT_ID = [1]


def mark(message="", stream=None, domain="default"):
    if not isinstance(message, str):
        raise TypeError("mstx.mark takes a str message")


def range_push(message="", stream=None, domain="default"):
    _RANGES.append(message)
    return len(_RANGES)


def range_pop(domain="default"):
    if not _RANGES:
        raise RuntimeError("mstx.range_pop without a matching range_push")
    _RANGES.pop()
    return len(_RANGES)


def range_start(message="", stream=None, domain="default"):
    range_id = _NEXT_ID[0]
    _NEXT_ID[0] += 1
    return range_id


def range_end(range_id, domain="default"):
    if not isinstance(range_id, int) or range_id <= 0:
        raise ValueError("mstx.range_end takes the id range_start returned")


def mstx_range(message="", stream=None, domain="default"):
    """Decorator: the function's body as one range."""
    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            range_push(message or fn.__name__)
            try:
                return fn(*args, **kwargs)
            finally:
                range_pop()
        return inner
    return wrap
