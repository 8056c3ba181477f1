// The feed-forward network of LAMMPS's ML-IAP `nn` model (LAMMPS's NET format), shared by the CPU loops and
// the device kernels: an atom's energy from its descriptors B (docs/models.md, "ML potentials"),
//   x = (B − s₀)/s₁,  h₀ = x,  h_l = f_l(W_l h_{l−1} + b_l),  E = h_L (one node),
// with f linear, sigmoid, tanh or relu, and its gradient β = ∂E/∂B by the backward pass. The parameters of
// one element are laid out as the files give them: s₀ (n), s₁ (n), then for each layer and each node its bias
// followed by its weights.
#pragma once

#include <cmath>

#include "core/HostDevice.h"

namespace hookmd {

enum class NetworkActivation : int { Linear = 0, Sigmoid = 1, Tanh = 2, Relu = 3 };

/** The shape of a network: its layers' node counts and activations, the last layer one node. */
struct DescriptorNetworkShape {
  int numDescriptors;
  int numLayers;
  const int* nodes;
  const int* activations;
  /** The most nodes of any layer: each scratch row holds this many. */
  int widest;
};

/** f(x) and f′(x). */
HD double networkActivate(int activation, double x, double& slope) {
  switch (static_cast<NetworkActivation>(activation)) {
    case NetworkActivation::Sigmoid: {
      const double s = 1.0 / (1.0 + exp(-x));
      slope = s * (1.0 - s);
      return s;
    }
    case NetworkActivation::Tanh: {
      const double t = tanh(x);
      slope = 1.0 - t * t;
      return t;
    }
    case NetworkActivation::Relu:
      slope = x > 0.0 ? 1.0 : 0.0;
      return x > 0.0 ? x : 0.0;
    case NetworkActivation::Linear:
      break;
  }
  slope = 1.0;
  return x;
}

/**
 * E of descriptors b for one element's parameters p, and β = ∂E/∂b into beta. `values` and `slopes` hold
 * numLayers × widest each, `back` 2 × widest.
 */
HD double descriptorNetwork(const DescriptorNetworkShape& s, const double* p, const double* b, double* beta, double* values,
                            double* slopes, double* back) {
  const int n = s.numDescriptors;
  const double* scale0 = p;
  const double* scale1 = p + n;
  const double* weights = p + 2 * n;
  // Forward: layer l's node k is bias + Σ weight · input, through f_l.
  const double* layer = weights;
  for (int l = 0; l < s.numLayers; ++l) {
    const int inputs = l == 0 ? n : s.nodes[l - 1];
    const double* in = l == 0 ? nullptr : values + (l - 1) * s.widest;
    double* out = values + l * s.widest;
    double* slope = slopes + l * s.widest;
    for (int k = 0; k < s.nodes[l]; ++k) {
      const double* row = layer + k * (inputs + 1);
      double sum = 0.0;
      if (l == 0) {
        for (int i = 0; i < inputs; ++i) sum += row[1 + i] * (b[i] - scale0[i]) / scale1[i];
      } else {
        for (int i = 0; i < inputs; ++i) sum += row[1 + i] * in[i];
      }
      out[k] = networkActivate(s.activations[l], sum + row[0], slope[k]);
    }
    layer += s.nodes[l] * (inputs + 1);
  }
  const double energy = values[(s.numLayers - 1) * s.widest];
  // Backward: g_l = f_l′ ⊙ (W_{l+1}ᵀ g_{l+1}), from the output's g = f_L′.
  double* g = back;
  double* next = back + s.widest;
  g[0] = slopes[(s.numLayers - 1) * s.widest];
  for (int l = s.numLayers - 1; l >= 0; --l) {
    const int inputs = l == 0 ? n : s.nodes[l - 1];
    layer -= s.nodes[l] * (inputs + 1);
    if (l == 0) {
      for (int i = 0; i < n; ++i) {
        double sum = 0.0;
        for (int k = 0; k < s.nodes[0]; ++k) sum += layer[k * (n + 1) + 1 + i] * g[k];
        beta[i] = sum / scale1[i];
      }
      break;
    }
    const double* slope = slopes + (l - 1) * s.widest;
    for (int i = 0; i < inputs; ++i) {
      double sum = 0.0;
      for (int k = 0; k < s.nodes[l]; ++k) sum += layer[k * (inputs + 1) + 1 + i] * g[k];
      next[i] = sum * slope[i];
    }
    double* swap = g;
    g = next;
    next = swap;
  }
  return energy;
}

}  // namespace hookmd
