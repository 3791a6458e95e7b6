#pragma once
// Part of bench/gpu/stencil_gpu.cu (docs/gpu.md), split by job; included once, in order, by that file
// only (it is one translation unit: nvcc compiles the .cu).
// This part: the problems, their host reference and the kernel variants tried for each.

namespace {
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
// One batch as a CUDA graph: `per_batch` launches rotating over `sets` buffer pairs.
cudaGraphExec_t capture_batch(const Variant& v, const std::vector<double*>& ins, const std::vector<double*>& outs,
                              int sets, int per_batch, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  cudaGraph_t g;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int k = 0; k < per_batch; ++k) v.launch(ins[k % sets], outs[k % sets], s);
  CUDA_CHECK(cudaStreamEndCapture(s, &g));
  CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0));
  CUDA_CHECK(cudaGraphDestroy(g));
  return exec;
}

Timing time_launches(const Variant& v, const std::vector<double*>& ins, const std::vector<double*>& outs, int sets,
                     int per_batch, int reps, cudaStream_t s, bool graph) {
  cudaEvent_t a, b;
  CUDA_CHECK(cudaEventCreate(&a));
  CUDA_CHECK(cudaEventCreate(&b));
  cudaGraphExec_t exec = graph ? capture_batch(v, ins, outs, sets, per_batch, s) : nullptr;
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

}  // namespace
