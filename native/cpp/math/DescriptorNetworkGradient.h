// The parameter gradient of the ML-IAP network (math/DescriptorNetwork.h) that force matching needs. A fit
// on energies, forces and stresses has, per atom, a loss that depends on the network's weights θ through
// its energy E(x; θ) and its gradient β = ∂E/∂B (forces and virial are linear in β: training/NetworkLoss.h),
//   ∂L/∂θ = a ∂E/∂θ + ∂(β·u)/∂θ,   a = ∂L/∂E, u = ∂L/∂β.
// β·u is the derivative of E along u, which the forward tangent of the network computes (ẋ = u/s₁,
// ż_l = W_l ḣ_{l−1}, ḣ_l = f_l′(z_l) ż_l, β·u = ḣ_L); the reverse pass of that augmented network (forward
// over reverse: a Hessian-vector product of the network, exact) gives both terms in one sweep:
//   z̄_l = f_l′ ⊙ h̄_l + f_l″ ⊙ ż_l ⊙ ḣ̄_l,  ż̄_l = f_l′ ⊙ ḣ̄_l,
//   ∂/∂W_l += z̄_l h_{l−1}ᵀ + ż̄_l ḣ_{l−1}ᵀ,  ∂/∂b_l += z̄_l,  h̄_{l−1} = W_lᵀ z̄_l,  ḣ̄_{l−1} = W_lᵀ ż̄_l,
// from h̄_L = a, ḣ̄_L = 1.
#pragma once

#include "math/DescriptorNetwork.h"

namespace hookmd {

/** f″ at a node from its value f and slope f′ (what descriptorNetwork stored). */
HD double networkCurvature(int activation, double value, double slope) {
  switch (static_cast<NetworkActivation>(activation)) {
    case NetworkActivation::Sigmoid:
      return slope * (1.0 - 2.0 * value);
    case NetworkActivation::Tanh:
      return -2.0 * value * slope;
    case NetworkActivation::Relu:
    case NetworkActivation::Linear:
      break;
  }
  return 0.0;
}

/**
 * Adds ∂(a E + β·u)/∂θ at descriptors b to `gradient`, laid out as the layers' part of p (after s₀ and s₁:
 * per layer, per node its bias then its weights). `values` and `slopes` are what descriptorNetwork stored
 * for b (numLayers × widest each); `tangent` holds numLayers × widest, `adjoint` 4 × widest.
 */
HD void descriptorNetworkParameterGradient(const DescriptorNetworkShape& s, const double* p, const double* b, const double* values,
                                           const double* slopes, double a, const double* u, double* tangent, double* adjoint,
                                           double* gradient) {
  const int n = s.numDescriptors;
  const double* scale0 = p;
  const double* scale1 = p + n;
  const double* weights = p + 2 * n;
  // Forward tangent: ż_l, from ẋ = u/s₁.
  const double* layer = weights;
  for (int l = 0; l < s.numLayers; ++l) {
    const int inputs = l == 0 ? n : s.nodes[l - 1];
    double* out = tangent + l * s.widest;
    for (int k = 0; k < s.nodes[l]; ++k) {
      const double* row = layer + k * (inputs + 1);
      double sum = 0.0;
      if (l == 0) {
        for (int i = 0; i < inputs; ++i) sum += row[1 + i] * (u[i] / scale1[i]);
      } else {
        const double* previous = tangent + (l - 1) * s.widest;
        const double* slope = slopes + (l - 1) * s.widest;
        for (int i = 0; i < inputs; ++i) sum += row[1 + i] * (slope[i] * previous[i]);
      }
      out[k] = sum;
    }
    layer += s.nodes[l] * (inputs + 1);
  }
  // Reverse sweep, from the output node.
  double* hbar = adjoint;
  double* dhbar = adjoint + s.widest;
  double* zbar = adjoint + 2 * s.widest;
  double* dzbar = adjoint + 3 * s.widest;
  hbar[0] = a;
  dhbar[0] = 1.0;
  double* grad = gradient;
  for (int l = 0; l < s.numLayers; ++l) grad += s.nodes[l] * ((l == 0 ? n : s.nodes[l - 1]) + 1);
  for (int l = s.numLayers - 1; l >= 0; --l) {
    const int inputs = l == 0 ? n : s.nodes[l - 1];
    layer -= s.nodes[l] * (inputs + 1);
    grad -= s.nodes[l] * (inputs + 1);
    const double* value = values + l * s.widest;
    const double* slope = slopes + l * s.widest;
    const double* zdot = tangent + l * s.widest;
    for (int k = 0; k < s.nodes[l]; ++k) {
      dzbar[k] = slope[k] * dhbar[k];
      zbar[k] = slope[k] * hbar[k] + networkCurvature(s.activations[l], value[k], slope[k]) * zdot[k] * dhbar[k];
    }
    for (int k = 0; k < s.nodes[l]; ++k) {
      double* row = grad + k * (inputs + 1);
      row[0] += zbar[k];
      if (l == 0) {
        for (int i = 0; i < inputs; ++i) row[1 + i] += zbar[k] * ((b[i] - scale0[i]) / scale1[i]) + dzbar[k] * (u[i] / scale1[i]);
      } else {
        const double* in = values + (l - 1) * s.widest;
        const double* inSlope = slopes + (l - 1) * s.widest;
        const double* inTangent = tangent + (l - 1) * s.widest;
        for (int i = 0; i < inputs; ++i) row[1 + i] += zbar[k] * in[i] + dzbar[k] * (inSlope[i] * inTangent[i]);
      }
    }
    if (l == 0) break;
    for (int i = 0; i < inputs; ++i) {
      double sum = 0.0, dsum = 0.0;
      for (int k = 0; k < s.nodes[l]; ++k) {
        const double w = layer[k * (inputs + 1) + 1 + i];
        sum += w * zbar[k];
        dsum += w * dzbar[k];
      }
      hbar[i] = sum;
      dhbar[i] = dsum;
    }
  }
}

}  // namespace hookmd
