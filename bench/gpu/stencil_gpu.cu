// stencil_gpu: the measured GPU baseline for the project's star stencils (docs/gpu.md).
//
// 1D, 2D and 3D star stencils in double precision, evaluated in exactly the order of
// mapper/reference.h (docs/stencil.md, "Evaluation order"):
//   x    = cx[-rx] * in[i-rx];           x = fma(cx[o], in[i+o], x)   for o = -rx+1 .. rx
//   y    = cy[-ry] * in[j-ry][i];        y = fma(cy[o], in[j+o][i], y) for o = -ry+1 .. -1, 1 .. ry
//   z    = cz[-rz] * in[k-rz][j][i];     z = fma(cz[o], ..., z)        for o = -rz+1 .. -1, 1 .. rz
//   out  = x (1D),  x + y (2D),  (x + y) + z (3D);  boundary cells (within the radius of any face)
//   keep the input.
// Device code uses explicit fma() and is built with -fmad=false, so nothing else is contracted;
// host code is built with -ffp-contract=off. Every GPU output is compared bit for bit with a host
// reference in the same order (and, for 1D/2D, with the project's own reference_stencil when the
// program is linked with bench/gpu/project_ref.cpp), and the program exits non-zero on a mismatch.
//
// Timing: CUDA events, warm-up, then the median of repeated batches, each batch a CUDA graph of
// launches over enough buffer sets to exceed 4x the L2 (so small grids stream from DRAM, as large
// ones do); the same batches on one buffer set give the L2-resident ("hot") figure, and plain
// launches (no graph) are timed too. The DRAM bandwidth is the best of several copy kernels in the
// same run. Flops and bytes are counted as mapper/roofline.cpp counts
// them: useful flops = interior outputs x (2 (points - 1) + 1); ideal bytes = 2 x 8 x grid points.
//
// Usage: stencil_gpu [--json FILE] [--only NAME,NAME...] [--reps N] [--no-large] [--peak-gflops G]
//        stencil_gpu --host-only   (no GPU: the host reference against the project's, 1D/2D)
// docs/gpu.md describes the kernels, the build and the measured table.

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#ifdef CGRA_PROJECT_REFERENCE
#include "bench/gpu/project_ref.h"
#endif

#define CUDA_CHECK(call)                                                                       \
  do {                                                                                         \
    cudaError_t err_ = (call);                                                                 \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
                   cudaGetErrorString(err_));                                                  \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

namespace {

constexpr int kMaxR = 32;
__constant__ double c_x[2 * kMaxR + 1];  // offsets -rx..rx
__constant__ double c_y[2 * kMaxR];      // offsets -ry..-1, 1..ry
__constant__ double c_z[2 * kMaxR];      // offsets -rz..-1, 1..rz (2D problems: their y)

__host__ __device__ constexpr int cmax(int a, int b) { return a > b ? a : b; }

// One step of a chain: the first term is a MUL, every later one a fused MAC.
__device__ __forceinline__ void chain(double& acc, int idx, double c, double v) {
  acc = (idx == 0) ? __dmul_rn(c, v) : fma(c, v, acc);
}

// ----------------------------------------------------------------------------------------------
// 1D: one block computes W = 2*NT*P consecutive outputs from a shared-memory tile of W + 2R
// inputs (loaded once, coalesced). Each thread computes P pairs of adjacent outputs; a pair reads
// its 2R+2 inputs as R+1 aligned 16-byte shared loads (each value feeds both chains).
template <int R, int NT, int P>
__global__ void __launch_bounds__(NT) stencil1d(const double* __restrict__ in, double* __restrict__ out,
                                                long long n) {
  constexpr int W = 2 * NT * P;
  constexpr int S = W + 2 * R;
  constexpr int LOADS = (S + NT - 1) / NT;
  __shared__ __align__(16) double s[S];
  const long long i0 = (long long)blockIdx.x * W;
  double v[LOADS];
#pragma unroll
  for (int m = 0; m < LOADS; ++m) {
    const int k = threadIdx.x + m * NT;
    const long long g = i0 - R + k;
    v[m] = (k < S && g >= 0 && g < n) ? __ldg(in + g) : 0.0;
  }
#pragma unroll
  for (int m = 0; m < LOADS; ++m) {
    const int k = threadIdx.x + m * NT;
    if (k < S) s[k] = v[m];
  }
  __syncthreads();
#pragma unroll
  for (int m = 0; m < P; ++m) {
    const int q = threadIdx.x + m * NT;
    const long long p = i0 + 2 * q;
    if (p >= n) continue;
    const double2* s2 = reinterpret_cast<const double2*>(s) + q;  // s[2q] is in[p - R]
    double a0 = 0, a1 = 0;
#pragma unroll
    for (int e = 0; e <= R; ++e) {
      const double2 w = s2[e];
      // element 2e: offset index 2e for output p, 2e-1 for p+1; element 2e+1: 2e+1 and 2e.
      if (2 * e <= 2 * R) chain(a0, 2 * e, c_x[2 * e], w.x);
      if (2 * e >= 1) chain(a1, 2 * e - 1, c_x[2 * e - 1], w.x);
      if (2 * e + 1 <= 2 * R) chain(a0, 2 * e + 1, c_x[2 * e + 1], w.y);
      chain(a1, 2 * e, c_x[2 * e], w.y);
    }
    const double x0 = s[2 * q + R], x1 = s[2 * q + 1 + R];
    const double o0 = (p < R || p >= n - R) ? x0 : a0;
    const double o1 = (p + 1 < R || p + 1 >= n - R) ? x1 : a1;
    if (p + 1 < n) {
      *reinterpret_cast<double2*>(out + p) = make_double2(o0, o1);
    } else {
      out[p] = o0;
    }
  }
}

// ----------------------------------------------------------------------------------------------
// 2D and 3D: 2.5D blocking. A block owns a tile of VEC*BX x BY columns (x, y) and streams along
// the outer dimension (z in 3D; y of a 2D problem, which runs as nx x 1 x ny with RY = 0) over a
// chunk of zchunk planes. Each thread owns VEC (1 or 2) adjacent x columns:
//   - the 2RZ+1 planes around the current one, for its columns, live in a register queue (the z
//     part reads only registers);
//   - the current plane of the tile with its x/y halo lives in shared memory, in a ring of D+1
//     plane buffers: the thread writes its own columns from the queue, the halo comes from global
//     memory by cp.async (8-byte), issued D planes ahead; the queue's next plane is also fetched
//     by cp.async, D planes ahead, into a per-thread staging ring (so D iterations of compute
//     cover the memory latency without registers for loads in flight);
//   - with VEC = 2 the x part reads RX+1 aligned 16-byte shared loads for the pair (each value
//     feeds both chains), the y part 2RY; with VEC = 1, 2RX+1 and 2RY 8-byte loads;
//   - the x, y and z chains are interleaved step by step (each in its own order).
// One __syncthreads per plane. Interior outputs are computed; boundary cells take the input.
template <int RX, int RY, int RZ, int BX, int BY, int VEC, int D, int MINB>
__global__ void __launch_bounds__(BX* BY, MINB)
    stencil_stream(const double* __restrict__ in, double* __restrict__ out, int nx, int ny, int nz, int zchunk) {
  static_assert(VEC == 1 || VEC == 2, "one or two columns per thread");
  static_assert(D >= 1, "prefetch distance");
  constexpr int TW = VEC * BX;        // tile width (outputs along x)
  constexpr int W = TW + 2 * RX;      // shared row width
  constexpr int H = BY + 2 * RY;
  constexpr int PLANE = W * H;
  constexpr int NB = D + 1;           // plane buffers in the ring
  constexpr int NT = BX * BY;
  constexpr int NH = PLANE - TW * BY; // halo values per plane
  constexpr int NHPT = (NH + NT - 1) / NT;
  constexpr int Q = 2 * RZ + 1;
  extern __shared__ double2 smem2[];
  double* const sm = reinterpret_cast<double*>(smem2);
  double* const stage = sm + NB * PLANE;  // D slots x NT threads x VEC values

  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * BX + tx;
  const int i0 = blockIdx.x * TW, j0 = blockIdx.y * BY;
  const int k0 = blockIdx.z * zchunk, k1 = min(k0 + zchunk, nz);
  const int i = i0 + VEC * tx, j = j0 + ty;
  const bool rowok = j < ny;
  bool ok[VEC];
#pragma unroll
  for (int e = 0; e < VEC; ++e) ok[e] = i + e < nx;
  const long long pstride = (long long)nx * ny;
  const long long own = (long long)j * nx + i;

  auto load_own = [&](int k, double (&v)[VEC]) {
#pragma unroll
    for (int e = 0; e < VEC; ++e) v[e] = 0.0;
    if (k >= 0 && k < nz && rowok) {
      const long long g = k * pstride + own;
      if (VEC == 2 && ok[VEC - 1] && (g & 1) == 0) {
        const double2 w = __ldg(reinterpret_cast<const double2*>(in + g));
        v[0] = w.x;
        v[VEC - 1] = w.y;
      } else {
#pragma unroll
        for (int e = 0; e < VEC; ++e)
          if (ok[e]) v[e] = __ldg(in + g + e);
      }
    }
  };
  // cp.async of the thread's own columns of plane k into staging slot s.
  auto issue_own = [&](int k, int s) {
    if (k < nz && rowok) {
      double* dst = stage + (s * NT + t) * VEC;
      const long long g = k * pstride + own;
      if (VEC == 2 && ok[VEC - 1] && (g & 1) == 0) {
        __pipeline_memcpy_async(dst, in + g, 2 * sizeof(double));
      } else {
#pragma unroll
        for (int e = 0; e < VEC; ++e)
          if (ok[e]) __pipeline_memcpy_async(dst + e, in + g + e, sizeof(double));
      }
    }
  };
  // Halo of a plane: top RY rows, bottom RY rows, then RX columns left and right of the BY middle
  // rows, dealt round-robin to the threads. Each thread's shared offsets and in-plane global
  // offsets are computed once (-1: outside the grid, not loaded; only boundary cells, which take
  // the input, could read those values).
  int hs[NHPT], hg[NHPT];
#pragma unroll
  for (int n = 0; n < NHPT; ++n) {
    const int h = t + n * NT;
    int r = 0, c = 0;
    if (h < 2 * RY * W) {
      const int rr = h / W;
      c = h - rr * W;
      r = rr < RY ? rr : rr + BY;
    } else {
      const int hh = h - 2 * RY * W;
      const int rr = hh / (2 * RX);
      const int cc = hh - rr * (2 * RX);
      r = RY + rr;
      c = cc < RX ? cc : cc + TW;
    }
    const int gx = i0 - RX + c, gy = j0 - RY + r;
    hs[n] = r * W + c;
    hg[n] = (h < NH && gx >= 0 && gx < nx && gy >= 0 && gy < ny) ? gy * nx + gx : -1;
  }
  auto issue_halo = [&](int k, int b) {
    double* dst = sm + b * PLANE;
    const double* src = in + (long long)k * pstride;
#pragma unroll
    for (int n = 0; n < NHPT; ++n)
      if (hg[n] >= 0) __pipeline_memcpy_async(dst + hs[n], src + hg[n], sizeof(double));
  };
  // Group j: the halo of plane j+D (buffer (j+D-k0) mod NB) and the own columns of plane j+RZ+D
  // (slot (j-k0+D) mod D), which the queue takes at the end of iteration j+D-1.
  auto issue_group = [&](int jg) {
    if (jg + D < k1) issue_halo(jg + D, (jg + D - k0) % NB);
    if (jg + D - 1 >= k0 && jg + D < k1) issue_own(jg + RZ + D, (jg - k0 + D) % D);
    __pipeline_commit();
  };

  double q[Q][VEC];
#pragma unroll
  for (int m = 0; m < Q; ++m) load_own(k0 - RZ + m, q[m]);
  for (int jg = k0 - D; jg < k0; ++jg) issue_group(jg);

  for (int k = k0; k < k1; ++k) {
    double* const buf = sm + ((k - k0) % NB) * PLANE;
    {
      double* mine = buf + (RY + ty) * W + RX + VEC * tx;
#pragma unroll
      for (int e = 0; e < VEC; ++e) mine[e] = q[RZ][e];
    }
    __pipeline_wait_prior(D - 1);
    __syncthreads();
    issue_group(k);
    // The x, y and z chains advance together (one step of each per loop trip), so that a thread
    // has up to 3*VEC independent FMA chains in flight; each chain keeps its own order.
    constexpr int XS = VEC == 2 ? RX + 1 : 2 * RX + 1;  // x steps (pairs of values with VEC = 2)
    constexpr int STEPS = cmax(XS, cmax(2 * RY, 2 * RZ));
    double ax[VEC], ay[VEC], az[VEC];
    const double* const rowp = buf + (RY + ty) * W + VEC * tx;  // in[i - RX]
    const double* const colp = buf + ty * W + RX + VEC * tx;     // in[j - RY][i]
#pragma unroll
    for (int st = 0; st < STEPS; ++st) {
      if (st < XS) {
        if constexpr (VEC == 2) {
          const double2 w = reinterpret_cast<const double2*>(rowp)[st];
          const int e = st;
          if (2 * e <= 2 * RX) chain(ax[0], 2 * e, c_x[2 * e], w.x);
          if (2 * e >= 1) chain(ax[1], 2 * e - 1, c_x[2 * e - 1], w.x);
          if (2 * e + 1 <= 2 * RX) chain(ax[0], 2 * e + 1, c_x[2 * e + 1], w.y);
          chain(ax[1], 2 * e, c_x[2 * e], w.y);
        } else {
          chain(ax[0], st, c_x[st], rowp[st]);
        }
      }
      if constexpr (RY > 0) {
        if (st < 2 * RY) {
          const int m = st < RY ? st : st + 1;  // row offset m - RY, the centre skipped
          double v[VEC];
          if constexpr (VEC == 2 && RX % 2 == 0) {
            const double2 w = *reinterpret_cast<const double2*>(colp + m * W);
            v[0] = w.x;
            v[VEC - 1] = w.y;
          } else {
#pragma unroll
            for (int e = 0; e < VEC; ++e) v[e] = colp[m * W + e];
          }
#pragma unroll
          for (int e = 0; e < VEC; ++e) chain(ay[e], st, c_y[st], v[e]);
        }
      }
      if constexpr (RZ > 0) {
        if (st < 2 * RZ) {
          const int m = st < RZ ? st : st + 1;
#pragma unroll
          for (int e = 0; e < VEC; ++e) chain(az[e], st, c_z[st], q[m][e]);
        }
      }
    }
    double o[VEC];
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
      o[e] = ax[e];
      if constexpr (RY > 0) o[e] = __dadd_rn(o[e], ay[e]);
      if constexpr (RZ > 0) o[e] = __dadd_rn(o[e], az[e]);
    }
    if (rowok && ok[0]) {
      const bool bzy = k < RZ || k >= nz - RZ || j < RY || j >= ny - RY;
      double res[VEC];
#pragma unroll
      for (int e = 0; e < VEC; ++e) res[e] = (bzy || i + e < RX || i + e >= nx - RX) ? q[RZ][e] : o[e];
      const long long g = (long long)k * pstride + own;
      if (VEC == 2 && ok[VEC - 1] && (g & 1) == 0) {
        *reinterpret_cast<double2*>(out + g) = make_double2(res[0], res[VEC - 1]);
      } else {
#pragma unroll
        for (int e = 0; e < VEC; ++e)
          if (ok[e]) out[g + e] = res[e];
      }
    }
    {
      // The queue's next plane, k+RZ+1: group k+1-D, slot (k+1-k0) mod D. Done on the last
      // iteration too (the queue is dead then): a conditional shift costs ~80 registers.
      __pipeline_wait_prior(D - 1);
      const double* slot = stage + (((k + 1 - k0) % D) * NT + t) * VEC;
      const bool inside = k + RZ + 1 < nz;
#pragma unroll
      for (int m = 0; m + 1 < Q; ++m)
#pragma unroll
        for (int e = 0; e < VEC; ++e) q[m][e] = q[m + 1][e];
#pragma unroll
      for (int e = 0; e < VEC; ++e) q[Q - 1][e] = inside ? slot[e] : 0.0;
    }
  }
}

// Device-to-device copies for the bandwidth ceiling (16-byte accesses): a grid-stride loop with 4
// accesses in flight per thread, and one access per thread over a grid that covers the buffer.
__global__ void copy_kernel(const double2* __restrict__ src, double2* __restrict__ dst, long long n2) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  for (; idx + 3 * stride < n2; idx += 4 * stride) {
    const double2 a = __ldg(src + idx), b = __ldg(src + idx + stride), c = __ldg(src + idx + 2 * stride),
                  d = __ldg(src + idx + 3 * stride);
    dst[idx] = a;
    dst[idx + stride] = b;
    dst[idx + 2 * stride] = c;
    dst[idx + 3 * stride] = d;
  }
  for (; idx < n2; idx += stride) dst[idx] = __ldg(src + idx);
}

__global__ void copy_flat(const double2* __restrict__ src, double2* __restrict__ dst, long long n2) {
  const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n2) dst[idx] = __ldg(src + idx);
}

// ----------------------------------------------------------------------------------------------
// Host side.

struct Problem {
  int dims = 1;
  int r[3] = {0, 0, 0};         // rx, ry, rz
  long long n[3] = {1, 1, 1};   // nx (contiguous), ny, nz
  std::vector<double> cx, cy, cz;  // in use (default 1/points, or given)
  bool default_coefficients = true;

  int points() const { return 1 + 2 * (r[0] + (dims >= 2 ? r[1] : 0) + (dims >= 3 ? r[2] : 0)); }
  int flops_per_output() const { return 2 * (points() - 1) + 1; }
  long long grid_points() const { return n[0] * n[1] * n[2]; }
  long long outputs() const {
    long long o = 1;
    for (int d = 0; d < dims; ++d) o *= n[d] - 2 * r[d];
    return o;
  }
  std::string grid_text() const {
    std::string s = std::to_string(n[0]);
    for (int d = 1; d < dims; ++d) s += "x" + std::to_string(n[d]);
    return s;
  }
};

void set_default_coefficients(Problem& p) {
  // spec/stencil_spec.cpp: 1.0 / points() for every offset.
  const double c = 1.0 / static_cast<double>(static_cast<unsigned>(p.points()));
  p.cx.assign(2 * p.r[0] + 1, c);
  p.cy.assign(p.dims >= 2 ? 2 * p.r[1] : 0, c);
  p.cz.assign(p.dims >= 3 ? 2 * p.r[2] : 0, c);
  p.default_coefficients = true;
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

unsigned host_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

template <class F>
void parallel_for(long long n, F f) {
  const unsigned nt = static_cast<unsigned>(std::min<long long>(host_threads(), std::max<long long>(1, n)));
  std::vector<std::thread> th;
  for (unsigned t = 0; t < nt; ++t)
    th.emplace_back([&, t] {
      const long long a = n * t / nt, b = n * (t + 1) / nt;
      f(a, b);
    });
  for (auto& x : th) x.join();
}

// The project's default input (sim/report_run.cpp, default_input_grid): uniform in [-1, 1).
void default_input(std::vector<double>& v, std::uint64_t seed_offset = 0) {
  parallel_for((long long)v.size(), [&](long long a, long long b) {
    for (long long i = a; i < b; ++i)
      v[i] = 2.0 * (static_cast<double>(splitmix64(std::uint64_t(i) + 1 + seed_offset) >> 11) * 0x1.0p-53) - 1.0;
  });
}

// Host reference, the order of mapper/reference.h extended to z.
void host_reference(const Problem& p, const std::vector<double>& in, std::vector<double>& out) {
  out = in;
  const long long nx = p.n[0], ny = p.n[1], nz = p.n[2];
  const long long rx = p.r[0], ry = p.dims >= 2 ? p.r[1] : 0, rz = p.dims >= 3 ? p.r[2] : 0;
  const double* cx = p.cx.data();
  const double* cy = p.cy.data();
  const double* cz = p.cz.data();
  auto row = [&](long long k, long long j, long long ia, long long ib) {
    const double* base = in.data() + (k * ny + j) * nx;
    for (long long i = std::max(ia, rx); i < std::min(ib, nx - rx); ++i) {
      double acc = cx[0] * base[i - rx];
      for (long long o = -rx + 1; o <= rx; ++o) acc = std::fma(cx[o + rx], base[i + o], acc);
      if (p.dims >= 2) {
        double accy = cy[0] * base[i - ry * nx];
        std::size_t c = 1;
        for (long long o = -ry + 1; o <= ry; ++o) {
          if (o == 0) continue;
          accy = std::fma(cy[c++], base[i + o * nx], accy);
        }
        acc = acc + accy;
      }
      if (p.dims >= 3) {
        const long long ps = nx * ny;
        double accz = cz[0] * base[i - rz * ps];
        std::size_t c = 1;
        for (long long o = -rz + 1; o <= rz; ++o) {
          if (o == 0) continue;
          accz = std::fma(cz[c++], base[i + o * ps], accz);
        }
        acc = acc + accz;
      }
      out[(k * ny + j) * nx + i] = acc;
    }
  };
  if (p.dims == 1) {
    parallel_for(nx, [&](long long a, long long b) { row(0, 0, a, b); });
  } else {
    const long long rows = (nz - 2 * rz) * (ny - 2 * ry);
    parallel_for(rows, [&](long long a, long long b) {
      for (long long q = a; q < b; ++q) row(rz + q / (ny - 2 * ry), ry + q % (ny - 2 * ry), 0, nx);
    });
  }
}

long long count_mismatches(const std::vector<double>& a, const std::vector<double>& b, long long* first) {
  *first = -1;
  if (std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0) return 0;
  long long bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0) {
      if (*first < 0) *first = (long long)i;
      ++bad;
    }
  return bad;
}

// A launchable kernel configuration for one problem.
struct Variant {
  std::string name;
  std::function<void(const double*, double*, cudaStream_t)> launch;
  int regs = 0, local_bytes = 0, smem_bytes = 0, threads = 0, blocks_per_sm = 0;
  long long blocks = 0;
};

template <int R, int NT, int P>
Variant make_1d(const Problem& p) {
  Variant v;
  const long long n = p.n[0];
  constexpr int W = 2 * NT * P;
  const long long blocks = (n + W - 1) / W;
  v.name = "1d tile " + std::to_string(W) + " (" + std::to_string(NT) + " thr x " + std::to_string(P) + " pairs)";
  v.launch = [=](const double* in, double* out, cudaStream_t s) {
    stencil1d<R, NT, P><<<(unsigned)blocks, NT, 0, s>>>(in, out, n);
  };
  cudaFuncAttributes fa;
  CUDA_CHECK(cudaFuncGetAttributes(&fa, stencil1d<R, NT, P>));
  v.regs = fa.numRegs;
  v.local_bytes = (int)fa.localSizeBytes;
  v.smem_bytes = (int)fa.sharedSizeBytes;
  v.threads = NT;
  v.blocks = blocks;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v.blocks_per_sm, stencil1d<R, NT, P>, NT, 0));
  return v;
}

// The streaming kernel for a 3D problem (RY, RZ as given) or a 2D problem (kernel RY = 0, RZ = ry).
template <int RX, int RY, int RZ, int BX, int BY, int VEC, int D, int MINB = 1>
Variant make_stream(const Problem& p, int zchunk) {
  Variant v;
  int nx, ny, nz;
  if (p.dims == 3) {
    nx = (int)p.n[0], ny = (int)p.n[1], nz = (int)p.n[2];
  } else {
    nx = (int)p.n[0], ny = 1, nz = (int)p.n[1];
  }
  constexpr int TW = VEC * BX;
  constexpr int PLANE = (TW + 2 * RX) * (BY + 2 * RY);
  const int smem = ((D + 1) * PLANE + D * BX * BY * VEC) * (int)sizeof(double);
  auto kern = stencil_stream<RX, RY, RZ, BX, BY, VEC, D, MINB>;
  CUDA_CHECK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const dim3 grid((nx + TW - 1) / TW, (ny + BY - 1) / BY, (nz + zchunk - 1) / zchunk);
  const dim3 block(BX, BY);
  v.name = "stream " + std::to_string(TW) + "x" + std::to_string(BY) + " v" + std::to_string(VEC) + " d" +
           std::to_string(D) + (MINB > 1 ? " mb" + std::to_string(MINB) : std::string()) + " chunk " +
           std::to_string(zchunk);
  v.launch = [=](const double* in, double* out, cudaStream_t s) {
    kern<<<grid, block, smem, s>>>(in, out, nx, ny, nz, zchunk);
  };
  cudaFuncAttributes fa;
  CUDA_CHECK(cudaFuncGetAttributes(&fa, kern));
  v.regs = fa.numRegs;
  v.local_bytes = (int)fa.localSizeBytes;
  v.smem_bytes = smem;
  v.threads = BX * BY;
  v.blocks = (long long)grid.x * grid.y * grid.z;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v.blocks_per_sm, kern, BX * BY, smem));
  return v;
}

// Chunk lengths along the streamed dimension worth trying: the whole length, then halvings while
// a chunk stays at least 2r planes long (its queue start-up re-reads 2r planes) and the grid has
// fewer than 32 blocks per SM (`tiles`: blocks per plane).
std::vector<int> chunk_candidates(int nz, int r, long long tiles, int sms) {
  std::vector<int> c;
  for (int d = 1; c.size() < 6; d *= 2) {
    const int z = (nz + d - 1) / d;
    if (!c.empty() && (z < 2 * std::max(r, 1) || z == c.back())) break;
    c.push_back(z);
    if (tiles * ((nz + z - 1) / z) >= 32ll * sms) break;
  }
  return c;
}

int g_sms = 132;  // set from the device before any variant is made

struct Case {
  std::string name;
  std::string role;  // "paper" (the paper's grid) or "large" (fills the GPU)
  Problem p;
};

// Kernel variants for a case (the instantiations are those of the cases below and the self-test).
std::vector<Variant> variants_for(const Problem& p) {
  std::vector<Variant> v;
  const int rx = p.r[0], ry = p.r[1], rz = p.r[2];
  // tiles: blocks per plane for a tile of tw x by columns.
  auto add = [&](auto make, int nzs, int r, int tw, int by) {
    const long long nxs = p.n[0], nys = p.dims == 3 ? p.n[1] : 1;
    const long long tiles = ((nxs + tw - 1) / tw) * ((nys + by - 1) / by);
    for (int z : chunk_candidates(nzs, r, tiles, g_sms)) v.push_back(make(z));
  };
#define STREAM(RX_, RY_, RZ_, BX_, BY_, VEC_, D_, MINB_) \
  add([&](int z) { return make_stream<RX_, RY_, RZ_, BX_, BY_, VEC_, D_, MINB_>(p, z); }, nzs, rs, VEC_ * BX_, BY_)
  if (p.dims == 1) {
    if (rx == 8) {
      v.push_back(make_1d<8, 256, 1>(p));
      v.push_back(make_1d<8, 256, 2>(p));
      v.push_back(make_1d<8, 128, 4>(p));
    } else if (rx == 3) {
      v.push_back(make_1d<3, 128, 2>(p));
    }
  } else if (p.dims == 2) {
    const int nzs = (int)p.n[1], rs = ry;
    if (rx == 12 && ry == 12) {
      STREAM(12, 0, 12, 32, 1, 2, 1, 1);
      STREAM(12, 0, 12, 32, 1, 2, 2, 1);
      STREAM(12, 0, 12, 64, 1, 2, 2, 1);
      STREAM(12, 0, 12, 64, 1, 2, 1, 8);
      STREAM(12, 0, 12, 64, 1, 1, 2, 1);
    } else if (rx == 3 && ry == 2) {
      v.push_back(make_stream<3, 0, 2, 16, 1, 2, 1>(p, 5));
      v.push_back(make_stream<3, 0, 2, 16, 1, 2, 3>(p, nzs));
      v.push_back(make_stream<3, 0, 2, 16, 1, 1, 2>(p, 7));
    }
  } else {
    const int nzs = (int)p.n[2], rs = rz;
    if (rx == 4 && ry == 4 && rz == 4) {
      STREAM(4, 4, 4, 16, 16, 2, 1, 1);
      STREAM(4, 4, 4, 32, 8, 2, 2, 1);
      STREAM(4, 4, 4, 16, 16, 2, 2, 1);
      STREAM(4, 4, 4, 16, 16, 2, 3, 1);
      STREAM(4, 4, 4, 32, 8, 1, 3, 2);
    } else if (rx == 8 && ry == 8 && rz == 8) {
      STREAM(8, 8, 8, 32, 8, 2, 1, 2);
      STREAM(8, 8, 8, 32, 8, 2, 2, 2);
      STREAM(8, 8, 8, 16, 16, 2, 2, 2);
      STREAM(8, 8, 8, 16, 16, 2, 2, 1);
      STREAM(8, 8, 8, 32, 16, 1, 2, 1);
    } else if (rx == 12 && ry == 12 && rz == 12) {
      STREAM(12, 12, 12, 16, 16, 2, 1, 1);
      STREAM(12, 12, 12, 16, 16, 2, 2, 1);
      STREAM(12, 12, 12, 16, 8, 2, 2, 1);
      STREAM(12, 12, 12, 32, 16, 1, 2, 1);
      STREAM(12, 12, 12, 32, 8, 1, 3, 1);
    } else if (rx == 3 && ry == 1 && rz == 2) {
      v.push_back(make_stream<3, 1, 2, 16, 4, 2, 1>(p, 4));
      v.push_back(make_stream<3, 1, 2, 16, 4, 2, 2>(p, nzs));
      v.push_back(make_stream<3, 1, 2, 16, 4, 1, 3>(p, 5));
    } else if (rx == 1 && ry == 1 && rz == 1) {
      v.push_back(make_stream<1, 1, 1, 32, 8, 2, 1>(p, 3));
      v.push_back(make_stream<1, 1, 1, 32, 8, 1, 2>(p, nzs));
    }
  }
#undef STREAM
  if (v.empty()) {
    std::fprintf(stderr, "no kernel instantiated for %dd r=%d,%d,%d\n", p.dims, rx, ry, rz);
    std::exit(2);
  }
  return v;
}

void upload_coefficients(const Problem& p) {
  CUDA_CHECK(cudaMemcpyToSymbol(c_x, p.cx.data(), p.cx.size() * sizeof(double)));
  // A 2D problem runs on the streaming kernel with its y along the kernel's z.
  if (p.dims == 2) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_z, p.cy.data(), p.cy.size() * sizeof(double)));
  } else if (p.dims == 3) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_y, p.cy.data(), p.cy.size() * sizeof(double)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_z, p.cz.data(), p.cz.size() * sizeof(double)));
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
};

// Median over `reps` batches of `per_batch` launches (rotating over `sets` buffer pairs), per
// launch. With `graph`, the batch is captured once as a CUDA graph and the graph is replayed (no
// host launch overhead between the kernels); otherwise the kernels are launched one by one.
Timing time_launches(const Variant& v, const std::vector<double*>& ins, const std::vector<double*>& outs, int sets,
                     int per_batch, int reps, cudaStream_t s, bool graph) {
  cudaEvent_t a, b;
  CUDA_CHECK(cudaEventCreate(&a));
  CUDA_CHECK(cudaEventCreate(&b));
  cudaGraphExec_t exec = nullptr;
  if (graph) {
    cudaGraph_t g;
    CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int k = 0; k < per_batch; ++k) v.launch(ins[k % sets], outs[k % sets], s);
    CUDA_CHECK(cudaStreamEndCapture(s, &g));
    CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0));
    CUDA_CHECK(cudaGraphDestroy(g));
  }
  auto batch = [&](int& next) {
    if (graph) {
      CUDA_CHECK(cudaGraphLaunch(exec, s));
    } else {
      for (int k = 0; k < per_batch; ++k, next = (next + 1) % sets) v.launch(ins[next], outs[next], s);
    }
  };
  int next = 0;
  for (int w = 0; w < 2; ++w) batch(next);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(s));
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    CUDA_CHECK(cudaEventRecord(a, s));
    batch(next);
    CUDA_CHECK(cudaEventRecord(b, s));
    CUDA_CHECK(cudaEventSynchronize(b));
    CUDA_CHECK(cudaGetLastError());
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms / per_batch);
  }
  if (exec) CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaEventDestroy(a));
  CUDA_CHECK(cudaEventDestroy(b));
  Timing r;
  r.median_ms = median(t);
  r.min_ms = *std::min_element(t.begin(), t.end());
  r.max_ms = *std::max_element(t.begin(), t.end());
  return r;
}

struct DeviceInfo {
  std::string name;
  int sms = 0, cc_major = 0, cc_minor = 0, driver = 0, runtime = 0, clock_khz = 0, mem_clock_khz = 0, bus_bits = 0;
  long long l2_bytes = 0, global_bytes = 0;
  double peak_fp64_gflops = 0;      // used for the roofline (datasheet, see docs/gpu.md)
  std::string peak_source;
  double computed_fp64_gflops = 0;  // SMs x 64 FP64 FMA/clk x 2 x max clock
  double copy_gbs = 0;              // measured, bytes read + written per second: the best copy kernel
  double copy_gbs_min = 0, copy_gbs_max = 0;
  std::string copy_best;
  std::vector<std::pair<std::string, double>> copies;  // every copy measured (median GB/s)
  double memcpy_gbs = 0;            // cudaMemcpyAsync device to device, for reference
  double theoretical_gbs = 0;
};

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

DeviceInfo query_device(double peak_override) {
  DeviceInfo d;
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  d.name = prop.name;
  d.sms = prop.multiProcessorCount;
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.l2_bytes = prop.l2CacheSize;
  d.global_bytes = (long long)prop.totalGlobalMem;
  CUDA_CHECK(cudaDriverGetVersion(&d.driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime));
  CUDA_CHECK(cudaDeviceGetAttribute(&d.clock_khz, cudaDevAttrClockRate, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&d.mem_clock_khz, cudaDevAttrMemoryClockRate, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&d.bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
  d.theoretical_gbs = 2.0 * d.mem_clock_khz * 1e3 * (d.bus_bits / 8.0) / 1e9;
  d.computed_fp64_gflops = d.sms * 64.0 * 2.0 * d.clock_khz * 1e3 / 1e9;
  const std::string n = d.name;
  auto has = [&](const char* s) { return n.find(s) != std::string::npos; };
  // NVIDIA datasheets, FP64 (vector, not tensor core): H100 SXM 34, H100 PCIe 26, H100 NVL 30,
  // H200 SXM 34, H200 NVL 30 TFLOP/s (docs/gpu.md names them).
  if (peak_override > 0) {
    d.peak_fp64_gflops = peak_override;
    d.peak_source = "given on the command line";
  } else if (has("H100") && has("PCIe")) {
    d.peak_fp64_gflops = 26000;
    d.peak_source = "NVIDIA H100 datasheet, H100 PCIe FP64 26 TFLOP/s";
  } else if ((has("H100") || has("H200")) && has("NVL")) {
    d.peak_fp64_gflops = 30000;
    d.peak_source = "NVIDIA datasheet, NVL FP64 30 TFLOP/s";
  } else if (has("H100")) {
    d.peak_fp64_gflops = 34000;
    d.peak_source = "NVIDIA H100 datasheet, H100 SXM FP64 34 TFLOP/s";
  } else if (has("H200")) {
    d.peak_fp64_gflops = 34000;
    d.peak_source = "NVIDIA H200 datasheet, H200 SXM FP64 34 TFLOP/s";
  } else {
    d.peak_fp64_gflops = d.computed_fp64_gflops;
    d.peak_source = "computed: SMs x 64 FP64 FMA/clock x 2 x max clock (unknown card)";
  }
  return d;
}

void measure_copy(DeviceInfo& d, cudaStream_t s) {
  const long long bytes = 1ll << 31;  // 2 GiB read + 2 GiB written
  const long long n2 = bytes / 16;
  double2 *src, *dst;
  CUDA_CHECK(cudaMalloc(&src, bytes));
  CUDA_CHECK(cudaMalloc(&dst, bytes));
  CUDA_CHECK(cudaMemset(src, 0x3f, bytes));
  cudaEvent_t a, b;
  CUDA_CHECK(cudaEventCreate(&a));
  CUDA_CHECK(cudaEventCreate(&b));
  auto measure = [&](const std::string& name, const std::function<void()>& run) {
    for (int w = 0; w < 3; ++w) run();
    CUDA_CHECK(cudaGetLastError());
    std::vector<double> gbs;
    for (int r = 0; r < 20; ++r) {
      CUDA_CHECK(cudaEventRecord(a, s));
      run();
      CUDA_CHECK(cudaEventRecord(b, s));
      CUDA_CHECK(cudaEventSynchronize(b));
      CUDA_CHECK(cudaGetLastError());
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
      gbs.push_back(2.0 * bytes / (ms * 1e-3) / 1e9);
    }
    const double m = median(gbs);
    d.copies.push_back({name, m});
    if (m > d.copy_gbs) {
      d.copy_gbs = m;
      d.copy_best = name;
      d.copy_gbs_min = *std::min_element(gbs.begin(), gbs.end());
      d.copy_gbs_max = *std::max_element(gbs.begin(), gbs.end());
    }
    // Spot-check the copy.
    std::vector<double> h(1024);
    CUDA_CHECK(cudaMemcpy(h.data(), reinterpret_cast<double*>(dst) + n2 * 2 - 1024, 1024 * sizeof(double),
                          cudaMemcpyDeviceToHost));
    double expect;
    std::memset(&expect, 0x3f, sizeof expect);
    for (double x : h)
      if (std::memcmp(&x, &expect, sizeof x) != 0) {
        std::fprintf(stderr, "copy kernel %s produced wrong data\n", name.c_str());
        std::exit(2);
      }
    CUDA_CHECK(cudaMemset(dst, 0, bytes));
  };
  for (int per_sm : {4, 8, 16, 32}) {
    const int blocks = d.sms * per_sm;
    measure("grid-stride x4, " + std::to_string(per_sm) + " blocks/SM of 256",
            [&] { copy_kernel<<<blocks, 256, 0, s>>>(src, dst, n2); });
  }
  for (int tpb : {256, 1024}) {
    const long long blocks = (n2 + tpb - 1) / tpb;
    measure("one 16 B access per thread, blocks of " + std::to_string(tpb),
            [&] { copy_flat<<<(unsigned)blocks, tpb, 0, s>>>(src, dst, n2); });
  }
  // cudaMemcpyAsync, for reference only (not a kernel of ours; not used for the roofline).
  {
    for (int w = 0; w < 3; ++w) CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
    std::vector<double> gbs;
    for (int r = 0; r < 20; ++r) {
      CUDA_CHECK(cudaEventRecord(a, s));
      CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
      CUDA_CHECK(cudaEventRecord(b, s));
      CUDA_CHECK(cudaEventSynchronize(b));
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
      gbs.push_back(2.0 * bytes / (ms * 1e-3) / 1e9);
    }
    d.memcpy_gbs = median(gbs);
  }
  CUDA_CHECK(cudaEventDestroy(a));
  CUDA_CHECK(cudaEventDestroy(b));
  CUDA_CHECK(cudaFree(src));
  CUDA_CHECK(cudaFree(dst));
}

struct VariantResult {
  std::string name;
  int regs, local_bytes, smem_bytes, threads, blocks_per_sm;
  long long blocks;
  Timing cold, hot, stream;  // graph replay over rotated sets, graph on one set, plain launches rotated
  long long mismatches;
};

struct CaseResult {
  Case c;
  long long outputs, grid_points, useful_flops_i;
  double useful_flops, ideal_bytes, intensity;
  int sets;
  std::vector<VariantResult> variants;
  int best = -1;
  std::string check = "pass", project_check = "skipped";
  double gflops = 0, gflops_hot = 0, memory_gflops = 0, roofline_gflops = 0, percent = 0, percent_hot = 0,
         ideal_gbs = 0;
  std::string bound;
};

// Runs one problem: host reference, every variant checked bit for bit and timed.
CaseResult run_case(const Case& c, const DeviceInfo& dev, int reps, bool verbose, cudaStream_t s,
                    std::uint64_t seed_offset = 0) {
  CaseResult res;
  res.c = c;
  const Problem& p = c.p;
  res.outputs = p.outputs();
  res.grid_points = p.grid_points();
  res.useful_flops = double(res.outputs) * p.flops_per_output();
  res.ideal_bytes = 2.0 * double(res.grid_points) * sizeof(double);
  res.intensity = res.useful_flops / res.ideal_bytes;
  res.memory_gflops = dev.copy_gbs * res.intensity;
  res.roofline_gflops = std::min(res.memory_gflops, dev.peak_fp64_gflops);
  res.bound = res.memory_gflops <= dev.peak_fp64_gflops ? "memory" : "compute";

  const std::size_t np = (std::size_t)p.grid_points();
  const std::size_t bytes = np * sizeof(double);
  std::vector<double> in(np), ref, got(np);
  default_input(in, seed_offset);
  host_reference(p, in, ref);
#ifdef CGRA_PROJECT_REFERENCE
  if (p.dims <= 2 && res.useful_flops <= 6e9) {
    std::vector<double> pr;
    std::string err;
    if (!project_reference(p.dims, p.r, p.n, p.default_coefficients ? nullptr : &p.cx,
                           p.default_coefficients ? nullptr : &p.cy, in, pr, err)) {
      res.project_check = "error: " + err;
    } else {
      long long first;
      const long long bad = count_mismatches(pr, ref, &first);
      res.project_check = bad == 0 ? "pass" : "FAIL (" + std::to_string(bad) + " values differ)";
    }
  }
#endif

  // Buffer sets: enough to exceed 4x the L2 when the grid is small.
  const double pair = 2.0 * bytes;
  int sets = (int)std::ceil(4.0 * dev.l2_bytes / pair);
  sets = reps > 0 ? std::max(1, std::min(sets, 64)) : 1;
  res.sets = sets;
  std::vector<double*> ins(sets), outs(sets);
  for (int k = 0; k < sets; ++k) {
    CUDA_CHECK(cudaMalloc(&ins[k], bytes));
    CUDA_CHECK(cudaMalloc(&outs[k], bytes));
  }
  CUDA_CHECK(cudaMemcpy(ins[0], in.data(), bytes, cudaMemcpyHostToDevice));
  for (int k = 1; k < sets; ++k) CUDA_CHECK(cudaMemcpy(ins[k], ins[0], bytes, cudaMemcpyDeviceToDevice));
  upload_coefficients(p);

  std::vector<Variant> vs = variants_for(p);
  for (const Variant& v : vs) {
    VariantResult vr{v.name, v.regs, v.local_bytes, v.smem_bytes, v.threads, v.blocks_per_sm, v.blocks, {}, {}, {}, 0};
    // Correctness: poison every output buffer (NaN pattern), run once on each set, compare.
    for (int k = 0; k < sets; ++k) CUDA_CHECK(cudaMemset(outs[k], 0xff, bytes));
    v.launch(ins[0], outs[0], s);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaStreamSynchronize(s));
    CUDA_CHECK(cudaMemcpy(got.data(), outs[0], bytes, cudaMemcpyDeviceToHost));
    long long first;
    vr.mismatches = count_mismatches(got, ref, &first);
    if (vr.mismatches) {
      std::fprintf(stderr, "MISMATCH %s / %s: %lld values differ, first at %lld: gpu %.17g ref %.17g\n",
                   c.name.c_str(), v.name.c_str(), vr.mismatches, first, got[first], ref[first]);
      res.check = "FAIL";
    }
    if (reps > 0) {
      const int per_batch = sets > 1 ? sets : 1;
      vr.cold = time_launches(v, ins, outs, sets, per_batch, reps, s, true);
      vr.hot = time_launches(v, {ins[0]}, {outs[0]}, 1, per_batch, reps, s, true);
      vr.stream = time_launches(v, ins, outs, sets, per_batch, reps, s, false);
      // The timed runs wrote the same outputs again: check the last set written too.
      if (sets > 1) {
        CUDA_CHECK(cudaMemcpy(got.data(), outs[sets - 1], bytes, cudaMemcpyDeviceToHost));
        const long long bad = count_mismatches(got, ref, &first);
        if (bad) {
          std::fprintf(stderr, "MISMATCH after timing %s / %s: %lld values differ\n", c.name.c_str(),
                       v.name.c_str(), bad);
          vr.mismatches += bad;
          res.check = "FAIL";
        }
      }
    }
    if (verbose)
      std::printf("  %-20s %-34s regs %3d local %3d smem %6d blk/SM %2d  %9.4f ms  hot %9.4f  launches %9.4f  %s\n",
                  c.name.c_str(), v.name.c_str(), v.regs, v.local_bytes, v.smem_bytes, v.blocks_per_sm,
                  vr.cold.median_ms, vr.hot.median_ms, vr.stream.median_ms, vr.mismatches ? "FAIL" : "pass");
    std::fflush(stdout);
    res.variants.push_back(vr);
  }
  for (int k = 0; k < sets; ++k) {
    CUDA_CHECK(cudaFree(ins[k]));
    CUDA_CHECK(cudaFree(outs[k]));
  }
  if (reps > 0) {
    for (std::size_t k = 0; k < res.variants.size(); ++k)
      if (res.best < 0 || res.variants[k].cold.median_ms < res.variants[res.best].cold.median_ms) res.best = (int)k;
    const VariantResult& b = res.variants[res.best];
    res.gflops = res.useful_flops / (b.cold.median_ms * 1e-3) / 1e9;
    double best_hot = b.hot.median_ms;
    for (const auto& v : res.variants) best_hot = std::min(best_hot, v.hot.median_ms);
    res.gflops_hot = res.useful_flops / (best_hot * 1e-3) / 1e9;
    res.percent = 100.0 * res.gflops / res.roofline_gflops;
    res.percent_hot = 100.0 * res.gflops_hot / res.roofline_gflops;
    res.ideal_gbs = res.ideal_bytes / (b.cold.median_ms * 1e-3) / 1e9;
  }
  return res;
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') o += '\\';
    o += ch;
  }
  return o;
}

void write_json(const char* path, const DeviceInfo& d, const std::vector<CaseResult>& rs) {
  FILE* f = std::fopen(path, "w");
  if (!f) {
    std::fprintf(stderr, "cannot write %s\n", path);
    std::exit(2);
  }
  std::fprintf(f, "[\n");
  for (std::size_t k = 0; k < rs.size(); ++k) {
    const CaseResult& r = rs[k];
    const Problem& p = r.c.p;
    const VariantResult& b = r.variants[r.best];
    std::fprintf(f, "  {\"case\": \"%s\", \"role\": \"%s\", \"dims\": %d, \"radius\": [%d, %d, %d], ",
                 json_escape(r.c.name).c_str(), r.c.role.c_str(), p.dims, p.r[0], p.dims >= 2 ? p.r[1] : 0,
                 p.dims >= 3 ? p.r[2] : 0);
    std::fprintf(f, "\"grid\": [%lld, %lld, %lld], \"points\": %d, \"flops_per_output\": %d, ", p.n[0], p.n[1],
                 p.n[2], p.points(), p.flops_per_output());
    std::fprintf(f, "\"outputs\": %lld, \"grid_points\": %lld, \"useful_flops\": %.0f, \"ideal_bytes\": %.0f, ",
                 r.outputs, r.grid_points, r.useful_flops, r.ideal_bytes);
    std::fprintf(f, "\"arithmetic_intensity\": %.6f, \"buffer_sets\": %d, ", r.intensity, r.sets);
    std::fprintf(f, "\"time_ms\": %.6f, \"time_ms_min\": %.6f, \"time_ms_max\": %.6f, \"time_hot_ms\": %.6f, "
                    "\"time_launches_ms\": %.6f, ",
                 b.cold.median_ms, b.cold.min_ms, b.cold.max_ms, b.hot.median_ms, b.stream.median_ms);
    std::fprintf(f, "\"gflops\": %.3f, \"gflops_hot\": %.3f, \"ideal_bytes_gbs\": %.3f, ", r.gflops, r.gflops_hot,
                 r.ideal_gbs);
    std::fprintf(f, "\"copy_gbs\": %.3f, \"peak_fp64_gflops\": %.1f, \"memory_gflops\": %.3f, ", d.copy_gbs,
                 d.peak_fp64_gflops, r.memory_gflops);
    std::fprintf(f, "\"roofline_gflops\": %.3f, \"bound\": \"%s\", \"roofline_percent\": %.3f, ",
                 r.roofline_gflops, r.bound.c_str(), r.percent);
    std::fprintf(f, "\"roofline_percent_hot\": %.3f, \"check\": \"%s\", \"project_reference_check\": \"%s\", ",
                 r.percent_hot, r.check.c_str(), json_escape(r.project_check).c_str());
    std::fprintf(f, "\"best_variant\": \"%s\", ", json_escape(b.name).c_str());
    std::fprintf(f, "\"device\": {\"name\": \"%s\", \"sms\": %d, \"cc\": \"%d.%d\", \"driver\": \"%s\", "
                    "\"runtime\": \"%s\", \"clock_mhz\": %d, \"l2_bytes\": %lld, \"copy_gbs_min\": %.3f, "
                    "\"copy_gbs_max\": %.3f, \"copy_best\": \"%s\", \"memcpy_gbs\": %.3f, "
                    "\"theoretical_gbs\": %.3f, \"computed_fp64_gflops\": %.1f, \"peak_source\": \"%s\"}, ",
                 json_escape(d.name).c_str(), d.sms, d.cc_major, d.cc_minor, version_text(d.driver).c_str(),
                 version_text(d.runtime).c_str(), d.clock_khz / 1000, d.l2_bytes, d.copy_gbs_min, d.copy_gbs_max,
                 json_escape(d.copy_best).c_str(), d.memcpy_gbs, d.theoretical_gbs, d.computed_fp64_gflops,
                 json_escape(d.peak_source).c_str());
    std::fprintf(f, "\"variants\": [");
    for (std::size_t v = 0; v < r.variants.size(); ++v) {
      const VariantResult& x = r.variants[v];
      std::fprintf(f,
                   "%s{\"name\": \"%s\", \"regs\": %d, \"local_bytes\": %d, \"smem_bytes\": %d, \"threads\": %d, "
                   "\"blocks\": %lld, \"blocks_per_sm\": %d, \"time_ms\": %.6f, \"time_hot_ms\": %.6f, "
                   "\"time_launches_ms\": %.6f, \"gflops\": %.3f, \"mismatches\": %lld}",
                   v ? ", " : "", json_escape(x.name).c_str(), x.regs, x.local_bytes, x.smem_bytes, x.threads,
                   x.blocks, x.blocks_per_sm, x.cold.median_ms, x.hot.median_ms, x.stream.median_ms,
                   r.useful_flops / (x.cold.median_ms * 1e-3) / 1e9, x.mismatches);
    }
    std::fprintf(f, "]}%s\n", k + 1 < rs.size() ? "," : "");
  }
  std::fprintf(f, "]\n");
  std::fclose(f);
}

Case make_case(const std::string& name, const std::string& role, int dims, int r, long long nx, long long ny = 1,
               long long nz = 1) {
  Case c;
  c.name = name;
  c.role = role;
  c.p.dims = dims;
  for (int d = 0; d < dims; ++d) c.p.r[d] = r;
  c.p.n[0] = nx;
  c.p.n[1] = ny;
  c.p.n[2] = nz;
  set_default_coefficients(c.p);
  return c;
}

// Small grids with distinct pseudo-random coefficients, odd sizes and short chunks: every kernel
// instantiation that is timed, and a few with odd radii, must match the host reference bit for bit.
struct SelfTestCase {
  int dims, rx, ry, rz;
  long long nx, ny, nz;
};
const std::vector<SelfTestCase> kSelfTests = {
      {1, 8, 0, 0, 5000 + 17, 1, 1},  {1, 3, 0, 0, 3001, 1, 1},       {2, 12, 12, 0, 731, 203, 1},
      {2, 3, 2, 0, 157, 41, 1},       {3, 4, 4, 4, 141, 45, 37},      {3, 8, 8, 8, 133, 51, 45},
      {3, 12, 12, 12, 151, 61, 57},   {3, 3, 1, 2, 77, 19, 13},       {3, 1, 1, 1, 99, 21, 11},
};

// Distinct pseudo-random coefficients in [-0.5, 0.5).
std::vector<double> random_coefficients(std::size_t n, std::uint64_t& salt) {
  std::vector<double> v(n);
  for (auto& x : v) x = (static_cast<double>(splitmix64(++salt) >> 11) * 0x1.0p-53) - 0.5;
  return v;
}

bool self_test(const DeviceInfo& dev, cudaStream_t s) {
  bool ok = true;
  std::uint64_t salt = 1000;
  for (const SelfTestCase& t : kSelfTests) {
    Case c;
    c.p.dims = t.dims;
    c.p.r[0] = t.rx;
    c.p.r[1] = t.ry;
    c.p.r[2] = t.rz;
    c.p.n[0] = t.nx;
    c.p.n[1] = t.ny;
    c.p.n[2] = t.nz;
    c.p.cx = random_coefficients(2 * t.rx + 1, salt);
    c.p.cy = random_coefficients(t.dims >= 2 ? 2 * t.ry : 0, salt);
    c.p.cz = random_coefficients(t.dims >= 3 ? 2 * t.rz : 0, salt);
    c.p.default_coefficients = false;
    c.name = "self-test " + std::to_string(t.dims) + "d r=" + std::to_string(t.rx) + "," + std::to_string(t.ry) + "," +
             std::to_string(t.rz) + " " + c.p.grid_text();
    c.role = "test";
    const CaseResult r = run_case(c, dev, 0, false, s, 77 * salt);
    long long bad = 0;
    for (const auto& v : r.variants) bad += v.mismatches;
    std::printf("%-44s %2zu variants  %s  project reference: %s\n", c.name.c_str(), r.variants.size(),
                bad ? "FAIL" : "pass", r.project_check.c_str());
    if (bad || r.project_check.rfind("FAIL", 0) == 0 || r.project_check.rfind("error", 0) == 0) ok = false;
  }
  return ok;
}

// --host-only: no GPU needed. The host reference against the project's reference_stencil on the
// 1D/2D self-test problems (distinct coefficients) and the paper's 1D/2D grids (defaults).
int host_only() {
#ifdef CGRA_PROJECT_REFERENCE
  std::vector<Problem> ps;
  std::uint64_t salt = 5000;
  for (const SelfTestCase& t : kSelfTests) {
    if (t.dims > 2) continue;
    Problem p;
    p.dims = t.dims;
    p.r[0] = t.rx;
    p.r[1] = t.ry;
    p.n[0] = t.nx;
    p.n[1] = t.ny;
    p.cx = random_coefficients(2 * t.rx + 1, salt);
    p.cy = random_coefficients(t.dims >= 2 ? 2 * t.ry : 0, salt);
    p.default_coefficients = false;
    ps.push_back(p);
  }
  ps.push_back(make_case("1D r=8 194400", "paper", 1, 8, 194400).p);
  ps.push_back(make_case("2D r=12 960x449", "paper", 2, 12, 960, 449).p);
  bool ok = true;
  for (const Problem& p : ps) {
    std::vector<double> in(p.grid_points()), ref, pr;
    default_input(in, salt);
    host_reference(p, in, ref);
    std::string err;
    long long first = -1, bad = -1;
    if (project_reference(p.dims, p.r, p.n, p.default_coefficients ? nullptr : &p.cx,
                          p.default_coefficients ? nullptr : &p.cy, in, pr, err))
      bad = count_mismatches(pr, ref, &first);
    std::printf("%dd r=%d,%d %s %s coefficients: %s\n", p.dims, p.r[0], p.dims >= 2 ? p.r[1] : 0,
                p.grid_text().c_str(), p.default_coefficients ? "default" : "random",
                bad == 0 ? "bit-exact" : bad > 0 ? "MISMATCH" : ("error: " + err).c_str());
    ok = ok && bad == 0;
  }
  return ok ? 0 : 1;
#else
  std::fprintf(stderr, "--host-only needs the project's reference (build with bench/gpu/build.sh)\n");
  return 2;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const char* json_path = nullptr;
  std::string only;
  int reps = 15;
  bool large = true;
  double peak_override = 0;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--json" && a + 1 < argc) {
      json_path = argv[++a];
    } else if (arg == "--only" && a + 1 < argc) {
      only = argv[++a];
    } else if (arg == "--reps" && a + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++a]));
    } else if (arg == "--host-only") {
      return host_only();
    } else if (arg == "--no-large") {
      large = false;
    } else if (arg == "--peak-gflops" && a + 1 < argc) {
      peak_override = std::atof(argv[++a]);
    } else {
      std::fprintf(stderr,
                   "usage: %s [--json FILE] [--only NAME,NAME...] [--reps N] [--no-large] [--peak-gflops G] | "
                   "--host-only\n",
                   argv[0]);
      return 2;
    }
  }
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  DeviceInfo dev = query_device(peak_override);
  g_sms = dev.sms;
  std::printf("device: %s, %d SMs, cc %d.%d, clock %d MHz, L2 %lld MiB, %lld GiB, driver (CUDA) %s, runtime %s\n",
              dev.name.c_str(), dev.sms, dev.cc_major, dev.cc_minor, dev.clock_khz / 1000, dev.l2_bytes >> 20,
              dev.global_bytes >> 30, version_text(dev.driver).c_str(), version_text(dev.runtime).c_str());
  measure_copy(dev, s);
  for (const auto& c : dev.copies) std::printf("  copy %-46s %8.1f GB/s\n", c.first.c_str(), c.second);
  std::printf("  cudaMemcpyAsync device to device (reference only)  %8.1f GB/s\n", dev.memcpy_gbs);
  std::printf("copy bandwidth: %.1f GB/s median of the best copy kernel (%s; min %.1f, max %.1f; read + "
              "written; theoretical %.1f GB/s)\n",
              dev.copy_gbs, dev.copy_best.c_str(), dev.copy_gbs_min, dev.copy_gbs_max, dev.theoretical_gbs);
  std::printf("FP64 peak used: %.0f GFLOP/s (%s); SMs x 64 x 2 x %d MHz = %.0f GFLOP/s\n", dev.peak_fp64_gflops,
              dev.peak_source.c_str(), dev.clock_khz / 1000, dev.computed_fp64_gflops);
  std::printf("host threads for the reference: %u\n\n", host_threads());

  std::printf("self-test (distinct coefficients, odd sizes, short chunks):\n");
  const bool self_ok = self_test(dev, s);
  std::printf("\n");

  std::vector<Case> cases = {
      make_case("1D r=8 194400", "paper", 1, 8, 194400),
      make_case("2D r=12 960x449", "paper", 2, 12, 960, 449),
      make_case("3D r=4 256x128x64", "paper", 3, 4, 256, 128, 64),
      make_case("3D r=8 384^3", "paper", 3, 8, 384, 384, 384),
      make_case("3D r=12 512^3", "paper", 3, 12, 512, 512, 512),
  };
  if (large) {
    cases.push_back(make_case("1D r=8 2^27", "large", 1, 8, 1ll << 27));
    cases.push_back(make_case("2D r=12 16384^2", "large", 2, 12, 16384, 16384));
    cases.push_back(make_case("3D r=4 768^3", "large", 3, 4, 768, 768, 768));
    cases.push_back(make_case("3D r=8 768^3", "large", 3, 8, 768, 768, 768));
    cases.push_back(make_case("3D r=12 768^3", "large", 3, 12, 768, 768, 768));
  }
  std::vector<CaseResult> results;
  for (const Case& c : cases) {
    if (!only.empty() && ("," + only + ",").find("," + c.name + ",") == std::string::npos) continue;
    results.push_back(run_case(c, dev, reps, true, s));
    const CaseResult& r = results.back();
    std::printf("  -> %s: best %s, %.1f GFLOP/s, %.1f%% of roofline, check %s, project reference %s\n\n",
                c.name.c_str(), r.variants[r.best].name.c_str(), r.gflops, r.percent, r.check.c_str(),
                r.project_check.c_str());
    std::fflush(stdout);
  }

  std::printf("\nGPU baseline: %s (%d SMs), driver CUDA %s, runtime %s; copy %.0f GB/s measured; FP64 peak %.0f "
              "GFLOP/s\n",
              dev.name.c_str(), dev.sms, version_text(dev.driver).c_str(), version_text(dev.runtime).c_str(),
              dev.copy_gbs, dev.peak_fp64_gflops);
  std::printf("%-20s %-6s %6s %8s %9s %9s %8s %7s %9s %7s %10s %5s %6s  %s\n", "case", "role", "AI", "roof",
              "time ms", "GFLOP/s", "% roof", "GB/s", "hot GF/s", "% hot", "launch ms", "sets", "check",
              "best variant");
  bool ok = self_ok;
  for (const CaseResult& r : results) {
    const VariantResult& b = r.variants[r.best];
    std::printf("%-20s %-6s %6.3f %8.0f %9.4f %9.1f %7.1f%% %7.0f %9.1f %6.1f%% %10.4f %5d %6s  %s\n",
                r.c.name.c_str(), r.c.role.c_str(), r.intensity, r.roofline_gflops, b.cold.median_ms, r.gflops,
                r.percent, r.ideal_gbs, r.gflops_hot, r.percent_hot, b.stream.median_ms, r.sets, r.check.c_str(),
                b.name.c_str());
    if (r.check != "pass" || r.project_check.rfind("FAIL", 0) == 0 || r.project_check.rfind("error", 0) == 0)
      ok = false;
  }
  std::printf("(roof = min(FP64 peak, copy GB/s x AI); AI = useful flops / (16 B x grid points) as mapper/roofline.cpp;"
              "\n GB/s = ideal bytes / time; time: CUDA graph of launches over rotated buffer sets; hot: the same on one"
              "\n set, L2-resident when it fits; launch ms: the best variant launched one by one, no graph)\n");
  if (json_path) {
    write_json(json_path, dev, results);
    std::printf("wrote %s\n", json_path);
  }
  std::printf("%s\n", ok ? "all outputs bit-exact" : "MISMATCH: see above");
  CUDA_CHECK(cudaStreamDestroy(s));
  return ok ? 0 : 1;
}
