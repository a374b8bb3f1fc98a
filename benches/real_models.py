"""Two architectures no kernel here was tuned on, built from `burnpy.nn` and in PyTorch from the
same weights: torchvision's ResNet-18 and a GPT-2-like decoder.

- `ResNet18`: torchvision's structure (a 7x7 stride-2 stem, a 3x3 stride-2 max pool, four
  stages of two BasicBlocks of widths 64-128-256-512, 1x1 stride-2 downsampling, global average
  pooling, a linear head), named as torchvision names it, so that `load_pytorch` loads
  torchvision's `resnet18` weights into it as they are;
- `GPT2`: learned token and position embeddings, pre-norm blocks (fused query-key-value
  projection, causal attention, an MLP of 4 d with the tanh GELU), a final layer norm and a
  head tied to the token embedding; `torch_gpt2` is its PyTorch twin, holding its weights.
"""

import tempfile
from pathlib import Path

from burnpy import nn
from burnpy import module

# -- ResNet-18 --------------------------------------------------------------------------------


class BasicBlock(nn.Module):
    """Two 3x3 convolutions with batch norm, and the shortcut: the input, or a 1x1 strided
    convolution and batch norm where the shape changes."""

    def __init__(self, channels_in, channels_out, stride, *, device, initializer=None):
        super().__init__()
        conv = dict(bias=False, device=device, initializer=initializer)
        self.conv1 = nn.Conv2d(channels_in, channels_out, 3, stride=stride, padding=1, **conv)
        self.bn1 = nn.BatchNorm(channels_out, device=device)
        self.conv2 = nn.Conv2d(channels_out, channels_out, 3, padding=1, **conv)
        self.bn2 = nn.BatchNorm(channels_out, device=device)
        self.downsample = None
        if stride != 1 or channels_in != channels_out:
            self.downsample = nn.Sequential(
                nn.Conv2d(channels_in, channels_out, 1, stride=stride, **conv),
                nn.BatchNorm(channels_out, device=device),
            )

    def forward(self, x):
        out = self.bn1(self.conv1(x)).relu()
        out = self.bn2(self.conv2(out))
        shortcut = x if self.downsample is None else self.downsample(x)
        return (out + shortcut).relu()


class ResNet18(nn.Module):
    """Images [batch, 3, h, w] to class logits [batch, classes]; `initializer` for the weights
    (burnpy's defaults if None)."""

    def __init__(self, classes, *, device, initializer=None):
        super().__init__()
        conv = dict(bias=False, device=device, initializer=initializer)
        self.conv1 = nn.Conv2d(3, 64, 7, stride=2, padding=3, **conv)
        self.bn1 = nn.BatchNorm(64, device=device)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        widths = (64, 128, 256, 512)
        channels = 64
        for index, width in enumerate(widths):
            stride = 1 if index == 0 else 2
            blocks = nn.Sequential(
                BasicBlock(channels, width, stride, device=device, initializer=initializer),
                BasicBlock(width, width, 1, device=device, initializer=initializer),
            )
            setattr(self, f"layer{index + 1}", blocks)
            channels = width
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(512, classes, device=device, initializer=initializer)

    def forward(self, x):
        x = self.maxpool(self.bn1(self.conv1(x)).relu())
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(self.avgpool(x).flatten(1, 3))


def register_torchvision_schemas(torch) -> None:
    """torchvision's C extension's two op schemas, which is all its Python code (and
    transformers, which imports it) needs when the extension does not load."""
    for name in ("nms", "qnms"):
        try:
            torch.library.define(
                f"torchvision::{name}",
                "(Tensor dets, Tensor scores, float iou_threshold) -> Tensor",
            )
        except RuntimeError:  # already registered (by the extension, or an earlier call)
            pass


def torchvision_resnet18(torch, classes):
    """torchvision's resnet18 definition (its op schemas registered first)."""
    register_torchvision_schemas(torch)
    import torchvision

    return torchvision.models.resnet18(num_classes=classes)


def torchvision_mobilenet_v3_small(torch, classes):
    """torchvision's mobilenet_v3_small definition (its op schemas registered first)."""
    register_torchvision_schemas(torch)
    import torchvision

    return torchvision.models.mobilenet_v3_small(num_classes=classes)


def resnet18_pair(torch, classes, device, seed=0):
    """(torchvision's resnet18 seeded with `seed`, our ResNet18 on `device` holding its
    weights, loaded from its state_dict as a user would)."""
    from safetensors.torch import save_file

    torch.manual_seed(seed)
    net = torchvision_resnet18(torch, classes)
    ours = ResNet18(classes, device=device, initializer=nn.init.zeros())  # loaded over next
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "resnet18.safetensors"
        save_file({k: v.contiguous() for k, v in net.state_dict().items()}, str(path))
        nn.load_pytorch(ours, path)
    return net, ours


# -- GPT-2 ------------------------------------------------------------------------------------


def _normal():
    return nn.init.normal(0.0, 0.02)  # GPT-2's initialisation


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, *, device):
        super().__init__()
        init = _normal()
        self.c_attn = nn.Linear(d_model, 3 * d_model, device=device, initializer=init)
        self.c_proj = nn.Linear(d_model, d_model, device=device, initializer=init)
        self.n_heads = n_heads

    def forward(self, x):
        batch, seq, d_model = x.shape
        heads, d_head = self.n_heads, d_model // self.n_heads
        q, k, v = (
            t.reshape([batch, seq, heads, d_head]).swap_dims(1, 2)
            for t in self.c_attn(x).split(d_model, 2)
        )
        context = module.attention(q, k, v, is_causal=True)
        return self.c_proj(context.swap_dims(1, 2).reshape([batch, seq, d_model]))


class Block(nn.Module):
    def __init__(self, d_model, n_heads, *, device):
        super().__init__()
        init = _normal()
        self.ln_1 = nn.LayerNorm(d_model, device=device)
        self.attn = CausalSelfAttention(d_model, n_heads, device=device)
        self.ln_2 = nn.LayerNorm(d_model, device=device)
        self.c_fc = nn.Linear(d_model, 4 * d_model, device=device, initializer=init)
        self.gelu = nn.Gelu(approximate=True)
        self.c_proj = nn.Linear(4 * d_model, d_model, device=device, initializer=init)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.c_proj(self.gelu(self.c_fc(self.ln_2(x))))


class GPT2(nn.Module):
    """Token ids [batch, seq] to next-token logits [batch, seq, vocab]."""

    def __init__(self, vocab, context, d_model, n_heads, layers, *, device):
        super().__init__()
        init = _normal()
        self.wte = nn.Embedding(vocab, d_model, device=device, initializer=init)
        self.wpe = nn.Embedding(context, d_model, device=device, initializer=init)
        self.h = [Block(d_model, n_heads, device=device) for _ in range(layers)]
        self.ln_f = nn.LayerNorm(d_model, device=device)

    def forward(self, ids):
        seq = ids.shape[1]
        x = self.wte(ids) + self.wpe.weight.narrow(0, 0, seq).unsqueeze(3)
        for block in self.h:
            x = block(x)
        return self.ln_f(x).matmul(self.wte.weight.transpose())  # the tied head


def torch_gpt2(torch, ours: GPT2):
    """A torch module computing `ours`'s forward from a copy of its weights."""
    F = torch.nn.functional

    def param(tensor, transpose=False):
        array = tensor.to_numpy()
        return torch.nn.Parameter(torch.from_numpy((array.T if transpose else array).copy()))

    def linear(layer):
        lin = torch.nn.Linear(*layer.weight.shape)
        lin.weight, lin.bias = param(layer.weight, True), param(layer.bias)
        return lin

    def norm(layer):
        ln = torch.nn.LayerNorm(layer.gamma.shape[0], eps=layer.epsilon)
        ln.weight, ln.bias = param(layer.gamma), param(layer.beta)
        return ln

    class TorchBlock(torch.nn.Module):
        def __init__(self, block):
            super().__init__()
            self.ln_1, self.ln_2 = norm(block.ln_1), norm(block.ln_2)
            self.c_attn, self.attn_proj = linear(block.attn.c_attn), linear(block.attn.c_proj)
            self.c_fc, self.c_proj = linear(block.c_fc), linear(block.c_proj)
            self.n_heads = block.attn.n_heads

        def forward(self, x):
            batch, seq, d_model = x.shape
            q, k, v = (
                t.view(batch, seq, self.n_heads, -1).transpose(1, 2)
                for t in self.c_attn(self.ln_1(x)).split(d_model, 2)
            )
            context = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.attn_proj(context.transpose(1, 2).reshape(batch, seq, d_model))
            return x + self.c_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))

    class TorchGPT2(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.wte, self.wpe = param(ours.wte.weight), param(ours.wpe.weight)
            self.h = torch.nn.ModuleList(TorchBlock(block) for block in ours.h)
            self.ln_f = norm(ours.ln_f)

        def forward(self, ids):
            x = self.wte[ids] + self.wpe[: ids.shape[1]]
            for block in self.h:
                x = block(x)
            return self.ln_f(x) @ self.wte.T

    return TorchGPT2()
