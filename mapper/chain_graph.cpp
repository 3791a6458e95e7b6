// The chain builder (graph_parts.h): a kernel's time steps chained on the fabric
// (mapper/kernel_chain.h). Per worker: one reader of its band's words, then per step the row
// groups through delay lines, the step's compute (kernel_step), the boundary put back level by
// level and a window keeping the units the next step reads; the writer of the band; the sync tree.
#include <algorithm>
#include <map>

#include "config/arch_config.h"
#include "mapper/graph_parts.h"
#include "mapper/kernel_chain.h"
#include "mapper/kernel_dfg.h"

namespace cgra::detail {
namespace {

// Words of a "for ever" tail of a window pattern: more than any stream carries.
constexpr std::uint64_t kForever = std::uint64_t{1} << 40;

class ChainGraph : GraphParts {
 public:
  ChainGraph(const KernelChain& c, const StencilPlan& plan, const HostLayout& layout,
             const std::vector<std::uint64_t>& bases, const ArchConfig& arch)
      : GraphParts(plan, layout, arch.fabric.pe), c_(c), bases_(bases), arch_(arch) {}

  StencilDfg run() {
    std::string name = "kernel_" + c_.ks.kernel.name + "_t" + num(c_.steps);
    for (char& ch : name)
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    begin(&name);
    out_.slot_rows = 0;
    out_.snake = true;
    out_.banded_rows = 0;
    std::vector<std::int64_t> expected;
    std::vector<PortRef> done;
    for (unsigned j = 0; j < c_.workers; ++j) {
      PortRef s = add_reader(j, 0, 0, 0);
      unsigned row = 0;
      for (unsigned t = 1; t <= c_.steps; ++t) s = add_step(j, t, s, row);
      out_.slot_rows = std::max(out_.slot_rows, row);
      done.push_back(add_writer(j, s));
      expected.push_back(static_cast<std::int64_t>(c_.write_words(j)));
    }
    add_sync(done, expected);
    return take();
  }

 private:
  // Worker j's reader of input g's words of its stream t `shift` words late (input 0, t = 0 and
  // shift 0: the band's own; shift > 0: step 1's row groups that would wait in a deep line, loaded
  // again; g > 0: a row group of an input that stays, for step t + 1): word v is the input's word
  // start + v - shift, CONST zeros (MUXes) where that is before the grid (only results before the
  // band's units read them) or past its end (only results past the grid).
  PortRef add_reader(unsigned j, unsigned g, unsigned t, std::uint64_t shift) {
    const ChainBand& b = c_.bands[j];
    const int wj = static_cast<int>(j);
    const std::string r = g == 0 && shift == 0 ? name("r", j)
                          : g == 0             ? name("r", j, "_d") + num(shift)
                                               : name("r", j, "_in") + num(g) + "_t" + num(t + 1) + "_d" + num(shift);
    const std::uint64_t start = b.lo[t] * c_.unit, total = c_.stream_words(j, t), grid = c_.units * c_.unit;
    const std::uint64_t front = std::min(total, shift > start ? shift - start : 0);
    const std::uint64_t first = start + front - shift;  // the first word loaded
    const std::uint64_t loads = std::min(total - front, grid - first), tail = total - front - loads;
    auto addr = b_.add(OpKind::AddrGen, r + ".addr").role(Role::Control, wj);
    addr.imm("base", static_cast<std::int64_t>(bases_.at(g) + 8 * first))
        .imm("stride", std::int64_t{8})
        .imm("count", static_cast<std::int64_t>(loads));
    auto load = b_.add(OpKind::Load, r + ".load").role(Role::Reader, wj);
    b_.connect(addr.port("addr"), load.port("addr"));
    PortRef out = load.port("data");
    // `zeros` CONST words put in by a MUX whose select bits are `sel` (1: a zero).
    const auto zeros = [&](const std::string& n, const WindowBits& sel) {
      auto pad = b_.add(OpKind::Const, n).imm("value", 0.0).imm("count", std::int64_t{0}).role(Role::Control, wj);
      auto mux = b_.add(OpKind::Mux, n + "mux").imm("mode", "bits").role(Role::Filter, wj);
      b_.connect(window_bits(n + "mux.sel", sel, wj), mux.port("sel"));
      b_.connect(out, mux.port("a"));
      b_.connect(pad.port("out"), mux.port("b"));
      out = mux.port("out");
    };
    if (tail > 0) zeros(r + ".pad", {loads, tail, kForever, 1, 0});
    if (front > 0) zeros(r + ".front", {0, front, kForever, 1, 0});
    return out;
  }

  PortRef add_writer(unsigned j, const PortRef& data) {
    const ChainBand& b = c_.bands[j];
    auto addr = b_.add(OpKind::AddrGen, name("wr", j, ".addr")).role(Role::Control, static_cast<int>(j));
    addr.imm("base", static_cast<std::int64_t>(layout_.output_base + 8 * b.lo[c_.steps] * c_.unit))
        .imm("stride", std::int64_t{8})
        .imm("count", static_cast<std::int64_t>(c_.write_words(j)));
    auto store = b_.add(OpKind::Store, name("wr", j, ".store")).role(Role::Writer, static_cast<int>(j));
    b_.connect(addr.port("addr"), store.port("addr"));
    b_.connect(data, store.port("data"));
    return store.port("done");
  }

  // Step t of worker j on stream `s` (stream t-1): its results, the boundary put back, windowed to
  // stream t.
  PortRef add_step(unsigned j, unsigned t, const PortRef& s, unsigned& row) {
    const int wj = static_cast<int>(j);
    const std::string p = name("w", j, ".t") + num(t) + ".";
    const Kernel& k = c_.ks.kernel;
    const std::uint64_t nx = k.grid[0], ny = k.grid[1], plane = nx * ny;
    const Box& in = c_.ks.stage().interior;
    const std::int64_t ry_hi = std::int64_t(ny) - in.hi[1];
    // The row groups: the stream through delay lines in series, shortest delay first; (0, 0)
    // too, the boundary's source.
    std::map<std::uint64_t, PortRef> at;  // delay -> the stream delayed so
    for (const std::uint64_t d : c_.delays()) at[d];
    PortRef src = s;
    std::uint64_t prev = 0;
    unsigned line = 0;
    for (auto& [d, port] : at) {
      if (d == prev && line > 0) {
        port = src;
        continue;
      }
      if (t == 1 && c_.reads_beyond > 0 && d - prev > c_.reads_beyond) {
        src = add_reader(j, 0, 0, d);
        port = src;
        prev = d;
        ++line;
        continue;
      }
      auto copy = b_.add(OpKind::Copy, p + "line" + num(line)).role(Role::Compute, wj);
      delay_line(src, copy.port("in"), d - prev, p + "line" + num(line) + ".d", wj);
      src = copy.port("out");
      port = src;
      prev = d;
      ++line;
    }
    // The other inputs' row groups: a reader each, its words aligned to stream t-1's.
    std::vector<PortRef> streams;
    for (const TapRow& r : c_.ks.rows)
      streams.push_back(r.source == 0 ? at.at(c_.delay(r.dy, r.dz)) : add_reader(j, r.source, t - 1, c_.delay(r.dy, r.dz)));
    const KernelStep step = kernel_step(c_.ks, arch_, b_, out_, j, streams, p, row);
    row = step.rows;
    // The stream's own word at each result's point: the (0, 0) row `right` words later.
    auto centre = b_.add(OpKind::Copy, p + "centre").role(Role::Compute, wj);
    delay_line(at.at(c_.delay(0, 0)), centre.port("in"), c_.ks.right, p + "centre.d", wj);
    PortRef res = step.out;
    std::uint64_t backlog = step.ready + 16;
    const unsigned span = c_.ks.span();
    // Columns: the result of word v is at column (v - right) mod nx, computed iff v mod nx >= span;
    // elsewhere the ring stage's value where there is one (its interior the whole rows).
    if (span > 0)
      res = put_back(j, p + "bx", {span, nx - span, 0}, c_.ks.ring ? step.ring : centre.port("out"), res, backlog += 8);
    // 3D, the rows of a plane: row (v - right) div nx - ry_hi (mod ny) computed from row lo_y on;
    // the pattern stops at the plane's end, `right` words early: those are boundary columns.
    if (k.dims == 3) {
      const std::uint64_t m = (std::uint64_t(in.lo[1]) + std::uint64_t(ry_hi)) * nx + c_.ks.right;
      if (m > 0 && m < plane) res = put_back(j, p + "by", {m, plane - m, 0}, centre.port("out"), res, backlog += 8);
    }
    // The band's units outside the interior (the grid's first and last rows or planes).
    const ChainBand& b = c_.bands[j];
    if (b.lo[t] < c_.lo_u || b.hi[t] > c_.hi_u) {
      const std::uint64_t first = std::max(c_.lo_u, b.lo[t - 1]), last = std::min(c_.hi_u, b.hi[t - 1]);
      res = put_back(j, p + "bu", {(first - b.lo[t - 1]) * c_.unit + c_.lag, (last - first) * c_.unit, kForever},
                     centre.port("out"), res, backlog += 8);
    }
    // Stream t: the units [lo[t], hi[t]) and pad[t] words after them.
    const FilterPattern keep{(b.lo[t] - b.lo[t - 1]) * c_.unit + c_.lag, (b.hi[t] - b.lo[t]) * c_.unit + b.pad[t],
                             kForever};
    auto f = b_.add(OpKind::Filter, p + "keep").imm("mode", "bits").role(Role::Filter, wj);
    b_.connect(res, f.port("in"));
    b_.connect(window_bits(p + "keep.bits", {keep.m, keep.n, keep.p, 1, 0}, wj), f.port("bits"));
    return f.port("out");
  }

  // `tokens` initial tokens from `from` to `to`: up to kChainQueueLines input queues' worth over COPY
  // stages (each channel an input queue's worth), else one deep channel (a scratchpad FIFO).
  void delay_line(const PortRef& from, const PortRef& to, std::uint64_t tokens, const std::string& n, int wj) {
    if (tokens > kChainQueueLines * queue_) {
      const dfg::Edge e = b_.connect(from, to);
      out_.dfg.channel(e).initial.assign(tokens, dfg::Literal{0.0});
      out_.dfg.channel(e).capacity = tokens + kRateSlack;
      return;
    }
    delay_over_copies(from, to, tokens, queue_, n, wj);
  }

  // `computed` where `pat` marks (0^m 1^n 0^p over the words), `centre`'s words elsewhere
  // (add_window); the centre's kept words wait up to `backlog` for the computed ones before them.
  PortRef put_back(unsigned j, const std::string& p, const WindowBits& pat, const PortRef& centre,
                   const PortRef& computed, std::uint64_t backlog) {
    return add_window(j, p, pat, pat, centre, computed, backlog, true);
  }

  const KernelChain& c_;
  const std::vector<std::uint64_t>& bases_;
  const ArchConfig& arch_;
};

}  // namespace

StencilDfg build_chain_dfg(const KernelChain& chain, const StencilPlan& plan, const HostLayout& layout,
                           const std::vector<std::uint64_t>& bases, const ArchConfig& arch) {
  return ChainGraph(chain, plan, layout, bases, arch).run();
}

}  // namespace cgra::detail
