// Prototype of the GPU design study, not part of the addon (docs/cuda.md, "Profiling on a device"; built and run
// by `scripts/gpu-check.sh proto`): the fused velocity-Verlet step of a large system in slot
// (bin-sorted) order, with the list layout hookmd already has (entry k of slot p at k·n + p, image in the low
// bits). Two kernels per step instead of seven:
//   kickDriftCheck: v += dt/2·a, x += dt·v, |x − x_ref|² > (skin/2)² raises a device flag (no host read);
//   forceKick:      TPP lanes per atom, next entry prefetched, image shifts from a shared table,
//                   energy only when asked, then v += dt/2·a in the epilogue.
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -c lj_step.cu
#include <cuda_runtime.h>

#include <cstdint>

struct alignas(32) Slot {
  double x, y, z, w;  // w: type bits (unused for one type)
};

struct StepArgs {
  std::int64_t n;
  Slot* x;                // slot-ordered positions (the device-resident copy during a chunk)
  double* v;              // slot-ordered velocities, 3 per slot
  double* f;              // slot-ordered forces, 3 per slot
  const Slot* reference;  // positions at the last build
  const std::uint32_t* neighbors;
  const std::int32_t* count;
  int imageBits;
  int numImages;
  const double* shifts;   // numImages × 3 lattice translations (one system)
  double halfDtOverMass;  // dt/2 · forceToAccel / m (one species)
  double dt;
  double limitSq;         // (skin/2)²
  double cutoffSq, force12, force6, energy12, energy6, energyShift;
  double* slotEnergy;     // null: energy not asked for this step
  unsigned* rebuild;      // device flag read by the next kernels / the graph's IF node
};

__global__ void __launch_bounds__(256) kickDriftCheck(StepArgs a) {
  const std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  bool moved = false;
  if (p < a.n) {
    Slot x = a.x[p];
    double v[3], f[3];
    for (int c = 0; c < 3; ++c) {
      v[c] = a.v[3 * p + c];
      f[c] = a.f[3 * p + c];
    }
    for (int c = 0; c < 3; ++c) v[c] += a.halfDtOverMass * f[c];
    x.x += a.dt * v[0];
    x.y += a.dt * v[1];
    x.z += a.dt * v[2];
    a.x[p] = x;
    for (int c = 0; c < 3; ++c) a.v[3 * p + c] = v[c];
    const Slot r = a.reference[p];
    const double dx = x.x - r.x, dy = x.y - r.y, dz = x.z - r.z;
    moved = !(dx * dx + dy * dy + dz * dz <= a.limitSq);
  }
  // One atomic per warp that saw a mover.
  if (__any_sync(0xffffffffu, moved) && (threadIdx.x & 31) == 0) atomicOr(a.rebuild, 1u);
}

template <int TPP, bool kEnergy>
__global__ void __launch_bounds__(256) forceKick(StepArgs a) {
  __shared__ double s_shift[64 * 3];
  for (int k = threadIdx.x; k < 3 * a.numImages; k += blockDim.x) s_shift[k] = a.shifts[k];
  __syncthreads();
  const std::int64_t p = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / TPP;
  const int sub = threadIdx.x % TPP;
  const bool live = p < a.n;
  const std::int64_t q = live ? p : 0;
  const Slot xi = a.x[q];
  const int count = live ? __ldg(a.count + q) : 0;
  const std::uint32_t mask = (1u << a.imageBits) - 1u;
  double fx = 0.0, fy = 0.0, fz = 0.0, e = 0.0;
  int k = sub;
  std::uint32_t next = k < count ? __ldg(a.neighbors + static_cast<std::int64_t>(k) * a.n + q) : 0u;
  for (; k < count; k += TPP) {
    const std::uint32_t entry = next;
    if (k + TPP < count) next = __ldg(a.neighbors + static_cast<std::int64_t>(k + TPP) * a.n + q);
    const Slot xj = a.x[entry >> a.imageBits];
    const int image = static_cast<int>(entry & mask);
    const double d0 = xj.x + s_shift[3 * image] - xi.x;
    const double d1 = xj.y + s_shift[3 * image + 1] - xi.y;
    const double d2 = xj.z + s_shift[3 * image + 2] - xi.z;
    const double r2 = d0 * d0 + d1 * d1 + d2 * d2;
    if (r2 < a.cutoffSq) {
      const double r2inv = 1.0 / r2;
      const double r6inv = r2inv * r2inv * r2inv;
      const double fOverR = r6inv * (a.force12 * r6inv - a.force6) * r2inv;
      if (kEnergy) e += r6inv * (a.energy12 * r6inv - a.energy6) - a.energyShift;
      fx -= fOverR * d0;
      fy -= fOverR * d1;
      fz -= fOverR * d2;
    }
  }
  // Fixed-order sum over the TPP lanes of this atom.
#pragma unroll
  for (int offset = TPP / 2; offset > 0; offset >>= 1) {
    fx += __shfl_down_sync(0xffffffffu, fx, offset, TPP);
    fy += __shfl_down_sync(0xffffffffu, fy, offset, TPP);
    fz += __shfl_down_sync(0xffffffffu, fz, offset, TPP);
    if (kEnergy) e += __shfl_down_sync(0xffffffffu, e, offset, TPP);
  }
  if (!live || sub != 0) return;
  a.f[3 * p] = fx;
  a.f[3 * p + 1] = fy;
  a.f[3 * p + 2] = fz;
  if (kEnergy) a.slotEnergy[p] = 0.5 * e;
  // Second half-kick of this step fused into the epilogue.
  a.v[3 * p] += a.halfDtOverMass * fx;
  a.v[3 * p + 1] += a.halfDtOverMass * fy;
  a.v[3 * p + 2] += a.halfDtOverMass * fz;
}


// ------------------------------------------------------------------------------------------------
// The current kernel's inner loop, as native/cuda/kernels/CudaPairForces.cu runs it for one species without
// virial: image decoded with integer div/mod and a lattice translation from the grid in global memory,
// force stored through the slot→atom permutation, half energy per slot always written.
// ------------------------------------------------------------------------------------------------
struct Grid {
  double basis[9];
  int images[3];
  int imageBits;
};

__global__ void __launch_bounds__(128) currentForces(StepArgs a, const Grid* grid, const std::int32_t* slotAtom,
                                                     double* forcesByAtom, double* slotSums) {
  const std::int64_t n = a.n;
  const std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (p >= n) return;
  const Grid& g = *grid;
  const int bits = g.imageBits;
  const std::uint32_t mask = (1u << bits) - 1u;
  const std::uint32_t span1 = 2 * g.images[1] + 1, span2 = 2 * g.images[2] + 1;
  const std::uint32_t self = (g.images[0] * span1 + g.images[1]) * span2 + g.images[2];
  const Slot xi = a.x[p];
  double fx = 0.0, fy = 0.0, fz = 0.0, energy = 0.0;
  const int count = a.count[p];
  for (int k = 0; k < count; ++k) {
    const std::uint32_t entry = a.neighbors[static_cast<std::int64_t>(k) * n + p];
    const std::uint32_t image = entry & mask;
    const Slot xj = a.x[entry >> bits];
    double shift[3] = {0.0, 0.0, 0.0};
    if (image != self) {
      const int n2 = static_cast<int>(image % span2) - g.images[2];
      const std::uint32_t rest = image / span2;
      const int n1 = static_cast<int>(rest % span1) - g.images[1];
      const int n0 = static_cast<int>(rest / span1) - g.images[0];
      for (int c = 0; c < 3; ++c) shift[c] = n0 * g.basis[c] + n1 * g.basis[3 + c] + n2 * g.basis[6 + c];
    }
    const double d0 = xj.x + shift[0] - xi.x, d1 = xj.y + shift[1] - xi.y, d2 = xj.z + shift[2] - xi.z;
    const double r2 = d0 * d0 + d1 * d1 + d2 * d2;
    if (r2 >= a.cutoffSq) continue;
    const double r2inv = 1.0 / r2;
    const double r6inv = r2inv * r2inv * r2inv;
    const double fOverR = r6inv * (a.force12 * r6inv - a.force6) * r2inv;
    energy += r6inv * (a.energy12 * r6inv - a.energy6) - a.energyShift;
    fx -= fOverR * d0;
    fy -= fOverR * d1;
    fz -= fOverR * d2;
  }
  double* f = forcesByAtom + 3 * static_cast<std::int64_t>(slotAtom[p]);
  f[0] = fx;
  f[1] = fy;
  f[2] = fz;
  slotSums[p] = 0.5 * energy;
}

// ------------------------------------------------------------------------------------------------
// Harness: in.lj lattice (ρ 0.8442, rc 2.5, skin 0.3), jiggled, sorted by bin (bins rlist/2 wide as
// CudaBinGrid lays them out), full list on the host in hookmd's encoding. Times each variant.
// Usage: ./lj_step [cells=64] [--host-only]
// ------------------------------------------------------------------------------------------------
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); std::exit(2); } } while (0)

int main(int argc, char** argv) {
  const int cells = argc > 1 ? std::atoi(argv[1]) : 64;
  const bool hostOnly = argc > 2 && std::strcmp(argv[2], "--host-only") == 0;
  const double a0 = std::cbrt(4.0 / 0.8442), L = a0 * cells, rc = 2.5, rl = 2.8;
  const std::int64_t n = 4LL * cells * cells * cells;
  std::vector<double> x(3 * n);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> jiggle(-0.08, 0.08);
  const double basis[4][3] = {{0, 0, 0}, {.5, .5, 0}, {.5, 0, .5}, {0, .5, .5}};
  std::int64_t m = 0;
  for (int i = 0; i < cells; ++i)
    for (int j = 0; j < cells; ++j)
      for (int k = 0; k < cells; ++k)
        for (auto& b : basis) {
          const int ijk[3] = {i, j, k};
          for (int c = 0; c < 3; ++c) {
            double v = (ijk[c] + b[c]) * a0 + jiggle(rng);
            v -= L * std::floor(v / L);
            x[3 * m + c] = v;
          }
          ++m;
        }
  const int nb = static_cast<int>(L * 2.0 / rl);
  const double w = L / nb;
  const int reach = static_cast<int>(std::ceil(rl / w - 1e-9));
  auto binOf = [&](std::int64_t i, int c) { return std::min(static_cast<int>(x[3 * i + c] / w), nb - 1); };
  std::vector<std::int64_t> key(n);
  for (std::int64_t i = 0; i < n; ++i) key[i] = (static_cast<std::int64_t>(binOf(i, 0)) * nb + binOf(i, 1)) * nb + binOf(i, 2);
  std::vector<std::int32_t> slotAtom(n);
  std::iota(slotAtom.begin(), slotAtom.end(), 0);
  std::stable_sort(slotAtom.begin(), slotAtom.end(), [&](int p, int q) { return key[p] < key[q]; });
  std::vector<Slot> slots(n);
  for (std::int64_t p = 0; p < n; ++p) slots[p] = Slot{x[3 * slotAtom[p]], x[3 * slotAtom[p] + 1], x[3 * slotAtom[p] + 2], 0.0};
  const std::int64_t totalBins = static_cast<std::int64_t>(nb) * nb * nb;
  std::vector<std::int64_t> binStart(totalBins + 1, 0);
  for (std::int64_t p = 0; p < n; ++p) ++binStart[key[slotAtom[p]] + 1];
  for (std::int64_t b = 0; b < totalBins; ++b) binStart[b + 1] += binStart[b];
  const int capacity = 112, imageBits = 5;
  std::vector<std::uint32_t> list(static_cast<std::size_t>(capacity) * n);
  std::vector<std::int32_t> count(n, 0);
  std::int64_t entries = 0;
  int longest = 0;
  for (std::int64_t p = 0; p < n; ++p) {
    const Slot xi = slots[p];
    const int b[3] = {std::min(static_cast<int>(xi.x / w), nb - 1), std::min(static_cast<int>(xi.y / w), nb - 1), std::min(static_cast<int>(xi.z / w), nb - 1)};
    int c = 0;
    for (int o0 = -reach; o0 <= reach; ++o0)
      for (int o1 = -reach; o1 <= reach; ++o1)
        for (int o2 = -reach; o2 <= reach; ++o2) {
          int t[3] = {b[0] + o0, b[1] + o1, b[2] + o2}, im[3];
          for (int d = 0; d < 3; ++d) {
            im[d] = t[d] < 0 ? -1 : (t[d] >= nb ? 1 : 0);
            t[d] -= im[d] * nb;
          }
          const std::uint32_t image = static_cast<std::uint32_t>(((im[0] + 1) * 3 + (im[1] + 1)) * 3 + (im[2] + 1));
          const std::int64_t bin = (static_cast<std::int64_t>(t[0]) * nb + t[1]) * nb + t[2];
          for (std::int64_t q = binStart[bin]; q < binStart[bin + 1]; ++q) {
            if (q == p && image == 13) continue;
            const double d0 = slots[q].x + im[0] * L - xi.x, d1 = slots[q].y + im[1] * L - xi.y, d2 = slots[q].z + im[2] * L - xi.z;
            if (!(d0 * d0 + d1 * d1 + d2 * d2 < rl * rl)) continue;
            if (c < capacity) list[static_cast<std::size_t>(c) * n + p] = (static_cast<std::uint32_t>(q) << imageBits) | image;
            ++c;
          }
        }
    count[p] = std::min(c, capacity);
    longest = std::max(longest, c);
    entries += c;
  }
  std::printf("{\"atoms\":%lld,\"binsPerEdge\":%d,\"reach\":%d,\"entriesPerAtom\":%.2f,\"longestRow\":%d}\n", static_cast<long long>(n), nb, reach,
              static_cast<double>(entries) / n, longest);
  if (hostOnly) return 0;

  std::vector<double> shifts(27 * 3);
  for (int image = 0; image < 27; ++image) {
    const int im[3] = {image / 9 - 1, (image / 3) % 3 - 1, image % 3 - 1};
    for (int c = 0; c < 3; ++c) shifts[3 * image + c] = im[c] * L;
  }
  Grid grid{{L, 0, 0, 0, L, 0, 0, 0, L}, {1, 1, 1}, imageBits};
  StepArgs args{};
  args.n = n;
  args.imageBits = imageBits;
  args.numImages = 27;
  args.halfDtOverMass = 0.5 * 0.005;
  args.dt = 0.005;
  args.limitSq = 0.15 * 0.15;
  args.cutoffSq = rc * rc;
  args.force12 = 48.0;
  args.force6 = 24.0;
  args.energy12 = 4.0;
  args.energy6 = 4.0;
  args.energyShift = 0.0;
  Slot *dX, *dRef;
  double *dV, *dF, *dFAtom, *dSums, *dShifts, *dE;
  std::uint32_t* dList;
  std::int32_t *dCount, *dSlotAtom;
  unsigned* dFlag;
  Grid* dGrid;
  CK(cudaMalloc(&dX, n * sizeof(Slot)));
  CK(cudaMalloc(&dRef, n * sizeof(Slot)));
  CK(cudaMalloc(&dV, 3 * n * sizeof(double)));
  CK(cudaMalloc(&dF, 3 * n * sizeof(double)));
  CK(cudaMalloc(&dFAtom, 3 * n * sizeof(double)));
  CK(cudaMalloc(&dSums, n * sizeof(double)));
  CK(cudaMalloc(&dE, n * sizeof(double)));
  CK(cudaMalloc(&dShifts, shifts.size() * sizeof(double)));
  CK(cudaMalloc(&dList, list.size() * sizeof(std::uint32_t)));
  CK(cudaMalloc(&dCount, n * sizeof(std::int32_t)));
  CK(cudaMalloc(&dSlotAtom, n * sizeof(std::int32_t)));
  CK(cudaMalloc(&dFlag, sizeof(unsigned)));
  CK(cudaMalloc(&dGrid, sizeof(Grid)));
  CK(cudaMemcpy(dX, slots.data(), n * sizeof(Slot), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dRef, slots.data(), n * sizeof(Slot), cudaMemcpyHostToDevice));
  CK(cudaMemset(dV, 0, 3 * n * sizeof(double)));
  CK(cudaMemcpy(dShifts, shifts.data(), shifts.size() * sizeof(double), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dList, list.data(), list.size() * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dCount, count.data(), n * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dSlotAtom, slotAtom.data(), n * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dGrid, &grid, sizeof grid, cudaMemcpyHostToDevice));
  args.x = dX;
  args.v = dV;
  args.f = dF;
  args.reference = dRef;
  args.neighbors = dList;
  args.count = dCount;
  args.shifts = dShifts;
  args.rebuild = dFlag;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto timeIt = [&](const char* name, auto launch) {
    launch();
    CK(cudaDeviceSynchronize());
    const int reps = 50;
    CK(cudaEventRecord(e0));
    for (int r = 0; r < reps; ++r) launch();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0.0f;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    std::printf("{\"variant\":\"%s\",\"usPerCall\":%.1f,\"atomEvalsPerSecond\":%.3g}\n", name, 1000.0 * ms / reps, n * reps / (ms / 1000.0));
  };
  const unsigned b128 = static_cast<unsigned>((n + 127) / 128);
  timeIt("current kernel (CudaPairForces.cu loop)", [&] { currentForces<<<b128, 128>>>(args, dGrid, dSlotAtom, dFAtom, dSums); });
  StepArgs noKick = args;
  auto forceVariant = [&](auto kernel, int tpp, bool energy, const char* name) {
    StepArgs v = args;
    v.slotEnergy = energy ? dE : nullptr;
    v.halfDtOverMass = 0.0;  // timing only: the kick adds zero
    const unsigned blocks = static_cast<unsigned>((n * tpp + 255) / 256);
    timeIt(name, [&] { kernel<<<blocks, 256>>>(v); });
  };
  forceVariant(forceKick<1, true>, 1, true, "tpp1 + prefetch + image table, energy");
  forceVariant(forceKick<1, false>, 1, false, "tpp1, no energy");
  forceVariant(forceKick<2, false>, 2, false, "tpp2, no energy");
  forceVariant(forceKick<4, false>, 4, false, "tpp4, no energy");
  forceVariant(forceKick<8, false>, 8, false, "tpp8, no energy");
  timeIt("kickDriftCheck", [&] { kickDriftCheck<<<static_cast<unsigned>((n + 255) / 256), 256>>>(noKick); });
  // The variants must agree on the forces (up to summation order).
  std::vector<double> fa(3 * n), fb(3 * n);
  CK(cudaMemcpy(fa.data(), dFAtom, 3 * n * sizeof(double), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(fb.data(), dF, 3 * n * sizeof(double), cudaMemcpyDeviceToHost));
  double worst = 0.0, scale = 0.0;
  for (std::int64_t p = 0; p < n; ++p)
    for (int c = 0; c < 3; ++c) {
      worst = std::max(worst, std::fabs(fb[3 * p + c] - fa[3 * slotAtom[p] + c]));
      scale = std::max(scale, std::fabs(fa[3 * slotAtom[p] + c]));
    }
  std::printf("{\"maxForceDiff\":%.3e,\"maxForce\":%.3e}\n", worst, scale);
  return 0;
}
