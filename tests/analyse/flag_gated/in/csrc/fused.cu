#include <torch/extension.h>
#include <cuda_runtime.h>

// a comment: kernel<<<1, 1>>>() is not code
__global__ void gelu_kernel(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] * 0.5f * (1.0f + erff(x[i] * 0.70710678f));
}

torch::Tensor fused_gelu(torch::Tensor x)
{
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    auto y = torch::empty_like(x);
    int n = x.numel();
    auto stream = at::cuda::getCurrentCUDAStream();
    gelu_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x.data_ptr<float>(),
                                                     y.data_ptr<float>(), n);
    return y;
}

PYBIND11_MODULE(fused_ext, m)
{
    m.def("fused_gelu", &fused_gelu, "fused GELU (CUDA)");
}
