import torch
import torch_npu


def describe():
    for i in range(torch.npu.device_count()):
        props = torch.npu.get_device_properties("npu:{}".format(i))
        name = torch.npu.get_device_name(f"npu:{i}")
        used = torch.npu.memory_allocated("npu:%d" % i)
        print(name, props.total_memory, used)
    torch.npu.set_device("npu:0")
    torch.npu.synchronize("npu")
