#include <torch/library.h>
#include <ATen/cuda/CUDAContext.h>

at::Tensor gelu_cuda(const at::Tensor &x);

TORCH_LIBRARY(myops, m)
{
    m.def("gelu(Tensor x) -> Tensor");
    m.def("fused_bias_act(Tensor x, Tensor b) -> Tensor");
}

TORCH_LIBRARY_IMPL(myops, CUDA, m)
{
    m.impl("gelu", &gelu_cuda);
}
