#pragma once
// Part of bench/gpu/stencil_gpu.cu (docs/gpu.md), split by job; included once, in order, by that file
// only (it is one translation unit: nvcc compiles the .cu).
// This part: the kernels: the stencils' chains in the project's evaluation order, and the copy kernels that measure the bandwidth.

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

}  // namespace
