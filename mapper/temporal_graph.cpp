// The temporal builder of 2D and 3D stars (graph_parts.h): T stages of banked compute workers
// (banked_graph.h), stage t on stage(t)'s plan (ops named t<t>.*, stage_prefix), stage t's worker
// k, its grid boundary cells put back (add_boundary_2d, add_boundary_3d), feeding stage t+1's
// reader k; stage T's results go to the writers.
#include <optional>

#include "mapper/banked_graph.h"

namespace cgra::detail {
namespace {

class TemporalGraph : BankedGraph {
 public:
  using BankedGraph::BankedGraph;

  StencilDfg run() {
    begin(nullptr);
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
    return take();
  }

 private:
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
};

}  // namespace

StencilDfg build_temporal_dfg(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe) {
  return TemporalGraph(plan, layout, pe).run();
}

StencilDfg build_banked_dfg(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe) {
  return BankedGraph(plan, layout, pe).run();
}

}  // namespace cgra::detail
