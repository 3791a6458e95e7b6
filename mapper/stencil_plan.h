#pragma once
/// \file stencil_plan.h
/// The analytic part of the stencil mapping (docs/stencil.md): how the grid is strip-mined into
/// vertical blocks, what each reader loads, what each compute worker computes, the 0^m 1^n 0^p
/// pattern of every data filter, how many stores each sync worker expects, and how many words
/// each deep channel of the 2D y chain must hold. Everything here is a closed formula of the spec,
/// the worker count and the block choice; the DFG builders (stencil_dfg.h) only wire it up.
///
/// Indexing (per block, per row): the block reads columns [0, in_width) relative to its first
/// column. Reader k loads relative columns k, k+w, ... (reader_count(k) = ceil((in_width-k)/w) of
/// them) of every row, rows in order, blocks in order. Compute worker j computes the block's output
/// columns rx+j, rx+j+w, ... (worker_count(j) = ceil((out_width-j)/w) of them).
///
/// 2D and 3D with T time steps (temporal pipelining): T stages of compute workers, stage t on
/// stage(t)'s blocks, rx(T-t) columns wider each side than this plan's; stage t's worker k feeds
/// stage t+1's reader k, with the grid's boundary rows and columns (column_windows), and in 3D
/// planes, put back between them. A 3D stage streams every plane and its z chain takes the column
/// stream (z_in_stream): no z readers.
///
/// 3D: the interior planes rz .. nz-rz-1 are streamed one after the other, each as a 2D grid of ny
/// rows (blocks, then planes, then rows, then columns), so every per-block pattern of 2D holds per
/// plane (a stage of temporal pipelining streams every plane: z_in_stream). The z part of worker
/// j's outputs comes from z readers, each loading the worker's output columns of the interior rows
/// of the planes at its taps' offsets (re-read through the caches).
/// With a reader per z tap no z chain link holds a skew; when the memory PEs are fewer, a reader
/// serves a run of consecutive taps (z_run), and the chain link between two taps of a run holds
/// the planes between their offsets: a deep channel.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/stencil_spec.h"

namespace cgra {

/// A data-filter pattern: of every m+n+p values, drop m, pass n, drop p (the paper's 0^m 1^n 0^p).
struct FilterPattern {
  std::uint64_t m = 0;
  std::uint64_t n = 0;
  std::uint64_t p = 0;
  /// Length of one period.
  std::uint64_t period() const { return m + n + p; }
  /// True when the pattern passes everything (no filter needed).
  bool passes_all() const { return m == 0 && p == 0; }
  friend auto operator<=>(const FilterPattern&, const FilterPattern&) = default;
};

/// How the interior columns are strip-mined into vertical blocks. Block b computes output columns
/// [rx + b*stride, rx + b*stride + out_width) and reads [b*stride, b*stride + out_width + 2rx).
/// All blocks have the same width, so every filter pattern is the same in every block; when the
/// interior width is not a multiple of the stride the blocks overlap by fewer than `blocks`
/// columns, which are computed (and stored, with identical values) twice.
struct BlockPlan {
  unsigned blocks = 1;
  std::uint64_t out_width = 0;  ///< output columns per block
  std::uint64_t stride = 0;     ///< columns between the starts of consecutive blocks
  std::uint64_t in_width = 0;   ///< columns read per block: out_width + 2rx
};

/// 1D: how the interior is cut into segments that the workers stream interleaved (docs/stencil.md,
/// "1D: broadcast taps"). Worker j streams segments j*D .. j*D + D-1, one word of each per step:
/// step v*D + q reads word v of segment j*D + q. Segment s computes outputs [s*stride, s*stride +
/// length) of the interior and reads input [s*stride, s*stride + length + 2r). Equal lengths; when
/// the interior does not divide, consecutive segments overlap and compute (and store) the same
/// values twice.
struct SegmentPlan {
  unsigned interleave = 1;     ///< D: segments per worker, one word of each per step
  std::uint64_t segments = 0;  ///< w x D
  std::uint64_t length = 0;    ///< L: outputs per segment
  std::uint64_t stride = 0;    ///< outputs between consecutive segments' starts
  /// A 2D or 3D kernel's row streams (with_rows): each worker streams its segments in every one
  /// of `rows` rows `row_words` words apart, in every one of `planes` planes `plane_words` apart
  /// (1D: one row, one plane).
  std::uint64_t rows = 1, row_words = 0, planes = 1, plane_words = 0;
  /// Words from the grid's first point to its first interior row (the writer's first row).
  std::uint64_t origin = 0;
  /// Grids each worker's words come from through the DRAM (a kernel's inputs; its other row
  /// groups re-read rows the caches hold).
  unsigned grids = 1;
  std::uint64_t row_count() const { return rows * planes; }
};

/// 1D temporal pipelining: where a stage's stream must take a boundary cell back. Of the stream's
/// words, those at position c = k mod (m+n+p) in [m, m+n) with (c - m) mod every == phase (the BITS
/// op's `every`/`phase` form): the words of one segment of the interleave, r of them.
struct WindowBits {
  std::uint64_t m = 0, n = 0, p = 0;
  std::uint64_t every = 1, phase = 0;
};

/// 1D temporal pipelining: one boundary window of stage t's output (t < T). Stage t computes
/// every position of its segments, the grid's boundary cells too; there the next stage must see the
/// input's value, which the stage's own input stream carries (the first stage reads it; later stages
/// got it from the window before). `keep` selects those words from the stage's input stream, `sel`
/// marks where they go in its filtered output (a MUX mode=bits takes them there).
struct BoundaryWindow {
  unsigned worker = 0;
  bool left = true;   ///< the grid's first r cells (else its last r)
  WindowBits keep;    ///< over the stage's input stream
  WindowBits sel;     ///< over the stage's filtered output
};

/// 2D temporal pipelining: one grid boundary column in stage t's output (t < T). Stage t computes
/// h = rx(T-t) columns beyond the block on each side, the grid's boundary columns too (block 0's
/// first, the last block's last); there the next stage must see the input's value, which the
/// worker's column stream (the stage's input at its columns) carries. The column is worker
/// `worker`'s word `position` of each row of block `block`: `keep` selects it from the column
/// stream (every row, the whole run), `sel` marks its place in the worker's computed stream (the
/// interior rows), where a MUX mode=bits puts it. 3D: in every interior row of every interior plane;
/// `keep` is over the column stream's interior rows of its interior planes, the computed stream's
/// shape (keep = sel).
struct ColumnWindow {
  unsigned worker = 0;
  unsigned block = 0;
  std::uint64_t position = 0;
  bool left = true;  ///< the grid's first rx columns (else its last rx)
  WindowBits keep;
  WindowBits sel;
};

/// Words a channel must hold beyond its steady-state backlog so that producer and consumer can
/// both run at one word per cycle (assumed: covers route and queue latencies).
inline constexpr std::uint64_t kRateSlack = 4;

/// How one channel holds its backlog: in the PE queues, through one COPY delay stage (a PE whose
/// queues add to the channel's), or as a deep channel (capacity > 0: a scratchpad FIFO).
struct ChannelBuffer {
  unsigned copies = 0;
  std::uint64_t capacity = 0;
};

/// The analytic plan of one mapping.
class StencilPlan {
 public:
  /// Plans `spec` with `workers` workers and the given blocking; `delay_stages` lets a channel
  /// whose backlog fits two PEs' queues use a COPY stage instead of a deep FIFO. Throws SpecError
  /// when a block is narrower than the worker count (a worker would get no column).
  /// 2D: `forward_copies` COPY stages per gap of the x forward chains (see x_forward_point);
  /// `line_words` initial tokens one channel of a y delay line holds (0: an input queue's depth).
  /// 3D: `z_streams` z readers per worker (0: one per z tap; at most 2rz).
  StencilPlan(const StencilSpec& spec, unsigned workers, BlockPlan blocks, bool delay_stages = false,
              unsigned forward_copies = 0, std::uint64_t line_words = 0, unsigned z_streams = 0);
  /// 1D: `workers` workers each interleaving `interleave` segments (SegmentPlan), with
  /// spec.time_steps stages (0 is taken as 1). Throws SpecError for a 2D spec, an interleave of 0,
  /// or time steps whose halo exceeds the segments' stride (a boundary cell would then fall in more
  /// than one segment).
  static StencilPlan streams(const StencilSpec& spec, unsigned workers, unsigned interleave);
  /// 1D streams of a kernel (mapper/kernel_streams.h) whose taps reach `left` words before the
  /// output point and `right` after it (one time step): as streams(), with rx() = left and
  /// span() = left + right in place of 2r (a segment reads L + span() words and drops the first
  /// span() results). `spec` gives the grid (its radius is not used).
  static StencilPlan streams(const StencilSpec& spec, unsigned workers, unsigned interleave, unsigned left,
                             unsigned right);
  /// The same plan over `rows` rows `row_words` apart in `planes` planes `plane_words` apart, the
  /// first `origin` words after the grid's start, its words coming from `grids` grids through the
  /// DRAM (a 2D or 3D kernel, SegmentPlan).
  StencilPlan with_rows(std::uint64_t rows, std::uint64_t row_words, std::uint64_t planes, std::uint64_t plane_words,
                        std::uint64_t origin, unsigned grids) const;
  /// The same plan with one segment of `length` outputs per worker, `stride` words apart (a
  /// kernel's bands of whole rows or planes: with_rows gives each worker's rows).
  StencilPlan as_bands(std::uint64_t length, std::uint64_t stride) const;

  /// Blocking for `spec`: `blocks` equal-width blocks covering the interior (see BlockPlan).
  static BlockPlan make_blocks(const StencilSpec& spec, unsigned blocks);

  const StencilSpec& spec() const { return spec_; }
  unsigned workers() const { return w_; }
  unsigned rx() const { return rx_; }
  unsigned ry() const { return ry_; }
  bool two_d() const { return spec_.dims >= 2; }
  bool three_d() const { return spec_.dims >= 3; }
  unsigned rz() const { return rz_; }
  /// Planes of the grid (1 below 3D) and planes computed: the interior ones (nz - 2rz).
  std::uint64_t nz() const { return nz_; }
  std::uint64_t planes() const { return nz_ - 2 * std::uint64_t{rz_}; }
  /// 3D: whether the z taps take the worker's column stream (a stage of temporal pipelining: the
  /// readers stream every plane, and the z chain's links hold the planes between its taps) rather
  /// than z readers of their own.
  bool z_in_stream() const { return z_in_stream_; }
  /// Planes the readers stream per block: every plane when the z taps take the column stream, the
  /// interior ones otherwise; and the first of them.
  std::uint64_t streamed_planes() const { return z_in_stream_ ? nz_ : planes(); }
  std::uint64_t first_plane() const { return z_in_stream_ ? 0 : rz_; }
  /// 3D, z taps on the column stream: filter of worker j's x (+ y) sums keeping the interior planes
  /// (period: one block's planes of interior rows).
  FilterPattern z_planes(unsigned j) const {
    const std::uint64_t s = z_plane_words(j);
    return {rz_ * s, planes() * s, rz_ * s};
  }
  /// 3D, z taps on the column stream: words worker j's x (+ y) sums wait for its z chain (rz planes
  /// of them), `latency` cycles of the chain included.
  std::uint64_t z_sum_backlog(unsigned j, std::uint64_t latency) const {
    return std::uint64_t{rz_} * z_plane_words(j) + latency;
  }
  /// 3D temporal pipelining: filter of worker j's column stream keeping the interior planes
  /// (period: one block's planes of every row).
  FilterPattern interior_planes(unsigned j) const {
    const std::uint64_t s = ny_ * worker_count(j);
    return {rz_ * s, planes() * s, rz_ * s};
  }
  /// 3D temporal pipelining: the words the kept boundary planes of worker j's column stream wait
  /// before the stage's MUX takes them (rz planes, while the z chain computes the planes before
  /// them), `latency` cycles included.
  std::uint64_t kept_planes_backlog(unsigned j, std::uint64_t latency) const {
    return (std::uint64_t{rz_} * ny_ + 2 * std::uint64_t{ry_}) * worker_count(j) + latency;
  }
  /// z tap a = 0..2rz-1: offset -rz..-1 for a < rz, 1..rz after.
  int z_offset(unsigned a) const;
  /// 3D: z readers per worker, and the one that feeds z tap a: taps are cut into that many runs of
  /// consecutive taps, as equal as they come (a/2rz · streams, rounded down).
  unsigned z_streams() const { return z_streams_; }
  unsigned z_run(unsigned a) const { return static_cast<unsigned>(std::uint64_t{a} * z_streams_ / (2 * std::uint64_t{rz_})); }
  /// The first and last tap of run r.
  unsigned z_run_first(unsigned r) const;
  unsigned z_run_last(unsigned r) const;
  /// Worker j's output points of one plane of a block: what a z reader loads per plane.
  std::uint64_t z_plane_words(unsigned j) const { return out_rows() * worker_count(j); }
  /// Planes z reader r loads per block: the streamed ones and the span of its run's offsets.
  std::uint64_t z_run_planes(unsigned r) const;
  /// Filter of z tap a over its reader's stream (period: one block): a run's reader loads planes
  /// from the first tap's first to the last tap's last; tap a takes the streamed planes at its offset.
  FilterPattern z_tap(unsigned j, unsigned a) const;
  /// Words the link into z tap a's accumulator holds (a >= 1): the planes between the offsets of
  /// two taps of one run (their reader's words reach tap a that much later); 0 between runs.
  std::uint64_t z_acc_backlog(unsigned j, unsigned a) const;
  std::uint64_t nx() const { return nx_; }
  /// Rows (1 in 1D).
  std::uint64_t ny() const { return ny_; }
  /// Interior rows computed (ny - 2ry).
  std::uint64_t out_rows() const { return ny_ - 2 * ry_; }
  const BlockPlan& blocking() const { return blocks_; }
  bool delay_stages() const { return delay_; }
  /// How a channel with `backlog` words must be buffered when a PE's queues hold `native` words:
  /// backlog + kRateSlack words in all.
  ChannelBuffer buffer_for(std::uint64_t backlog, std::uint64_t native) const;

  /// 1D: the segments the workers stream (interleave 0 when the plan is not a 1D stream plan).
  const SegmentPlan& segments() const { return seg_; }
  bool streams() const { return seg_.segments != 0; }
  /// 1D streams: the pattern of a worker's chain output that keeps its real outputs (the first 2r
  /// results of every segment are partial sums over the previous segment or initial tokens); the
  /// last stage's (stage_out(time_steps())).
  FilterPattern stream_out() const { return stage_out(T_); }

  /// 1D temporal pipelining: T stages of chains per worker, stage t (1..T) fed by stage t-1's
  /// filtered output (stage 1 by the reader). A segment's reader loads L + 2rT words (the halo
  /// grows by r per step, halo() = r(T-1) more each side than one step); stage t keeps L + 2r(T-t)
  /// of its results. 1 for every other plan.
  unsigned time_steps() const { return T_; }
  /// r(T-1): extra words each side of a segment (and margin of the memory image around the grid).
  std::uint64_t halo() const { return std::uint64_t{rx_} * (T_ - 1); }
  /// 2D: halo(); 0 for other plans.
  std::uint64_t halo2d() const { return two_d() ? halo() : 0; }
  /// Words of each segment stage t (0: the reader) passes on: L + 2r(T-t).
  std::uint64_t stage_words(unsigned t) const { return seg_.length + span() * (T_ - t); }
  /// 1D streams: the words one output reaches over, less one: 2r (a kernel's left + right).
  std::uint64_t span() const { return span_ ? *span_ : 2 * std::uint64_t{rx_}; }
  /// Filter of stage t's chain output: drops the first 2r results of every segment.
  FilterPattern stage_out(unsigned t) const;
  /// The boundary windows of stage t < T (left first): the grid's first r cells are in segment 0
  /// (worker 0, first of the interleave), its last r in the last segment (worker w-1, last).
  std::vector<BoundaryWindow> boundary_windows(unsigned t) const;

  /// 2D/3D temporal pipelining (time_steps() = T > 1): stage t's plan (1..T), T = 1, its blocks
  /// rx(T-t) columns wider on each side than this plan's (stage t+1 reads stage t's outputs:
  /// stage t's worker k feeds stage t+1's reader k), re-read forward points only in stage 1; 3D:
  /// every plane streamed, the z taps on the column stream (z_in_stream, one z run).
  StencilPlan stage(unsigned t) const;
  /// 2D/3D temporal pipelining: the grid boundary columns in stage t's output (t < T), left first.
  std::vector<ColumnWindow> column_windows(unsigned t) const;
  /// 2D temporal pipelining: the words the kept boundary rows of worker j's column stream wait
  /// before the stage's MUX takes them (a block's last ry rows until the computed rows before them
  /// have passed, and the next block's first ry rows behind them), `latency` cycles of the y chain
  /// and ADD included.
  /// 3D: the rows of rz planes more (the z chain's results of a plane come rz planes after it).
  std::uint64_t kept_rows_backlog(unsigned j, std::uint64_t latency) const {
    return 2 * std::uint64_t{ry_} * (rz_ + 1) * worker_count(j) + latency;
  }
  /// 2D and 3D temporal pipelining: the words a kept boundary column waits (a word per interior
  /// row: ry rows of the y chain, rz planes of the z chain, and 2 more).
  std::uint64_t kept_column_backlog() const { return std::uint64_t{rz_} * out_rows() + ry_ + 2; }
  /// Columns a reader row spans per block: in_width, plus the halo of T time steps each side.
  std::uint64_t read_width() const { return blocks_.in_width + (two_d() ? 2 * halo() : 0); }

  /// Columns reader k loads per row of a block.
  std::uint64_t reader_count(unsigned k) const;
  /// Output columns worker j computes per row of a block.
  std::uint64_t worker_count(unsigned j) const;
  /// Words reader k loads in the whole run.
  std::uint64_t reader_total(unsigned k) const;
  /// Stores writer j makes in the whole run (what sync worker j expects).
  std::uint64_t writer_total(unsigned j) const;

  /// x taps a = 0..2rx (offset a - rx) of worker j read reader (j + a) mod w.
  unsigned x_reader(unsigned j, unsigned a) const { return (j + a) % w_; }
  /// Filter of x tap a of worker j over its reader's stream (period: one row of that reader).
  /// In 2D the x chain computes every row; the x output filter drops the non-interior rows.
  FilterPattern x_tap(unsigned j, unsigned a) const;
  /// 2D: filter of worker j's x partial sums keeping the interior rows (period: one block; 3D:
  /// one plane of a block).
  FilterPattern x_out(unsigned j) const;
  /// 2D: the x filter with column offset s = j + a takes reader (s mod w)'s stream at forward
  /// point s / w of that reader's forward chain: point 0 is the reader itself, point m the last
  /// of forward_copies() COPY stages fed by point m-1. A word then reaches the filters that use
  /// it later (larger s: later taps of the staggered workers) later, instead of waiting in their
  /// queues.
  unsigned x_forward_point(unsigned s) const { return s / w_; }
  unsigned forward_copies() const { return forward_copies_; }
  /// 2D: forward points past the reader (1 .. x_forward_points()) of each reader's chain: the
  /// largest s / w over the x filters' column offsets s = 0 .. 2rx + w - 1.
  static unsigned x_forward_points(unsigned rx, unsigned workers) { return (workers - 1 + 2 * rx) / workers; }
  unsigned x_forward_points() const { return x_forward_points(rx_, w_); }
  /// 2D: how many forward points of each reader's chain are loaded again through the caches by a
  /// reader of their own (a re-reader: the same addresses, later), instead of COPY stages after
  /// the point before; at most x_forward_points(). The re-read points are spread evenly along the
  /// chain, so the COPY-fed stretches between them are as short as they can be.
  unsigned forward_rereads() const { return forward_rereads_; }
  void set_forward_rereads(unsigned n) { forward_rereads_ = std::min(n, x_forward_points()); }
  /// 2D: whether forward point m (>= 1) is one of the forward_rereads() re-read points.
  bool forward_reread(unsigned m) const;
  /// 2D: initial tokens one channel of a y delay line holds (0: the input queue depth).
  std::uint64_t line_words() const { return line_words_; }
  /// 2D: whether a y delay line longer than line_words() is one deep channel (a scratchpad FIFO
  /// holding the initial tokens beyond the consumer's input queue) instead of COPY stages.
  bool deep_lines() const { return deep_lines_; }
  void set_deep_lines(bool on) { deep_lines_ = on; }
  /// 2D: the reader feeding worker j's y chain: the one that loads column rx + j of each row.
  unsigned y_reader(unsigned j) const { return x_reader(j, rx_); }
  /// 2D: filter of the y reader's stream keeping worker j's columns (period: one row): the same
  /// filter as x tap rx of worker j, whose output the y chain shares.
  FilterPattern y_source(unsigned j) const;
  /// y tap a = 0..2ry-1: offset -ry..-1 for a < ry, 1..ry after.
  int y_offset(unsigned a) const;
  /// 2D: filter of worker j's y chain output keeping the interior rows (period: one block): the
  /// first 2ry rows' results of a block are partial sums over initial tokens or the block before.
  FilterPattern y_out(unsigned j) const;

  /// 2D: initial tokens of the channel feeding y tap a's accumulator (a >= 1): every y tap takes
  /// every word of the worker's column stream, so tap a pairs a word with the partial sum tap a-1
  /// made (rows between the taps) x (the worker's columns) words earlier — the paper's
  /// "mandatory buffering", held as a delay line.
  std::uint64_t y_acc_backlog(unsigned j, unsigned a) const;
  /// 2D: backlog of worker j's x partial sums waiting for the y partial sums (ry rows).
  std::uint64_t x_out_backlog(unsigned j) const { return std::uint64_t{ry_} * worker_count(j); }

 private:
  StencilSpec spec_;
  unsigned w_;
  unsigned rx_, ry_, rz_ = 0;
  std::uint64_t nx_, ny_, nz_ = 1;
  BlockPlan blocks_;
  bool delay_ = false;
  unsigned forward_copies_ = 0;
  unsigned forward_rereads_ = 0;
  unsigned z_streams_ = 0;
  bool z_in_stream_ = false;
  std::uint64_t line_words_ = 0;
  bool deep_lines_ = false;
  SegmentPlan seg_;
  std::optional<std::uint64_t> span_;  // 1D kernel streams: left + right (else 2r)
  unsigned T_ = 1;
};

}  // namespace cgra
