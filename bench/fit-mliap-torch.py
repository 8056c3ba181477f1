"""The PyTorch reference of bench/fit-mliap.mjs: an eager float64 network on hookmd's dumped SNAP descriptors
and derivatives, with forces by autograd (F_i = -sum_j dE_j/dB_j . dB_j/dr_i, create_graph=True) and the
weight gradient by double backprop, Adam as torch.optim.Adam, the same mini-batches in file order. Prints
one JSON line: {losses (per epoch, mean over its batches), epochSeconds, version, threads}."""
import json
import sys
import time

import numpy as np
import torch

torch.set_default_dtype(torch.float64)
folder = sys.argv[1]
meta = json.load(open(f"{folder}/meta.json"))


def load(name, dtype):
    return torch.from_numpy(np.fromfile(f"{folder}/{name}", dtype=dtype).copy())


n = meta["descriptors"]
descriptors = load("descriptors.f64", np.float64).reshape(-1, n)
entry_begin = load("entry_begin.f64", np.float64).long()
entry_atom = load("entry_atom.i32", np.int32).long()
derivatives = load("derivatives.f64", np.float64).reshape(-1, n, 3)
ref_energy = load("ref_energy.f64", np.float64)
ref_forces = load("ref_forces.f64", np.float64).reshape(-1, 3)
ptr = load("ptr.i32", np.int32).long()
flat = load("weights.f64", np.float64)
scales = load("scales.f64", np.float64)
s0, s1 = scales[:n], scales[n:]

# LAMMPS's NET layout: per layer, per node, its bias then its weights.
params = []
at, inputs = 0, n
for nodes in meta["layers"]:
    block = flat[at : at + nodes * (inputs + 1)].reshape(nodes, inputs + 1)
    params += [block[:, 1:].clone().requires_grad_(), block[:, 0].clone().requires_grad_()]
    at += nodes * (inputs + 1)
    inputs = nodes
optimizer = torch.optim.Adam(params, lr=meta["lr"], betas=(0.9, 0.999), eps=1e-8)
# Each entry's centre atom.
centre = torch.repeat_interleave(torch.arange(len(entry_begin) - 1), entry_begin[1:] - entry_begin[:-1])


def network(x):
    h = x
    for l in range(0, len(params), 2):
        h = h @ params[l].T + params[l + 1]
        if l + 2 < len(params):
            h = torch.tanh(h)
    return h[:, 0]


losses, seconds = [], []
systems = meta["systems"]
for epoch in range(meta["epochs"]):
    start = time.perf_counter()
    total = 0.0
    batches = 0
    for first in range(0, systems, meta["batch"]):
        last = min(systems, first + meta["batch"])
        a0, a1 = int(ptr[first]), int(ptr[last])
        e0, e1 = int(entry_begin[a0]), int(entry_begin[a1])
        b = descriptors[a0:a1].clone().requires_grad_()
        energy_atoms = network((b - s0) / s1)
        (grad_b,) = torch.autograd.grad(energy_atoms.sum(), b, create_graph=True)
        local_centre = centre[e0:e1] - a0
        contributions = (grad_b[local_centre].unsqueeze(2) * derivatives[e0:e1]).sum(1)
        forces = torch.zeros(a1 - a0, 3).index_add(0, entry_atom[e0:e1] - a0, -contributions)
        counts = ptr[first + 1 : last + 1] - ptr[first:last]
        system_of_atom = torch.repeat_interleave(torch.arange(last - first), counts)
        energy = torch.zeros(last - first).index_add(0, system_of_atom, energy_atoms)
        energy_loss = (((energy - ref_energy[first:last]) / counts) ** 2).mean()
        force_loss = ((forces - ref_forces[a0:a1]) ** 2).mean()
        loss = energy_loss + force_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        batches += 1
    seconds.append(time.perf_counter() - start)
    losses.append(total / batches)
print(json.dumps({"losses": losses, "epochSeconds": seconds, "version": torch.__version__, "threads": torch.get_num_threads()}))
