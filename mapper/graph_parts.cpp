// What every DFG builder of the stencil mapping shares (graph_parts.h).
#include "mapper/graph_parts.h"

#include "mapper/roofline.h"

namespace cgra::detail {

GraphParts::GraphParts(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe)
    : top_(plan), cur_(&plan), layout_(layout), b_(out_.dfg), native_(pe.input_queue_depth + pe.output_queue_depth),
      queue_(pe.input_queue_depth), fan_in_(std::max(2u, pe.input_queues)) {}

void GraphParts::begin(const std::string* compute_name) {
  const StencilSpec& spec = plan().spec();
  std::string n = "stencil" + num(spec.dims) + "d_rx" + num(plan().rx());
  if (plan().two_d()) n += "_ry" + num(plan().ry());
  if (plan().three_d()) n += "_rz" + num(plan().rz());
  if (plan().time_steps() > 1) n += "_t" + num(plan().time_steps());
  out_.dfg.set_name((compute_name ? *compute_name : n) + "_w" + num(plan().workers()));
  out_.slot_rows = (2 * plan().rx() + 1) * plan().time_steps();
  if (plan().two_d()) out_.slot_rows += (2 * plan().ry() + 2 * plan().rz()) * plan().time_steps() + worker_adds(spec);
  if (plan().two_d()) y_row0_ = (2 * plan().rx() + 1) * plan().time_steps();
  out_.snake = plan().streams();
  if (plan().two_d()) out_.banded_rows = (2 * plan().rx() + 1) * plan().time_steps();
}

PortRef GraphParts::window_bits(const std::string& op_name, const WindowBits& wb, int worker, bool invert) {
  auto h = b_.add(OpKind::Bits, op_name)
               .imm("m", static_cast<std::int64_t>(wb.m))
               .imm("n", static_cast<std::int64_t>(wb.n))
               .imm("p", static_cast<std::int64_t>(wb.p))
               .role(Role::Filter, worker);
  if (wb.every > 1) h.imm("every", static_cast<std::int64_t>(wb.every)).imm("phase", static_cast<std::int64_t>(wb.phase));
  if (invert) h.imm("invert", std::int64_t{1});
  return h.port("out");
}

PortRef GraphParts::add_window(unsigned j, const std::string& p, const WindowBits& keep, const WindowBits& sel,
                               const PortRef& kept_from, const PortRef& computed, std::uint64_t backlog,
                               bool marks_computed) {
  const int wj = static_cast<int>(j);
  auto kf = b_.add(OpKind::Filter, p + ".keep").imm("mode", "bits").role(Role::Filter, wj);
  b_.connect(kept_from, kf.port("in"));
  b_.connect(window_bits(p + ".keep.bits", keep, wj, marks_computed), kf.port("bits"));
  auto drop = b_.add(OpKind::Filter, p + ".drop").imm("mode", "bits").role(Role::Filter, wj);
  b_.connect(computed, drop.port("in"));
  b_.connect(window_bits(p + ".drop.bits", sel, wj, !marks_computed), drop.port("bits"));
  auto mux = b_.add(OpKind::Mux, p + ".mux").imm("mode", "bits").role(Role::Filter, wj);
  b_.connect(window_bits(p + ".sel", sel, wj, marks_computed), mux.port("sel"));
  b_.connect(drop.port("out"), mux.port("a"));
  connect_buffered(kf.port("out"), mux.port("b"), backlog, p + ".kd", wj);
  return mux.port("out");
}

PortRef GraphParts::bits(const FilterPattern& pat, int worker, const std::string& filter) {
  const bool own = plan().two_d();
  if (!own) {
    auto it = bits_.find(pat);
    if (it != bits_.end()) return it->second;
  }
  const PortRef out = window_bits(own ? filter + ".bits" : "bits.m" + num(pat.m) + "_n" + num(pat.n) + "_p" + num(pat.p),
                                  {pat.m, pat.n, pat.p, 1, 0}, worker);
  return own ? out : bits_.emplace(pat, out).first->second;
}

PortRef GraphParts::filtered(const std::string& name, const FilterPattern& pat, const PortRef& src, int worker) {
  if (pat.passes_all()) return src;
  auto f = b_.add(OpKind::Filter, name).imm("mode", "bits").role(Role::Filter, worker);
  b_.connect(src, f.port("in"));
  b_.connect(bits(pat, worker, name), f.port("bits"));
  return f.port("out");
}

void GraphParts::connect_buffered(const PortRef& from, const PortRef& to, std::uint64_t backlog,
                                  const std::string& delay_name, int worker) {
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

void GraphParts::connect_delay_line(const PortRef& from, const PortRef& to, std::uint64_t tokens,
                                    const std::string& delay_name, int worker) {
  const std::uint64_t per = std::max<std::uint64_t>(1, plan().line_words() ? plan().line_words() : queue_);
  if (plan().deep_lines() && tokens > per) {  // one deep channel: a scratchpad FIFO holds the rest
    const dfg::Edge e = b_.connect(from, to);
    out_.dfg.channel(e).initial.assign(tokens, dfg::Literal{0.0});
    out_.dfg.channel(e).capacity = tokens + kRateSlack;
    return;
  }
  delay_over_copies(from, to, tokens, per, delay_name, worker);
}

void GraphParts::delay_over_copies(const PortRef& from, const PortRef& to, std::uint64_t tokens, std::uint64_t per,
                                   const std::string& delay_name, int worker) {
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

void GraphParts::add_sync(const std::vector<PortRef>& stores, const std::vector<std::int64_t>& expected) {
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

}  // namespace cgra::detail
