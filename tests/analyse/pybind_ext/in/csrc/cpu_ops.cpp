#include <torch/extension.h>

int64_t count_pairs(torch::Tensor x) { return x.numel() / 2; }

PYBIND11_MODULE(cpu_ops, m) { m.def("count_pairs", &count_pairs); }
