import torch


def describe():
    for i in range(torch.cuda.device_count()):
        props = torch.cuda.get_device_properties("cuda:{}".format(i))
        name = torch.cuda.get_device_name(f"cuda:{i}")
        used = torch.cuda.memory_allocated("cuda:%d" % i)
        print(name, props.total_memory, used)
    torch.cuda.set_device("cuda:0")
    torch.cuda.synchronize("cuda")
