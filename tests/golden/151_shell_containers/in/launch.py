import os
import subprocess

os.system("docker run --gpus all -it my/img:latest python train.py")
subprocess.run(["docker", "run", "--runtime=nvidia", "img"], check=True)
subprocess.check_call("pip install torch==2.1.0+cu118", shell=True)
subprocess.run(["python", "train.py", "--gpus", "4"])
os.system("nvidia-smi")
