import torch
import tilelang
import tilelang.language as T
import cutlass
import cutlass.cute as cute
from numba import cuda
import cupy as cp
import warp as wp
from pycuda.compiler import SourceModule
from torch.utils.cpp_extension import load_inline


@tilelang.jit(out_idx=[-1])
def flash_attention(M, N):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float16")):
        with T.Kernel(M, threads=128) as bx:
            pass
    return main


@cute.kernel
def gemm_kernel(a, b):
    pass


@cute.jit
def launch(a, b):
    gemm_kernel(a, b).launch(grid=[1, 1, 1])


@cuda.jit(device=True)
def rms_norm(x):
    return x


@cuda.jit
def add(x, y, out):
    i = cuda.grid(1)


add_k = cp.RawKernel(r'extern "C" __global__ void add(float* x) {}', 'add')
sq = cp.ElementwiseKernel('float32 x', 'float32 y', 'y = x * x', 'sq')
mod = SourceModule("__global__ void f(float *a) {}")
fn = torch.cuda.jiterator._create_jit_fn("template <typename T> T f(T x) { return x; }")


@wp.kernel
def rotary_embed(a: wp.array(dtype=float)):
    pass


ext = load_inline(name="e", cpp_sources="", cuda_sources="__global__ void k(){}")
