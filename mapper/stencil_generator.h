#pragma once
/// \file stencil_generator.h
/// Internal to the stencil mapping's DFG generators (stencil_dfg.cpp, stencil_dfg_compute.cpp): the
/// Generator that build_stencil_dfg (stencil_dfg.h) runs once per graph. Not an interface: include
/// stencil_dfg.h instead.

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dfg/builder.h"
#include "dfg/subgraphs.h"
#include "mapper/roofline.h"
#include "mapper/stencil_dfg.h"

namespace cgra::detail {

using dfg::Builder;
using dfg::OpKind;
using dfg::PortRef;
using dfg::Role;

inline std::string num(std::uint64_t v) { return std::to_string(v); }

/// a + k + b, appended in place: `"r" + num(k) + ".addr"` trips gcc 12's -Wrestrict at -O3 (a
/// false positive in operator+ on a temporary), which fails a -Werror release build.
inline std::string name(std::string_view a, std::uint64_t k, std::string_view b = {}) {
  std::string s(a);
  s += std::to_string(k);
  s += b;
  return s;
}

// Builds the graph; one instance per call of build_stencil_dfg.
class Generator {
 public:
  Generator(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe, const StreamCompute* compute)
      : top_(plan), cur_(&plan), compute_(compute), layout_(layout), b_(out_.dfg), native_(pe.input_queue_depth + pe.output_queue_depth),
        queue_(pe.input_queue_depth), fan_in_(std::max(2u, pe.input_queues)),
        merge_latency_(2 * std::uint64_t{std::max(pe.latency.fp_mac, pe.latency.fp_mul)} + pe.latency.fp_add + 16),
        z_latency_(2 * std::uint64_t{plan.rz()} * (std::max(pe.latency.fp_mac, pe.latency.fp_mul) + 8) + 16) {}

  StencilDfg run() {
    const StencilSpec& spec = plan().spec();
    const unsigned w = plan().workers();
    std::string name = "stencil" + num(spec.dims) + "d_rx" + num(plan().rx());
    if (plan().two_d()) name += "_ry" + num(plan().ry());
    if (plan().three_d()) name += "_rz" + num(plan().rz());
    if (plan().time_steps() > 1) name += "_t" + num(plan().time_steps());
    out_.dfg.set_name((compute_ ? compute_->name : name) + "_w" + num(w));
    out_.slot_rows = (2 * plan().rx() + 1) * plan().time_steps();
    if (plan().two_d()) out_.slot_rows += (2 * plan().ry() + 2 * plan().rz()) * plan().time_steps() + worker_adds(spec);
    if (plan().two_d()) y_row0_ = (2 * plan().rx() + 1) * plan().time_steps();
    const bool streams = plan().streams();
    out_.snake = streams;
    if (plan().two_d()) out_.banded_rows = (2 * plan().rx() + 1) * plan().time_steps();
    if (plan().two_d() && plan().time_steps() > 1) {
      run_stages();
      return std::move(out_);
    }
    if (compute_) out_.slot_rows = 0;  // the compute's own slots
    for (unsigned k = 0; k < w && !compute_; ++k) readers_.push_back(streams ? add_stream_reader(k) : add_reader(k));
    std::vector<std::int64_t> expected;
    std::vector<PortRef> done;
    for (unsigned j = 0; j < w; ++j) {
      PortRef result = compute_ ? add_computed_stream(j) : streams ? add_stream_worker(j) : add_compute_worker(j);
      done.push_back(streams ? add_stream_writer(j, result) : add_writer(j, result));
      expected.push_back(static_cast<std::int64_t>(plan().writer_total(j)));
    }
    add_sync(done, expected);
    return std::move(out_);
  }

 private:
  const StencilPlan& plan() const { return *cur_; }

  // 2D temporal pipelining: T stages of compute workers, stage t on stage(t)'s plan (ops named
  // t<t>.*), stage t's worker k, its grid boundary cells put back (add_boundary_2d), feeding stage
  // t+1's reader k; stage T's results go to the writers.
  void run_stages() {
    const unsigned w = top_.workers(), steps = top_.time_steps();
    std::vector<StencilPlan> stages;
    for (unsigned t = 1; t <= steps; ++t) stages.push_back(top_.stage(t));
    cur_ = &stages[0];
    for (unsigned k = 0; k < w; ++k) readers_.push_back(add_reader(k));
    std::vector<PortRef> results(w);
    // Slot rows of a stage: its x taps, then its y and z taps and ADDs.
    const unsigned x_rows = 2 * top_.rx() + 1;
    const unsigned y_rows = 2 * top_.ry() + 2 * top_.rz() + (top_.ry() > 0) + (top_.rz() > 0);
    for (unsigned t = 1; t <= steps; ++t) {
      cur_ = &stages[t - 1];
      pre_ = stage_prefix(t);
      x_row0_ = (t - 1) * x_rows;
      y_row0_ = steps * x_rows + (t - 1) * y_rows;
      x_filters_.clear();
      forward_.clear();
      for (unsigned j = 0; j < w; ++j) results[j] = add_compute_worker(j);
      if (t < steps)
        for (unsigned j = 0; j < w; ++j)
          results[j] = top_.three_d() ? add_boundary_3d(j, t, results[j]) : add_boundary_2d(j, t, results[j]);
      readers_ = results;
    }
    cur_ = &top_;
    pre_.clear();
    std::vector<std::int64_t> expected;
    std::vector<PortRef> done;
    for (unsigned j = 0; j < w; ++j) {
      done.push_back(add_writer(j, results[j]));
      expected.push_back(static_cast<std::int64_t>(top_.writer_total(j)));
    }
    add_sync(done, expected);
  }

  // 2D, between stages t and t+1: stage t's worker j computed the interior rows of its columns;
  // the next stage needs every row, the grid's boundary rows and columns with the input's values.
  // Those come from the worker's column stream (the stage's input at its columns, every row). A
  // grid boundary column of the worker (StencilPlan::column_windows): a FILTER keeps its words
  // from the column stream (`.c<i>.keep`), another drops the computed ones (`.c<i>.drop`), a MUX
  // mode=bits puts the kept ones in their place (`.c<i>.mux`). Then the boundary rows: a FILTER
  // keeps a block's first and last ry rows of the column stream (`.rows.keep`) and a MUX
  // (`.rows.mux`) puts them around the block's interior rows; they wait there for the computed
  // rows between them (StencilPlan::kept_rows_backlog), in a buffered channel.
  PortRef add_boundary_2d(unsigned j, unsigned t, PortRef computed) {
    const PortRef column = x_filter(j + plan().rx(), plan().y_source(j));
    const std::string p = pre_ + name("w", j, ".bd");
    unsigned i = 0;
    for (const ColumnWindow& cw : top_.column_windows(t)) {
      if (cw.worker != j) continue;
      // A kept word comes ry rows (ry words of its column) and the chains' latency before its place.
      computed = add_window(j, p + ".c" + num(i++), cw.keep, cw.sel, column, computed, plan().kept_column_backlog());
    }
    return put_back(j, p + ".rows", plan().x_out(j), column, computed, plan().kept_rows_backlog(j, merge_latency_));
  }

  // 3D, between stages t and t+1: stage t's worker j computed the interior rows of the interior
  // planes of its columns; the next stage needs every plane and row. As in 2D (add_boundary_2d),
  // from the worker's column stream: the grid boundary columns (`.c<i>`, kept from the column
  // stream's interior rows of interior planes, `.ir`), the boundary rows of each interior plane
  // (`.rows`, kept from its interior planes, `.ip`), then the boundary planes (`.planes`): a FILTER
  // keeps a block's first and last rz planes and a MUX puts them around the interior ones. Every
  // kept word waits rz planes more than in 2D: the z chain's results of a plane come when the column
  // stream is rz planes further.
  PortRef add_boundary_3d(unsigned j, unsigned t, PortRef computed) {
    const int wj = static_cast<int>(j);
    const PortRef column = x_filter(j + plan().rx(), plan().y_source(j));
    const std::string p = pre_ + name("w", j, ".bd");
    const PortRef interior = filtered(p + ".ip", plan().interior_planes(j), column, wj);
    std::optional<PortRef> inner;  // the interior rows of the interior planes, made when a column needs them
    unsigned i = 0;
    for (const ColumnWindow& cw : top_.column_windows(t)) {
      if (cw.worker != j) continue;
      if (!inner) inner = filtered(p + ".ir", plan().x_out(j), interior, wj);
      computed = add_window(j, p + ".c" + num(i++), cw.keep, cw.sel, *inner, computed, plan().kept_column_backlog());
    }
    const std::uint64_t latency = merge_latency_ + z_latency_;
    if (plan().ry() > 0)
      computed = put_back(j, p + ".rows", plan().x_out(j), interior, computed, plan().kept_rows_backlog(j, latency));
    return put_back(j, p + ".planes", plan().interior_planes(j), column, computed, plan().kept_planes_backlog(j, latency));
  }

  // Puts back around `computed` what pattern `inner` drops of `from`: a FILTER keeps those words
  // (`<p>.keep`, on the pattern inverted) and a MUX mode=bits (`<p>.mux`) takes them where the
  // pattern drops, `computed`'s words where it passes; the kept words wait up to `backlog` in the
  // channel into the MUX.
  PortRef put_back(unsigned j, const std::string& p, const FilterPattern& inner, const PortRef& from,
                   const PortRef& computed, std::uint64_t backlog) {
    const int wj = static_cast<int>(j);
    const WindowBits edge{inner.m, inner.n, inner.p, 1, 0};
    auto keep = b_.add(OpKind::Filter, p + ".keep").imm("mode", "bits").role(Role::Filter, wj);
    b_.connect(from, keep.port("in"));
    b_.connect(window_bits(p + ".keep.bits", edge, wj, true), keep.port("bits"));
    auto mux = b_.add(OpKind::Mux, p + ".mux").imm("mode", "bits").role(Role::Filter, wj);
    b_.connect(window_bits(p + ".sel", edge, wj, true), mux.port("sel"));
    b_.connect(computed, mux.port("a"));
    connect_buffered(keep.port("out"), mux.port("b"), backlog, p + ".kd", wj);
    return mux.port("out");
  }

  // Byte offset of plane z, row y, column x of a grid.
  std::uint64_t at(std::uint64_t z, std::uint64_t y, std::uint64_t x) const {
    return 8 * (z * layout_.plane_pitch + y * plan().nx() + x);
  }

  // Address generator for `count` columns `w` apart in every row of every (3D: streamed plane of
  // every) block.
  void set_addresses(dfg::OpHandle& h, std::uint64_t base, std::uint64_t count, std::uint64_t rows,
                     std::uint64_t planes = 0) {
    if (planes == 0) planes = plan().streamed_planes();
    const BlockPlan& bp = plan().blocking();
    h.imm("base", static_cast<std::int64_t>(base))
        .imm("stride", static_cast<std::int64_t>(8 * plan().workers()))
        .imm("count", static_cast<std::int64_t>(count));
    if (rows > 1) h.imm("rows", static_cast<std::int64_t>(rows)).imm("row_stride", static_cast<std::int64_t>(8 * plan().nx()));
    if (planes > 1)
      h.imm("planes", static_cast<std::int64_t>(planes)).imm("plane_stride", static_cast<std::int64_t>(at(1, 0, 0)));
    if (bp.blocks > 1)
      h.imm("blocks", static_cast<std::int64_t>(bp.blocks)).imm("block_stride", static_cast<std::int64_t>(8 * bp.stride));
  }

  // Reader k (`part` empty), or a re-reader of its forward chain (`part` ".p<m>"): the same
  // addresses, loaded again when the filters at that point take them (the caches hold the lines).
  PortRef add_reader(unsigned k, const std::string& part = "") {
    const std::string pre = part.empty() ? std::string() : pre_;
    auto addr =
        b_.add(OpKind::AddrGen, pre + name("r", k, part + ".addr")).role(Role::Control, static_cast<int>(k));
    // With T time steps (2D, 3D) the first block starts its halo rx(T-1) columns before the grid, in
    // the layout's margin.
    set_addresses(addr, layout_.input_base + 8 * (layout_.margin - top_.halo2d()) + at(plan().first_plane(), 0, k),
                  plan().reader_count(k), plan().ny());
    auto load = b_.add(OpKind::Load, pre + name("r", k, part + ".load")).role(Role::Reader, static_cast<int>(k));
    b_.connect(addr.port("addr"), load.port("addr"));
    return load.port("data");
  }

  // 1D streams: reader j loads its D segments interleaved, word v of each in turn (SegmentPlan):
  // address input + 8 * (s*stride + v) for segment s = j*D + q, q innermost; with T time steps
  // each segment starts its halo r(T-1) words earlier, in the layout's margin at the grid's ends.
  // A StreamCompute's readers: `base` the grid's first point, `part` "_<g>" for its grid g > 0.
  PortRef add_stream_reader(unsigned j, std::uint64_t base = 0, const std::string& part = "") {
    const SegmentPlan& sp = plan().segments();
    const std::uint64_t first = std::uint64_t{j} * sp.interleave * sp.stride;
    if (base == 0) base = layout_.input_base;
    auto addr = b_.add(OpKind::AddrGen, name("r", j, part + ".addr")).role(Role::Control, static_cast<int>(j));
    set_stream_addresses(addr, base + 8 * (layout_.margin - plan().halo() + first), plan().stage_words(0));
    auto load = b_.add(OpKind::Load, name("r", j, part + ".load")).role(Role::Reader, static_cast<int>(j));
    b_.connect(addr.port("addr"), load.port("addr"));
    return load.port("data");
  }

  // D segments (count), `words` words of each (rows), then a kernel's grid rows (planes) and
  // planes (blocks).
  // A kernel's rows (one segment per worker) take the words as the innermost level instead: a
  // level of one address costs its generator an idle cycle per address.
  void set_stream_addresses(dfg::OpHandle& h, std::uint64_t base, std::uint64_t words) {
    const SegmentPlan& sp = plan().segments();
    if (sp.row_count() > 1 && sp.interleave == 1) {
      h.imm("base", static_cast<std::int64_t>(base))
          .imm("stride", std::int64_t{8})
          .imm("count", static_cast<std::int64_t>(words));
      if (sp.rows > 1)
        h.imm("rows", static_cast<std::int64_t>(sp.rows)).imm("row_stride", static_cast<std::int64_t>(8 * sp.row_words));
      if (sp.planes > 1)
        h.imm("planes", static_cast<std::int64_t>(sp.planes)).imm("plane_stride", static_cast<std::int64_t>(8 * sp.plane_words));
      return;
    }
    h.imm("base", static_cast<std::int64_t>(base))
        .imm("stride", static_cast<std::int64_t>(8 * sp.stride))
        .imm("count", static_cast<std::int64_t>(sp.interleave));
    if (words > 1) h.imm("rows", static_cast<std::int64_t>(words)).imm("row_stride", std::int64_t{8});
    if (sp.rows > 1)
      h.imm("planes", static_cast<std::int64_t>(sp.rows)).imm("plane_stride", static_cast<std::int64_t>(8 * sp.row_words));
    if (sp.planes > 1)
      h.imm("blocks", static_cast<std::int64_t>(sp.planes)).imm("block_stride", static_cast<std::int64_t>(8 * sp.plane_words));
  }

  // 1D streams: worker j's T stages, stage t's filtered results streaming into stage t+1 (stage
  // names w<j>.t<t> when T > 1), the boundary cells put back between stages (add_boundary).
  PortRef add_stream_worker(unsigned j) {
    const unsigned steps = plan().time_steps();
    PortRef in = readers_[j];
    for (unsigned t = 1; t <= steps; ++t) {
      const std::string p = steps == 1 ? name("w", j) : name("w", j, ".t") + num(t);
      PortRef out = add_stream_stage(j, t, p, in);
      for (const BoundaryWindow& bw : plan().boundary_windows(t))
        if (bw.worker == j) out = add_boundary(j, p + (bw.left ? ".lo" : ".hi"), bw, in, out);
      in = out;
    }
    return in;
  }

  // One stage of worker j: its chain takes every word of `in` at every tap (a multicast whose
  // destinations all need the word at the same step: no skew to hold). Tap a pairs word v of a
  // segment with the partial sum tap a-1 made D steps earlier (word v-1 of the same segment):
  // each accumulator channel starts with D initial tokens, the delay line z^-D that hides the MAC
  // and route latency. The chain's results for the first 2r words of each segment are partial
  // sums over what came before (initial tokens or the previous segment): a filter drops them.
  PortRef add_stream_stage(unsigned j, unsigned t, const std::string& p, const PortRef& in) {
    const int wj = static_cast<int>(j);
    const std::vector<double> cx = plan().spec().x_coefficients();
    const unsigned d = plan().segments().interleave;
    dfg::MacChain x = dfg::add_mac_chain(b_, p + ".x", cx, Role::Compute, wj,
                                         [&](const PortRef& from, const PortRef& to, std::size_t) {
                                           const dfg::Edge e = b_.connect(from, to);
                                           out_.dfg.channel(e).initial.assign(d, dfg::Literal{0.0});
                                         });
    const auto taps = static_cast<unsigned>(cx.size());
    for (unsigned a = 0; a < taps; ++a) {
      b_.connect(in, x.taps[a]);
      out_.slots.push_back({x.ops[a], (t - 1) * taps + a, j});
    }
    return stream_filter(j, t, p, x.out);
  }

  // 1D streams: worker j's compute by compute_ on its readers' streams, then the stage's filter.
  PortRef add_computed_stream(unsigned j) {
    std::vector<PortRef> streams;
    for (std::size_t g = 0; g < compute_->bases.size(); ++g)
      streams.push_back(add_stream_reader(j, compute_->bases[g], g == 0 ? std::string() : "_" + num(g)));
    const PortRef result = compute_->build(b_, out_, j, streams);
    return stream_filter(j, 1, name("w", j), result);
  }

  // The filter of stage t's results `x` of worker j (ops `<p>.bits`, `<p>.xo`): drops the first
  // span() results of every segment.
  PortRef stream_filter(unsigned j, unsigned t, const std::string& p, const PortRef& x) {
    const int wj = static_cast<int>(j);
    // A bit generator of its own, not shared with the other workers' filters: the workers' readers
    // run at their own pace, and a shared multicast would tie them together.
    const FilterPattern pat = plan().stage_out(t);
    if (pat.passes_all()) return x;
    auto bits = b_.add(OpKind::Bits, p + ".bits")
                    .imm("m", static_cast<std::int64_t>(pat.m))
                    .imm("n", static_cast<std::int64_t>(pat.n))
                    .imm("p", static_cast<std::int64_t>(pat.p))
                    .role(Role::Filter, wj);
    auto f = b_.add(OpKind::Filter, p + ".xo").imm("mode", "bits").role(Role::Filter, wj);
    b_.connect(x, f.port("in"));
    b_.connect(bits.port("out"), f.port("bits"));
    return f.port("out");
  }

  // A BITS generator of the window form (StencilPlan::WindowBits).
  PortRef window_bits(const std::string& op_name, const WindowBits& wb, int worker, bool invert = false) {
    auto h = b_.add(OpKind::Bits, op_name)
                 .imm("m", static_cast<std::int64_t>(wb.m))
                 .imm("n", static_cast<std::int64_t>(wb.n))
                 .imm("p", static_cast<std::int64_t>(wb.p))
                 .role(Role::Filter, worker);
    if (wb.every > 1) h.imm("every", static_cast<std::int64_t>(wb.every)).imm("phase", static_cast<std::int64_t>(wb.phase));
    if (invert) h.imm("invert", std::int64_t{1});
    return h.port("out");
  }

  // Between stages (1D): the stage computed the grid's boundary cells of its window too; their
  // input values come from the stage's input stream, r·D steps before their place, r of them at
  // most waiting in the MUX's queue (add_window).
  PortRef add_boundary(unsigned j, const std::string& p, const BoundaryWindow& bw, const PortRef& in,
                       const PortRef& computed) {
    return add_window(j, p, bw.keep, bw.sel, in, computed, 0);
  }

  // Puts words of `kept_from` in place of some of `computed`'s: a FILTER keeps them (`<p>.keep`, on
  // `keep`), another drops the computed words there (`<p>.drop`, on `sel` inverted) and a MUX
  // mode=bits (`<p>.mux`, on `sel`) puts the kept words in their place. The channel into the MUX
  // holds the kept words that wait there, `backlog` at most (StencilPlan::buffer_for).
  PortRef add_window(unsigned j, const std::string& p, const WindowBits& keep, const WindowBits& sel,
                     const PortRef& kept_from, const PortRef& computed, std::uint64_t backlog) {
    const int wj = static_cast<int>(j);
    auto kf = b_.add(OpKind::Filter, p + ".keep").imm("mode", "bits").role(Role::Filter, wj);
    b_.connect(kept_from, kf.port("in"));
    b_.connect(window_bits(p + ".keep.bits", keep, wj), kf.port("bits"));
    auto drop = b_.add(OpKind::Filter, p + ".drop").imm("mode", "bits").role(Role::Filter, wj);
    b_.connect(computed, drop.port("in"));
    b_.connect(window_bits(p + ".drop.bits", sel, wj, true), drop.port("bits"));
    auto mux = b_.add(OpKind::Mux, p + ".mux").imm("mode", "bits").role(Role::Filter, wj);
    b_.connect(window_bits(p + ".sel", sel, wj), mux.port("sel"));
    b_.connect(drop.port("out"), mux.port("a"));
    connect_buffered(kf.port("out"), mux.port("b"), backlog, p + ".kd", wj);
    return mux.port("out");
  }

  PortRef add_stream_writer(unsigned j, const PortRef& data) {
    const SegmentPlan& sp = plan().segments();
    const std::string p = "wr" + num(j);
    auto addr = b_.add(OpKind::AddrGen, p + ".addr").role(Role::Control, static_cast<int>(j));
    const std::uint64_t first = plan().rx() + std::uint64_t{j} * sp.interleave * sp.stride;
    set_stream_addresses(addr, layout_.output_base + 8 * (layout_.margin + sp.origin + first), sp.length);
    auto store = b_.add(OpKind::Store, p + ".store").role(Role::Writer, static_cast<int>(j));
    b_.connect(addr.port("addr"), store.port("addr"));
    b_.connect(data, store.port("data"));
    return store.port("done");
  }

  // The bit generator of filter `filter`. 1D: one per distinct pattern, multicast to every filter
  // using it. 2D: one per filter: filters with the same pattern serve taps of different readers,
  // used s tap latencies apart along the staggered chains, and a shared multicast would hold every
  // one of them to the slowest.
  PortRef bits(const FilterPattern& pat, int worker, const std::string& filter) {
    const bool own = plan().two_d();
    if (!own) {
      auto it = bits_.find(pat);
      if (it != bits_.end()) return it->second;
    }
    auto h = b_.add(OpKind::Bits, own ? filter + ".bits" : "bits.m" + num(pat.m) + "_n" + num(pat.n) + "_p" + num(pat.p))
                 .imm("m", static_cast<std::int64_t>(pat.m))
                 .imm("n", static_cast<std::int64_t>(pat.n))
                 .imm("p", static_cast<std::int64_t>(pat.p))
                 .role(Role::Filter, worker);
    if (own) return h.port("out");
    return bits_.emplace(pat, h.port("out")).first->second;
  }

  // `src` filtered by `pat` (a FILTER mode=bits fed by a BITS, see bits()), or `src` itself when
  // the pattern passes everything.
  PortRef filtered(const std::string& name, const FilterPattern& pat, const PortRef& src, int worker) {
    if (pat.passes_all()) return src;
    auto f = b_.add(OpKind::Filter, name).imm("mode", "bits").role(Role::Filter, worker);
    b_.connect(src, f.port("in"));
    b_.connect(bits(pat, worker, name), f.port("bits"));
    return f.port("out");
  }

  // Connects `from` to `to` through a channel holding `backlog` words: directly, through a COPY
  // delay stage `delay_name`, or with a capacity (see StencilPlan::buffer_for).
  void connect_buffered(const PortRef& from, const PortRef& to, std::uint64_t backlog, const std::string& delay_name,
                        int worker) {
    const ChannelBuffer buf = plan().buffer_for(backlog, native_);
    if (buf.copies > 0) {
      auto copy = b_.add(OpKind::Copy, delay_name).role(Role::Compute, worker);
      b_.connect(from, copy.port("in"));
      b_.connect(copy.port("out"), to);
      return;
    }
    const dfg::Edge e = b_.connect(from, to);
    out_.dfg.channel(e).capacity = buf.capacity;
  }

  // A delay line of `tokens` initial tokens (0.0) from `from` to `to`: one channel when they fit
  // one (StencilPlan::line_words), else COPY stages `<delay_name>_c<i>` splitting them into
  // channels that do.
  void connect_delay_line(const PortRef& from, const PortRef& to, std::uint64_t tokens, const std::string& delay_name,
                          int worker) {
    const std::uint64_t per = std::max<std::uint64_t>(1, plan().line_words() ? plan().line_words() : queue_);
    if (plan().deep_lines() && tokens > per) {  // one deep channel: a scratchpad FIFO holds the rest
      const dfg::Edge e = b_.connect(from, to);
      out_.dfg.channel(e).initial.assign(tokens, dfg::Literal{0.0});
      out_.dfg.channel(e).capacity = tokens + kRateSlack;
      return;
    }
    const std::uint64_t channels = std::max<std::uint64_t>(1, (tokens + per - 1) / per);
    PortRef src = from;
    std::uint64_t left = tokens;
    for (std::uint64_t i = 0; i < channels; ++i) {
      const std::uint64_t here = left / (channels - i);
      left -= here;
      dfg::Edge e;
      if (i + 1 < channels) {
        auto copy = b_.add(OpKind::Copy, delay_name + "_c" + num(i)).role(Role::Compute, worker);
        e = b_.connect(src, copy.port("in"));
        src = copy.port("out");
      } else {
        e = b_.connect(src, to);
      }
      out_.dfg.channel(e).initial.assign(here, dfg::Literal{0.0});
    }
  }

  // 2D: forward point m of reader k's chain (StencilPlan::x_forward_point): the reader itself, or
  // the last of the plan's COPY stages fed by point m-1.
  PortRef forward_point(unsigned k, unsigned m) {
    if (m == 0 || plan().forward_copies() == 0) return readers_[k];
    auto key = std::make_pair(k, m);
    auto it = forward_.find(key);
    if (it != forward_.end()) return it->second;
    if (plan().forward_reread(m)) return forward_.emplace(key, add_reader(k, ".p" + num(m))).first->second;
    PortRef src = forward_point(k, m - 1);
    for (unsigned c = 0; c < plan().forward_copies(); ++c) {
      auto copy = b_.add(OpKind::Copy, pre_ + "r" + num(k) + ".fwd" + num(m) + "_c" + num(c)).role(Role::Reader, static_cast<int>(k));
      b_.connect(src, copy.port("in"));
      src = copy.port("out");
    }
    return forward_.emplace(key, src).first->second;
  }

  // The shared filter of column offset s with pattern `pat` (workers whose taps need the same
  // values take them from one filter), on its reader's forward chain.
  PortRef x_filter(unsigned s, const FilterPattern& pat) {
    auto key = std::make_pair(s, pat);
    auto it = x_filters_.find(key);
    if (it != x_filters_.end()) return it->second;
    const unsigned k = s % plan().workers();
    const PortRef src = plan().two_d() ? forward_point(k, plan().x_forward_point(s)) : readers_[k];
    return x_filters_.emplace(key, filtered(pre_ + "xf.s" + num(s) + "_n" + num(pat.n), pat, src, static_cast<int>(k)))
        .first->second;
  }

  // 2D and 3D: worker j's x, y and z chains (stencil_dfg_compute.cpp).
  PortRef add_compute_worker(unsigned j);

  // 3D: z reader r of worker j: the worker's output columns of the interior rows of the planes
  // its run of z taps needs, from the first tap's offset to the last's.
  PortRef add_z_reader(unsigned j, unsigned r);

  PortRef add_writer(unsigned j, const PortRef& data) {
    const std::string p = "wr" + num(j);
    auto addr = b_.add(OpKind::AddrGen, p + ".addr").role(Role::Control, static_cast<int>(j));
    set_addresses(addr, layout_.output_base + 8 * layout_.margin + at(plan().rz(), plan().ry(), plan().rx() + j),
                  plan().worker_count(j), plan().out_rows());
    auto store = b_.add(OpKind::Store, p + ".store").role(Role::Writer, static_cast<int>(j));
    b_.connect(addr.port("addr"), store.port("addr"));
    b_.connect(data, store.port("data"));
    return store.port("done");
  }

  // One SYNC per writer, then a tree of JOINs with at most `fan_in_` inputs each (a JOIN's inputs
  // are input queues of one PE); the root's `done` is left unconnected: the run's done.
  void add_sync(const std::vector<PortRef>& stores, const std::vector<std::int64_t>& expected) {
    std::vector<PortRef> level;
    for (unsigned j = 0; j < stores.size(); ++j) {
      auto s = b_.add(OpKind::Sync, "sync.s" + num(j)).imm("expected", expected[j]).role(Role::Sync, static_cast<int>(j));
      b_.connect(stores[j], s.port("in"));
      level.push_back(s.port("done"));
    }
    unsigned joins = 0;
    do {
      std::vector<PortRef> next;
      for (std::size_t i = 0; i < level.size(); i += fan_in_) {
        const std::size_t n = std::min<std::size_t>(fan_in_, level.size() - i);
        auto jn = b_.add(OpKind::Join, "sync.join" + num(joins++)).imm("n", static_cast<std::int64_t>(n)).role(Role::Sync, -1);
        for (std::size_t k = 0; k < n; ++k) b_.connect(level[i + k], jn.port("in" + num(k)));
        next.push_back(jn.port("done"));
      }
      level = std::move(next);
    } while (level.size() > 1);
    out_.done_op = level.front().op;
  }

  const StencilPlan& top_;
  const StencilPlan* cur_;  // the plan of the stage being built (top_ but in run_stages)
  const StreamCompute* compute_;  // 1D streams: a kernel's compute in place of the MAC chains
  std::string pre_;         // name prefix of the stage's ops (run_stages)
  unsigned x_row0_ = 0;     // slot row of the stage's x tap 0
  unsigned y_row0_ = 0;     // slot row of its y tap 0 (2D)
  HostLayout layout_;
  StencilDfg out_;
  Builder b_;
  std::uint64_t native_;
  std::uint64_t queue_;  // initial tokens an input queue holds
  unsigned fan_in_;
  // Cycles from a word of a stage's column stream to the result it completes (add_boundary_2d):
  // the y chain's last MAC, the ADD, and about 16 cycles of links and filters, a MAC to spare.
  std::uint64_t merge_latency_;
  // 3D, z taps on the column stream: cycles of the z chain (its 2rz MACs and their links, about 8
  // cycles each) and of the filters around it.
  std::uint64_t z_latency_;
  std::vector<PortRef> readers_;
  std::map<FilterPattern, PortRef> bits_;
  std::map<std::pair<unsigned, FilterPattern>, PortRef> x_filters_;
  std::map<std::pair<unsigned, unsigned>, PortRef> forward_;
};

}  // namespace cgra::detail
