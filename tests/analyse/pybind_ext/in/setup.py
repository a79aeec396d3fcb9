from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fused_ext",
    ext_modules=[CUDAExtension("fused_ext", ["csrc/fused.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
