import torch


def supports_bf16(d=0):
    props = torch.cuda.get_device_properties(d)
    print(f"compute capability {props.major}.{props.minor}")
    return props.major >= 8


class Runner:
    def __init__(self):
        self.props = torch.cuda.get_device_properties(0)
        name, p2 = torch.cuda.get_device_name(0), torch.cuda.get_device_properties(0)
        self.sms = p2.multi_processor_count

    def tf32(self):
        return self.props.major >= 8
