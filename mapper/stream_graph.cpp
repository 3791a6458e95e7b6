// The 1D stream builder (graph_parts.h): readers that load their segments interleaved, a MAC
// chain per time step (or a kernel's compute, StreamCompute) on each reader's stream, the
// filters that drop each segment's partial sums, the boundary cells put back between time steps,
// the writers and the sync tree.
#include "dfg/subgraphs.h"
#include "mapper/graph_parts.h"

namespace cgra::detail {
namespace {

class StreamGraph : GraphParts {
 public:
  StreamGraph(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe, const StreamCompute* compute)
      : GraphParts(plan, layout, pe), compute_(compute) {}

  StencilDfg run() {
    begin(compute_ ? &compute_->name : nullptr);
    const unsigned w = plan().workers();
    if (compute_) out_.slot_rows = 0;  // the compute's own slots
    for (unsigned k = 0; k < w && !compute_; ++k) readers_.push_back(add_stream_reader(k));
    std::vector<std::int64_t> expected;
    std::vector<PortRef> done;
    for (unsigned j = 0; j < w; ++j) {
      const PortRef result = compute_ ? add_computed_stream(j) : add_stream_worker(j);
      done.push_back(add_stream_writer(j, result));
      expected.push_back(static_cast<std::int64_t>(plan().writer_total(j)));
    }
    add_sync(done, expected);
    return take();
  }

 private:
  // Reader j loads its D segments interleaved, word v of each in turn (SegmentPlan): address
  // input + 8 * (s*stride + v) for segment s = j*D + q, q innermost; with T time steps each
  // segment starts its halo r(T-1) words earlier, in the layout's margin at the grid's ends. A
  // StreamCompute's readers: `base` the grid's first point, `part` "_<g>" for its grid g > 0.
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

  // Worker j's T stages, stage t's filtered results streaming into stage t+1 (stage names
  // w<j>.t<t> when T > 1), the boundary cells put back between stages (add_boundary).
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

  // Worker j's compute by compute_ on its readers' streams, then the stage's filter.
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
    const PortRef bits = window_bits(p + ".bits", {pat.m, pat.n, pat.p, 1, 0}, wj);
    auto f = b_.add(OpKind::Filter, p + ".xo").imm("mode", "bits").role(Role::Filter, wj);
    b_.connect(x, f.port("in"));
    b_.connect(bits, f.port("bits"));
    return f.port("out");
  }

  // Between stages: the stage computed the grid's boundary cells of its window too; their input
  // values come from the stage's input stream, r·D steps before their place, r of them at most
  // waiting in the MUX's queue (add_window).
  PortRef add_boundary(unsigned j, const std::string& p, const BoundaryWindow& bw, const PortRef& in,
                       const PortRef& computed) {
    return add_window(j, p, bw.keep, bw.sel, in, computed, 0);
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

  const StreamCompute* compute_;  // a kernel's compute in place of the MAC chains
  std::vector<PortRef> readers_;
};

}  // namespace

StencilDfg build_stream_dfg(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe,
                            const StreamCompute* compute) {
  return StreamGraph(plan, layout, pe, compute).run();
}

}  // namespace cgra::detail
