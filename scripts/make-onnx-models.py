#!/usr/bin/python3
"""Writes the ONNX test models of hookmd's graph-model convention (docs/models.md, "Use your ML potential").

Each model reads positions [N,3], edge_index [2,E], edge_shift [E,3], system_index [N] and cell [B,3,3], and
returns energy [B], forces [N,3] and stress [B,3,3] (eV, eV/Å, eV/Å³, ASE's sign), with the forces and the
stress written out in the graph (no autograd):

  lj      Lennard-Jones, E = ½ Σ_edges φ(r), φ = 4ε[(σ/r)¹² − (σ/r)⁶] (− φ(rc) when shifted); cutoff from hookmd.
  embed   a many-body model of EAM's form: E = Σ_i F(ρ_i) + ½ Σ_edges φ(r), ρ_i = Σ_(edges of i) f(r),
          F(ρ) = −A(√(ρ + c) − √c), f(r) = e^(−β(r − r0))·fc(r), φ(r) = B·e^(−γ(r − r0))·fc(r),
          fc(r) = (1 − (r/rc)²)² (smooth at rc, so no shift is needed).
  broken  loads (the convention's names) but fails in onnxruntime while running: its energy reshapes the
          positions to 7 values, which only a batch of 7/3 atoms would have (tests a typed runtime failure).

Usage: make-onnx-models.py lj OUT.onnx [--epsilon E] [--sigma S] [--cutoff RC] [--shift] [--float32] [--prefix P]
       make-onnx-models.py embed OUT.onnx [--cutoff RC] [--A A] [--c C] [--beta B] [--B BB] [--gamma G] [--r0 R0]
       make-onnx-models.py broken OUT.onnx
Needs Debian's python3-onnx (onnx ≥ 1.12, opset 17).
"""
import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


class Graph:
    """A tiny builder: every op gets a fresh output name."""

    def __init__(self, dtype):
        self.dtype = dtype
        self.np = np.float32 if dtype == TensorProto.FLOAT else np.float64
        self.nodes = []
        self.initializers = []
        self.count = 0

    def op(self, kind, *inputs, **attributes):
        self.count += 1
        name = f"{kind.lower()}_{self.count}"
        self.nodes.append(helper.make_node(kind, list(inputs), [name], **attributes))
        return name

    def const(self, value, integer=False):
        self.count += 1
        name = f"const_{self.count}"
        array = np.array(value, dtype=np.int64 if integer else self.np)
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def scatter_add(self, target_shape_of, indices, updates):
        """zeros shaped like `target_shape_of` (a shape tensor), plus updates added at indices along axis 0."""
        zeros = self.op("ConstantOfShape", target_shape_of, value=numpy_helper.from_array(np.zeros(1, dtype=self.np)))
        return self.op("ScatterElements", zeros, indices, updates, axis=0, reduction="add")

    def expand_index(self, index, like, rank):
        """index [E] broadcast to the shape of `like` ([E,...], of rank `rank`), for ScatterElements along axis 0."""
        column = self.op("Unsqueeze", index, self.const(list(range(1, rank)), integer=True))
        return self.op("Expand", column, self.op("Shape", like))


def geometry(g):
    """Edge vectors, lengths and the per-edge system index, from the convention's inputs."""
    zero = g.const(0, integer=True)
    one = g.const(1, integer=True)
    src = g.op("Gather", "edge_index", zero, axis=0)
    dst = g.op("Gather", "edge_index", one, axis=0)
    xi = g.op("Gather", "positions", src, axis=0)
    xj = g.op("Gather", "positions", dst, axis=0)
    d = g.op("Add", g.op("Sub", xj, xi), "edge_shift")
    r2 = g.op("ReduceSum", g.op("Mul", d, d), g.const([1], integer=True), keepdims=0)
    r = g.op("Sqrt", r2)
    edge_system = g.op("Gather", "system_index", src, axis=0)
    return src, d, r2, r, edge_system


def system_shapes(g):
    """Shape tensors [B], [N,3] and [B,3,3], and the cell volume |det(cell)| per system."""
    cell_shape = g.op("Shape", "cell")
    b = g.op("Slice", cell_shape, g.const([0], integer=True), g.const([1], integer=True))
    flat = g.op("Reshape", "cell", g.const([-1, 9], integer=True))
    a = [g.op("Gather", flat, g.const(k, integer=True), axis=1) for k in range(9)]
    minor = lambda p, q, s, t: g.op("Sub", g.op("Mul", a[p], a[q]), g.op("Mul", a[s], a[t]))
    det = g.op("Add", g.op("Sub", g.op("Mul", a[0], minor(4, 8, 5, 7)), g.op("Mul", a[1], minor(3, 8, 5, 6))), g.op("Mul", a[2], minor(3, 7, 4, 6)))
    volume = g.op("Abs", det)
    return b, g.op("Shape", "positions"), cell_shape, volume


def build_lj(args):
    dtype = TensorProto.FLOAT if args.float32 else TensorProto.DOUBLE
    g = Graph(dtype)
    epsilon, sigma = args.epsilon, args.sigma
    src, d, r2, r, edge_system = geometry(g)
    inv2 = g.op("Div", g.const(sigma * sigma), r2)
    inv6 = g.op("Mul", g.op("Mul", inv2, inv2), inv2)
    inv12 = g.op("Mul", inv6, inv6)
    phi = g.op("Mul", g.const(4 * epsilon), g.op("Sub", inv12, inv6))
    if args.shift:
        s6 = (sigma / args.cutoff) ** 6
        phi = g.op("Sub", phi, g.const(4 * epsilon * (s6 * s6 - s6)))
    b, positions_shape, cell_shape, volume = system_shapes(g)
    # Each pair is two edges: half its energy on each.
    energy = g.scatter_add(b, edge_system, g.op("Mul", g.const(0.5), phi))
    # φ'(r)/r = 24ε(inv6 − 2·inv12)/r²; F_i = Σ_(edges i→j) φ'(r)/r · d, d pointing from i to j.
    dphi_r = g.op("Div", g.op("Mul", g.const(24 * epsilon), g.op("Sub", inv6, g.op("Mul", g.const(2.0), inv12))), r2)
    force_updates = g.op("Mul", g.op("Unsqueeze", dphi_r, g.const([1], integer=True)), d)
    forces = g.scatter_add(positions_shape, g.expand_index(src, force_updates, 2), force_updates)
    stress = stress_of(g, d, g.op("Mul", g.const(0.5), dphi_r), edge_system, cell_shape, volume)
    return finish(g, dtype, energy, forces, stress, "hookmd test model: Lennard-Jones", args.prefix)


def stress_of(g, d, radial, edge_system, cell_shape, volume):
    """σ_b = (1/V_b) Σ_(edges of b) radial · d⊗d (radial = ∂E/∂r_edge / r), zero for a system without volume."""
    outer = g.op("Mul", g.op("Unsqueeze", d, g.const([2], integer=True)), g.op("Unsqueeze", d, g.const([1], integer=True)))
    weighted = g.op("Mul", g.op("Unsqueeze", radial, g.const([1, 2], integer=True)), outer)
    summed = g.scatter_add(cell_shape, g.expand_index(edge_system, weighted, 3), weighted)
    has_volume = g.op("Greater", volume, g.const(1e-12))
    safe = g.op("Where", has_volume, volume, g.const(1.0))
    scale = g.op("Where", has_volume, g.op("Reciprocal", safe), g.const(0.0))
    return g.op("Mul", summed, g.op("Unsqueeze", scale, g.const([1, 2], integer=True)))


def build_embed(args):
    dtype = TensorProto.DOUBLE
    g = Graph(dtype)
    src, d, r2, r, edge_system = geometry(g)
    rc2 = args.cutoff * args.cutoff
    u = g.op("Sub", g.const(1.0), g.op("Div", r2, g.const(rc2)))
    fc = g.op("Mul", u, u)
    dfc = g.op("Mul", g.const(-4.0 / rc2), g.op("Mul", r, u))
    def radial_exp(rate, scale):
        e = g.op("Mul", g.const(scale), g.op("Exp", g.op("Mul", g.const(-rate), g.op("Sub", r, g.const(args.r0)))))
        value = g.op("Mul", e, fc)
        derivative = g.op("Add", g.op("Mul", g.op("Mul", g.const(-rate), e), fc), g.op("Mul", e, dfc))
        return value, derivative
    f, df = radial_exp(args.beta, 1.0)
    phi, dphi = radial_exp(args.gamma, args.B)
    positions_shape = g.op("Shape", "positions")
    n = g.op("Slice", positions_shape, g.const([0], integer=True), g.const([1], integer=True))
    rho = g.scatter_add(n, src, f)
    root = g.op("Sqrt", g.op("Add", rho, g.const(args.c)))
    embedding = g.op("Mul", g.const(-args.A), g.op("Sub", root, g.const(float(np.sqrt(args.c)))))
    dF = g.op("Div", g.const(-args.A / 2), root)
    b, _, cell_shape, volume = system_shapes(g)
    atom_system = "system_index"
    energy = g.op("Add", g.scatter_add(b, atom_system, embedding), g.scatter_add(b, edge_system, g.op("Mul", g.const(0.5), phi)))
    dst = g.op("Gather", "edge_index", g.const(1, integer=True), axis=0)
    dF_src = g.op("Gather", dF, src, axis=0)
    dF_dst = g.op("Gather", dF, dst, axis=0)
    # F_i = Σ_(edges i→j) [(F'(ρ_i) + F'(ρ_j)) f'(r) + φ'(r)] d/r.
    force_factor = g.op("Div", g.op("Add", g.op("Mul", g.op("Add", dF_src, dF_dst), df), dphi), r)
    force_updates = g.op("Mul", g.op("Unsqueeze", force_factor, g.const([1], integer=True)), d)
    forces = g.scatter_add(positions_shape, g.expand_index(src, force_updates, 2), force_updates)
    # ∂E/∂ε = Σ_edges [½φ'(r) + F'(ρ_src) f'(r)] d⊗d/r.
    stress_factor = g.op("Div", g.op("Add", g.op("Mul", g.const(0.5), dphi), g.op("Mul", dF_src, df)), r)
    stress = stress_of(g, d, stress_factor, edge_system, cell_shape, volume)
    return finish(g, dtype, energy, forces, stress, "hookmd test model: embedded pair density")


def finish(g, dtype, energy, forces, stress, doc, prefix=""):
    for name, target in (("energy", energy), ("forces", forces), ("stress", stress)):
        g.nodes.append(helper.make_node("Identity", [target], [prefix + name]))
    inputs = [
        helper.make_tensor_value_info("positions", dtype, ["n_atoms", 3]),
        helper.make_tensor_value_info("cell", dtype, ["n_systems", 3, 3]),
        helper.make_tensor_value_info("system_index", TensorProto.INT64, ["n_atoms"]),
        helper.make_tensor_value_info("edge_index", TensorProto.INT64, [2, "n_edges"]),
        helper.make_tensor_value_info("edge_shift", dtype, ["n_edges", 3]),
    ]
    outputs = [
        helper.make_tensor_value_info(prefix + "energy", dtype, ["n_systems"]),
        helper.make_tensor_value_info(prefix + "forces", dtype, ["n_atoms", 3]),
        helper.make_tensor_value_info(prefix + "stress", dtype, ["n_systems", 3, 3]),
    ]
    graph = helper.make_graph(g.nodes, "hookmd", inputs, outputs, g.initializers)
    if prefix:
        # Inputs renamed too: every use of a convention name in the graph takes the prefix.
        for node in graph.node:
            node.input[:] = [prefix + name if name in {i.name for i in inputs} else name for name in node.input]
        for value in graph.input:
            value.name = prefix + value.name
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="hookmd", doc_string=doc)
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def build_broken():
    dtype = TensorProto.DOUBLE
    g = Graph(dtype)
    energy = g.op("Reshape", "positions", g.const([7], integer=True))
    forces = g.op("Identity", "positions")
    g.nodes.append(helper.make_node("Identity", [energy], ["energy"]))
    g.nodes.append(helper.make_node("Identity", [forces], ["forces"]))
    inputs = [helper.make_tensor_value_info("positions", dtype, ["n_atoms", 3])]
    outputs = [helper.make_tensor_value_info("energy", dtype, ["n_systems"]), helper.make_tensor_value_info("forces", dtype, ["n_atoms", 3])]
    graph = helper.make_graph(g.nodes, "hookmd-broken", inputs, outputs, g.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="hookmd")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="kind", required=True)
    lj = sub.add_parser("lj")
    lj.add_argument("out")
    lj.add_argument("--epsilon", type=float, default=1.0)
    lj.add_argument("--sigma", type=float, default=1.0)
    lj.add_argument("--cutoff", type=float, default=2.5)
    lj.add_argument("--shift", action="store_true")
    lj.add_argument("--float32", action="store_true")
    lj.add_argument("--prefix", default="", help="prefix every input and output name (to test name maps)")
    embed = sub.add_parser("embed")
    embed.add_argument("out")
    embed.add_argument("--cutoff", type=float, default=5.0)
    embed.add_argument("--A", type=float, default=1.2)
    embed.add_argument("--c", type=float, default=0.05)
    embed.add_argument("--beta", type=float, default=2.0)
    embed.add_argument("--B", type=float, default=0.3)
    embed.add_argument("--gamma", type=float, default=3.0)
    embed.add_argument("--r0", type=float, default=2.55)
    sub.add_parser("broken").add_argument("out")
    args = parser.parse_args()
    model = build_lj(args) if args.kind == "lj" else build_embed(args) if args.kind == "embed" else build_broken()
    onnx.save(model, args.out)


if __name__ == "__main__":
    main()
