// The builder of 1D, 2D and 3D blocks (banked_graph.h); the compute workers' chains are in
// stencil_dfg_compute.cpp.
#include "mapper/banked_graph.h"

#include <algorithm>

namespace cgra::detail {

BankedGraph::BankedGraph(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe)
    : GraphParts(plan, layout, pe),
      merge_latency_(2 * std::uint64_t{std::max(pe.latency.fp_mac, pe.latency.fp_mul)} + pe.latency.fp_add + 16),
      z_latency_(2 * std::uint64_t{plan.rz()} * (std::max(pe.latency.fp_mac, pe.latency.fp_mul) + 8) + 16) {}

StencilDfg BankedGraph::run() {
  begin(nullptr);
  const unsigned w = plan().workers();
  for (unsigned k = 0; k < w; ++k) readers_.push_back(add_reader(k));
  std::vector<std::int64_t> expected;
  std::vector<PortRef> done;
  for (unsigned j = 0; j < w; ++j) {
    const PortRef result = add_compute_worker(j);
    done.push_back(add_writer(j, result));
    expected.push_back(static_cast<std::int64_t>(plan().writer_total(j)));
  }
  add_sync(done, expected);
  return take();
}

void BankedGraph::set_addresses(dfg::OpHandle& h, std::uint64_t base, std::uint64_t count, std::uint64_t rows,
                                std::uint64_t planes) {
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

PortRef BankedGraph::add_reader(unsigned k, const std::string& part) {
  const std::string pre = part.empty() ? std::string() : pre_;
  auto addr = b_.add(OpKind::AddrGen, pre + name("r", k, part + ".addr")).role(Role::Control, static_cast<int>(k));
  // With T time steps (2D, 3D) the first block starts its halo rx(T-1) columns before the grid, in
  // the layout's margin.
  set_addresses(addr, layout_.input_base + 8 * (layout_.margin - top_.halo2d()) + at(plan().first_plane(), 0, k),
                plan().reader_count(k), plan().ny());
  auto load = b_.add(OpKind::Load, pre + name("r", k, part + ".load")).role(Role::Reader, static_cast<int>(k));
  b_.connect(addr.port("addr"), load.port("addr"));
  return load.port("data");
}

PortRef BankedGraph::forward_point(unsigned k, unsigned m) {
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

PortRef BankedGraph::x_filter(unsigned s, const FilterPattern& pat) {
  auto key = std::make_pair(s, pat);
  auto it = x_filters_.find(key);
  if (it != x_filters_.end()) return it->second;
  const unsigned k = s % plan().workers();
  const PortRef src = plan().two_d() ? forward_point(k, plan().x_forward_point(s)) : readers_[k];
  return x_filters_.emplace(key, filtered(pre_ + "xf.s" + num(s) + "_n" + num(pat.n), pat, src, static_cast<int>(k)))
      .first->second;
}

PortRef BankedGraph::add_writer(unsigned j, const PortRef& data) {
  const std::string p = "wr" + num(j);
  auto addr = b_.add(OpKind::AddrGen, p + ".addr").role(Role::Control, static_cast<int>(j));
  set_addresses(addr, layout_.output_base + 8 * layout_.margin + at(plan().rz(), plan().ry(), plan().rx() + j),
                plan().worker_count(j), plan().out_rows());
  auto store = b_.add(OpKind::Store, p + ".store").role(Role::Writer, static_cast<int>(j));
  b_.connect(addr.port("addr"), store.port("addr"));
  b_.connect(data, store.port("data"));
  return store.port("done");
}

}  // namespace cgra::detail
