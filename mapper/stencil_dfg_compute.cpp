// The 2D and 3D stars' compute workers (paper Fig. 4): the x chain on the shared x filters, the y
// chain on the worker's column stream with its delay lines, the z chain on the z readers.
#include <string>
#include <vector>

#include "dfg/subgraphs.h"
#include "mapper/banked_graph.h"

namespace cgra::detail {

PortRef BankedGraph::add_compute_worker(unsigned j) {
  const StencilSpec& spec = plan().spec();
  const int wj = static_cast<int>(j);
  const std::vector<double> cx = spec.x_coefficients();
  const std::string p = pre_ + name("w", j);
  dfg::MacChain x = dfg::add_mac_chain(b_, p + ".x", cx, Role::Compute, wj);
  for (unsigned a = 0; a < cx.size(); ++a) {
    b_.connect(x_filter(j + a, plan().x_tap(j, a)), x.taps[a]);
    out_.slots.push_back({x.ops[a], x_row0_ + a, plan().x_reader(j, a)});
  }
  if (!plan().two_d()) return x.out;

  // The y chain: every tap takes every word of the worker's column stream (the filter of its
  // centre x tap), so all taps use a word at the same step; tap a pairs it with the partial sum
  // tap a-1 made one row (two across the centre) of the worker's columns earlier, a delay line
  // of initial tokens. The first 2ry rows' results of a block are dropped.
  const unsigned row0 = y_row0_;
  const unsigned ky = plan().y_reader(j);
  const unsigned ny_taps = 2 * plan().ry(), nz_taps = 2 * plan().rz();
  unsigned add_row = row0 + ny_taps + nz_taps;
  PortRef sum = filtered(p + ".xo", plan().x_out(j), x.out, wj);
  const PortRef column = x_filter(j + plan().rx(), plan().y_source(j));
  if (plan().ry() > 0) {
    const std::vector<double> cy = spec.y_coefficients();
    dfg::MacChain y = dfg::add_mac_chain(b_, p + ".y", cy, Role::Compute, wj,
                                         [&](const PortRef& from, const PortRef& to, std::size_t a) {
                                           connect_delay_line(from, to, plan().y_acc_backlog(j, static_cast<unsigned>(a)),
                                                              p + ".y.d" + num(a), wj);
                                         });
    for (unsigned a = 0; a < cy.size(); ++a) {
      b_.connect(column, y.taps[a]);
      out_.slots.push_back({y.ops[a], row0 + a, ky});
    }
    PortRef yo = filtered(p + ".yo", plan().y_out(j), y.out, wj);
    auto add = b_.add(OpKind::Add, p + ".add").role(Role::Compute, wj);
    connect_buffered(sum, add.port("a"), plan().x_out_backlog(j), p + ".xd", wj);
    b_.connect(yo, add.port("b"));
    out_.slots.push_back({add.vertex(), add_row++, ky});
    sum = add.port("out");
  }
  if (plan().rz() > 0) {
    // The z chain (3D): tap a takes the worker's output points of the plane at its offset from
    // the reader of its run (StencilPlan::z_run); the readers re-read the planes the others have
    // loaded, through the caches. A reader of its own keeps a tap in step with the one before;
    // within a run the later tap uses the reader's words that many planes later, and the link
    // into its accumulator holds those planes of partial sums.
    const std::vector<double> cz = spec.z_coefficients();
    dfg::MacChain z = dfg::add_mac_chain(b_, p + ".z", cz, Role::Compute, wj,
                                         [&](const PortRef& from, const PortRef& to, std::size_t a) {
                                           connect_buffered(from, to, plan().z_acc_backlog(j, static_cast<unsigned>(a)),
                                                            p + ".z.d" + num(a), wj);
                                         });
    std::vector<PortRef> streams;
    if (plan().z_in_stream()) {
      // A stage of temporal pipelining: one run of taps on the column stream's interior rows
      // (every plane); the x + y sums of the interior planes wait rz planes for the z chain.
      streams.push_back(filtered(p + ".zs", plan().x_out(j), column, wj));
      sum = filtered(p + ".zp", plan().z_planes(j), sum, wj);
    } else {
      for (unsigned r = 0; r < plan().z_streams(); ++r) streams.push_back(add_z_reader(j, r));
    }
    for (unsigned a = 0; a < cz.size(); ++a) {
      const PortRef src = filtered(p + ".zf" + num(a), plan().z_tap(j, a), streams[plan().z_run(a)], wj);
      b_.connect(src, z.taps[a]);
      out_.slots.push_back({z.ops[a], row0 + ny_taps + a, ky});
    }
    auto add = b_.add(OpKind::Add, p + ".addz").role(Role::Compute, wj);
    if (plan().z_in_stream())
      connect_buffered(sum, add.port("a"), plan().z_sum_backlog(j, z_latency_), p + ".zd", wj);
    else
      b_.connect(sum, add.port("a"));
    b_.connect(z.out, add.port("b"));
    out_.slots.push_back({add.vertex(), add_row++, ky});
    sum = add.port("out");
  }
  return sum;
}

PortRef BankedGraph::add_z_reader(unsigned j, unsigned r) {
  const std::string p = "rz" + num(j) + "_" + num(r);
  const int wj = static_cast<int>(j);
  const std::uint64_t plane =
      static_cast<std::uint64_t>(std::int64_t{plan().rz()} + plan().z_offset(plan().z_run_first(r)));
  auto addr = b_.add(OpKind::AddrGen, p + ".addr").role(Role::Control, wj);
  set_addresses(addr, layout_.input_base + at(plane, plan().ry(), plan().rx() + j), plan().worker_count(j),
                plan().out_rows(), plan().z_run_planes(r));
  auto load = b_.add(OpKind::Load, p + ".load").role(Role::Reader, wj);
  b_.connect(addr.port("addr"), load.port("addr"));
  return load.port("data");
}

}  // namespace cgra::detail
