import os
import subprocess
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension, CUDA_HOME

os.environ["TORCH_CUDA_ARCH_LIST"] = "7.0;8.0"
if CUDA_HOME is None:
    raise RuntimeError("CUDA_HOME not set")
out = subprocess.check_output([os.path.join(CUDA_HOME, "bin", "nvcc"), "-V"])
nvcc_flags = ["-O3", "-gencode", "arch=compute_80,code=sm_80", "--use_fast_math"]
setup(
    name="ops",
    ext_modules=[CUDAExtension("ops_cuda", ["ops.cpp", "ops_kernel.cu"],
                               extra_compile_args={"cxx": ["-O3"], "nvcc": nvcc_flags})],
    cmdclass={"build_ext": BuildExtension},
)
