"""Memory tracking that keeps the torch module on the instance."""
import gc


class MemoryTracker:
    def __init__(self, enabled=True):
        self.torch = None
        if not enabled:
            return
        import torch

        self.torch = torch
        self.amp = torch.cuda.amp
        self.profiler = torch.profiler
        self.backend = torch
        self.start_mem = 0

    def start(self):
        gc.collect()
        if self.torch is not None:
            self.torch.cuda.reset_peak_memory_stats()
            self.torch.cuda.empty_cache()
            self.start_mem = self.torch.cuda.memory_allocated()
            self.torch.backends.cudnn.benchmark = True

    def step(self, model, x):
        with self.amp.autocast():
            out = model(x)
        with self.profiler.profile():
            pass
        # not a module any more: assigned something else below
        self.backend.cuda.synchronize()
        return out

    def reset(self):
        self.backend = "gloo"

    def stop(self):
        def peak():
            return self.torch.cuda.max_memory_allocated()

        return peak() - self.start_mem

    @staticmethod
    def helper(self):
        return self.torch.cuda.device_count()


class Unrelated:
    def go(self):
        return self.torch.cuda.device_count()
