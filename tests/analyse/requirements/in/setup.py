from setuptools import setup

triton = "a variable named like a package: not a dependency"
setup(
    name="demo",
    install_requires=["torch>=2.1", "xformers==0.0.22", 'cupy-cuda12x'],
)
