"""Makes the TorchScript models and tensor data for test_torchscript, the way the README tells users to:
torch.jit.script + torch.jit.save (scripting needs the source in a file, hence this script)."""
import sys

import torch


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 32), torch.nn.ReLU(),
                                        torch.nn.Linear(32, 10))

    def forward(self, x):
        return self.body(x)


class NanOutput(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(784, 10)

    def forward(self, x):
        return self.lin(x.flatten(1)) * float("nan")


def main(out):
    torch.manual_seed(0)
    torch.jit.save(torch.jit.script(Mlp()), out + "/mlp.pt")
    torch.jit.save(torch.jit.script(NanOutput()), out + "/nan.pt")
    torch.jit.save(torch.jit.script(torch.nn.Linear(8, 1)), out + "/linear.pt")
    g = torch.Generator().manual_seed(1)
    x = torch.randn(256, 8, generator=g)
    w = torch.arange(8.0).unsqueeze(1) / 8
    torch.save({"x": x, "y": x @ w + 0.5}, out + "/regression.pt")


if __name__ == "__main__":
    main(sys.argv[1])
