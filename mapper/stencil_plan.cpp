#include "mapper/stencil_plan.h"

#include <algorithm>

namespace cgra {

namespace {
std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }
}  // namespace

BlockPlan StencilPlan::make_blocks(const StencilSpec& spec, unsigned blocks) {
  const std::uint64_t rx = spec.radius[0];
  const std::uint64_t width = spec.grid[0] - 2 * rx;
  if (blocks == 0 || blocks > width)
    throw SpecError("cannot split " + std::to_string(width) + " interior columns into " + std::to_string(blocks) +
                    " blocks");
  BlockPlan b;
  b.blocks = blocks;
  // Equal widths: (blocks-1)*stride + out_width = width with stride <= out_width < stride + blocks.
  b.stride = blocks == 1 ? width : width / blocks;
  b.out_width = width - (blocks - 1) * b.stride;
  b.in_width = b.out_width + 2 * rx;
  return b;
}

StencilPlan::StencilPlan(const StencilSpec& spec, unsigned workers, BlockPlan blocks, bool delay_stages,
                         unsigned forward_copies, std::uint64_t line_words, unsigned z_streams)
    : spec_(spec),
      w_(workers),
      blocks_(blocks),
      delay_(delay_stages),
      forward_copies_(forward_copies),
      line_words_(line_words) {
  spec_.validate();
  rx_ = spec.radius[0];
  ry_ = spec.dims >= 2 ? spec.radius[1] : 0;
  nx_ = spec.grid[0];
  ny_ = spec.dims >= 2 ? spec.grid[1] : 1;
  rz_ = spec.dims >= 3 ? spec.radius[2] : 0;
  nz_ = spec.dims >= 3 ? spec.grid[2] : 1;
  z_streams_ = z_streams == 0 ? 2 * rz_ : std::min(z_streams, 2 * rz_);
  if (w_ == 0) throw SpecError("workers must be at least 1");
  if (blocks_.out_width < w_)
    throw SpecError(spec.describe() + " with w=" + std::to_string(w_) + ": a block of " +
                    std::to_string(blocks_.out_width) + " output columns leaves workers without a column");
  if (spec.dims >= 2) T_ = std::max(1u, spec.time_steps);
  // A boundary column must fall in one block of every stage: block 1's widened stage 1 must not
  // reach the grid's first columns, nor block B-2's its last.
  if (T_ > 1 && blocks_.blocks > 1 && blocks_.stride < halo())
    throw SpecError(spec.describe() + " with w=" + std::to_string(w_) + ": " + std::to_string(blocks_.blocks) +
                    " blocks " + std::to_string(blocks_.stride) + " columns apart are closer than the halo of " +
                    std::to_string(T_) + " time steps (" + std::to_string(halo()) + " columns)");
}

StencilPlan StencilPlan::stage(unsigned t) const {
  StencilPlan p = *this;
  const std::uint64_t h = std::uint64_t{rx_} * (T_ - t);
  p.blocks_.out_width += 2 * h;
  p.blocks_.in_width += 2 * h;
  p.T_ = 1;
  if (t > 1) p.forward_rereads_ = 0;  // only stage 1 reads from memory
  if (three_d()) {  // no z readers: the z chain takes the column stream, every plane of it
    p.z_in_stream_ = true;
    p.z_streams_ = 1;
  }
  return p;
}

std::vector<ColumnWindow> StencilPlan::column_windows(unsigned t) const {
  std::vector<ColumnWindow> out;
  if (!two_d() || streams() || t == 0 || t >= T_) return out;
  const StencilPlan sp = stage(t);
  const std::uint64_t h = std::uint64_t{rx_} * (T_ - t), rows = out_rows();
  const unsigned last = blocks_.blocks - 1;
  // Stage t's output column c of block b is grid column b*stride + rx - h + c.
  auto add = [&](unsigned b, std::uint64_t c, bool left) {
    ColumnWindow cw;
    cw.worker = static_cast<unsigned>(c % w_);
    cw.block = b;
    cw.position = c / w_;
    cw.left = left;
    const std::uint64_t n = sp.worker_count(cw.worker), blocks = blocks_.blocks, planes = this->planes();
    // 3D: over the column stream's interior rows of interior planes, the shape of the computed one.
    const std::uint64_t m_sel = b * planes * rows * n;
    cw.sel = {m_sel, planes * rows * n, blocks * planes * rows * n - m_sel - planes * rows * n, n, cw.position};
    const std::uint64_t m_keep = b * ny_ * n + ry_ * n;
    cw.keep = three_d() ? cw.sel : WindowBits{m_keep, rows * n, blocks * ny_ * n - m_keep - rows * n, n, cw.position};
    out.push_back(cw);
  };
  for (std::uint64_t g = 0; g < rx_; ++g) add(0, g + h - rx_, true);
  const std::uint64_t last_start = std::uint64_t{last} * blocks_.stride;
  for (std::uint64_t g = nx_ - rx_; g < nx_; ++g) add(last, g + h - rx_ - last_start, false);
  return out;
}

bool StencilPlan::forward_reread(unsigned m) const {
  // Re-read point i (0-based) at ceil((i+1)(P+1)/(n+1)): n points splitting 0..P evenly.
  const unsigned n = forward_rereads_, p = x_forward_points();
  if (m == 0 || m > p || n == 0) return false;
  for (unsigned i = 0; i < n; ++i)
    if ((std::uint64_t{i + 1} * (p + 1) + n) / (n + 1) == m) return true;
  return false;
}

StencilPlan StencilPlan::streams(const StencilSpec& spec, unsigned workers, unsigned interleave) {
  if (spec.dims != 1) throw SpecError("interleaved segments are a 1D plan; " + spec.describe() + " is not 1D");
  if (interleave == 0) throw SpecError("interleave must be at least 1");
  StencilPlan p(spec, workers, make_blocks(spec, 1));
  SegmentPlan& s = p.seg_;
  const std::uint64_t width = p.nx_ - p.span();
  s.interleave = interleave;
  s.segments = std::uint64_t{workers} * interleave;
  // Equal lengths: (segments-1)*stride + length = width, stride <= length (as make_blocks). With
  // fewer outputs than segments, every segment is the whole interior (stride 0).
  s.stride = s.segments == 1 ? width : width / s.segments;
  s.length = width - (s.segments - 1) * s.stride;
  p.T_ = std::max(1u, spec.time_steps);
  if (p.T_ > 1 && s.segments > 1 && s.stride < p.halo())
    throw SpecError(spec.describe() + " with w=" + std::to_string(workers) + ": " + std::to_string(s.segments) +
                    " segments " + std::to_string(s.stride) + " outputs apart are closer than the halo of " +
                    std::to_string(p.T_) + " time steps (" + std::to_string(p.halo()) + " words)");
  return p;
}

StencilPlan StencilPlan::streams(const StencilSpec& spec, unsigned workers, unsigned interleave, unsigned left,
                                 unsigned right) {
  StencilSpec one = spec;  // the grid; the radius only passes the spec's checks
  one.radius[0] = 1;
  one.time_steps = 1;
  const std::uint64_t span = std::uint64_t{left} + right;
  if (span >= one.grid[0])
    throw SpecError("taps " + std::to_string(left) + " words left and " + std::to_string(right) +
                    " right leave no interior in a grid of " + std::to_string(one.grid[0]));
  StencilPlan p = streams(one, workers, interleave);
  // The segments as streams() cuts them, over the interior nx - span.
  const std::uint64_t width = p.nx_ - span;
  p.rx_ = left;
  p.span_ = span;
  SegmentPlan& s = p.seg_;
  s.stride = s.segments == 1 ? width : width / s.segments;
  s.length = width - (s.segments - 1) * s.stride;
  return p;
}

StencilPlan StencilPlan::as_bands(std::uint64_t length, std::uint64_t stride) const {
  StencilPlan p = *this;
  p.seg_.length = length;
  p.seg_.stride = stride;
  return p;
}

StencilPlan StencilPlan::with_rows(std::uint64_t rows, std::uint64_t row_words, std::uint64_t planes,
                                   std::uint64_t plane_words, std::uint64_t origin, unsigned grids) const {
  StencilPlan p = *this;
  p.seg_.rows = std::max<std::uint64_t>(1, rows);
  p.seg_.row_words = row_words;
  p.seg_.planes = std::max<std::uint64_t>(1, planes);
  p.seg_.plane_words = plane_words;
  p.seg_.origin = origin;
  p.seg_.grids = std::max(1u, grids);
  return p;
}

FilterPattern StencilPlan::stage_out(unsigned t) const {
  const std::uint64_t d = seg_.interleave;
  return {span() * d, stage_words(t) * d, 0};
}

std::vector<BoundaryWindow> StencilPlan::boundary_windows(unsigned t) const {
  std::vector<BoundaryWindow> out;
  if (!streams() || t == 0 || t >= T_) return out;
  const std::uint64_t d = seg_.interleave, r = rx_, P = halo();
  // Stage t's input word v of segment s is grid cell s*stride - P + r(t-1) + v, its kept output u
  // is cell s*stride - P + rt + u; the grid's cells [0, r) lie in segment 0, [nx-r, nx) in the last.
  auto window = [&](std::uint64_t first, std::uint64_t words, std::uint64_t phase) {
    return WindowBits{first * d, r * d, (words - first - r) * d, d, phase};
  };
  const std::uint64_t in_words = stage_words(t - 1), out_words = stage_words(t);
  BoundaryWindow lo;
  lo.worker = 0;
  lo.left = true;
  lo.keep = window(P - r * (t - 1), in_words, 0);
  lo.sel = window(P - r * t, out_words, 0);
  out.push_back(lo);
  BoundaryWindow hi;
  hi.worker = w_ - 1;
  hi.left = false;
  hi.keep = window(seg_.length + r + P - r * (t - 1), in_words, d - 1);
  hi.sel = window(seg_.length + r + P - r * t, out_words, d - 1);
  out.push_back(hi);
  return out;
}

std::uint64_t StencilPlan::reader_total(unsigned k) const {
  if (streams()) return stage_words(0) * seg_.interleave * seg_.row_count();
  return blocks_.blocks * streamed_planes() * ny_ * reader_count(k);
}

std::uint64_t StencilPlan::writer_total(unsigned j) const {
  if (streams()) return seg_.length * seg_.interleave * seg_.row_count();
  return blocks_.blocks * planes() * out_rows() * worker_count(j);
}

ChannelBuffer StencilPlan::buffer_for(std::uint64_t backlog, std::uint64_t native) const {
  const std::uint64_t need = backlog + kRateSlack;
  if (need <= native) return {};
  if (delay_ && need <= 2 * native) return {1, 0};
  return {0, need};
}

std::uint64_t StencilPlan::reader_count(unsigned k) const { return ceil_div(read_width() - k, w_); }

std::uint64_t StencilPlan::worker_count(unsigned j) const { return ceil_div(blocks_.out_width - j, w_); }

FilterPattern StencilPlan::x_tap(unsigned j, unsigned a) const {
  // Output column rx+j+t*w needs relative column j+a+t*w: reader (j+a) mod w, position
  // (j+a)/w + t within the reader's row.
  const unsigned s = j + a;
  const std::uint64_t m = s / w_, n = worker_count(j);
  return {m, n, reader_count(s % w_) - m - n};
}

FilterPattern StencilPlan::x_out(unsigned j) const {
  const std::uint64_t n = worker_count(j);
  return {ry_ * n, out_rows() * n, ry_ * n};
}

// Worker j's own column, rx + j, is what its centre x tap reads.
FilterPattern StencilPlan::y_source(unsigned j) const { return x_tap(j, rx_); }

int StencilPlan::y_offset(unsigned a) const {
  const int r = static_cast<int>(ry_);
  const int i = static_cast<int>(a);
  return i < r ? i - r : i - r + 1;
}

unsigned StencilPlan::z_run_first(unsigned r) const {
  unsigned a = 0;
  while (z_run(a) < r) ++a;
  return a;
}

unsigned StencilPlan::z_run_last(unsigned r) const {
  unsigned a = z_run_first(r);
  while (a + 1 < 2 * rz_ && z_run(a + 1) == r) ++a;
  return a;
}

std::uint64_t StencilPlan::z_run_planes(unsigned r) const {
  return planes() + static_cast<std::uint64_t>(z_offset(z_run_last(r)) - z_offset(z_run_first(r)));
}

FilterPattern StencilPlan::z_tap(unsigned j, unsigned a) const {
  const unsigned r = z_run(a);
  const std::uint64_t s = z_plane_words(j);
  const auto before = static_cast<std::uint64_t>(z_offset(a) - z_offset(z_run_first(r)));
  const auto after = static_cast<std::uint64_t>(z_offset(z_run_last(r)) - z_offset(a));
  return {before * s, planes() * s, after * s};
}

std::uint64_t StencilPlan::z_acc_backlog(unsigned j, unsigned a) const {
  if (a == 0 || z_run(a) != z_run(a - 1)) return 0;
  return static_cast<std::uint64_t>(z_offset(a) - z_offset(a - 1)) * z_plane_words(j);
}

int StencilPlan::z_offset(unsigned a) const {
  const int r = static_cast<int>(rz_);
  const int i = static_cast<int>(a);
  return i < r ? i - r : i - r + 1;
}

FilterPattern StencilPlan::y_out(unsigned j) const {
  const std::uint64_t n = worker_count(j);
  return {2 * std::uint64_t{ry_} * n, out_rows() * n, 0};
}

std::uint64_t StencilPlan::y_acc_backlog(unsigned j, unsigned a) const {
  if (a == 0) return 0;
  const std::int64_t rows = y_offset(a) - y_offset(a - 1);
  return static_cast<std::uint64_t>(rows) * worker_count(j);
}

}  // namespace cgra
