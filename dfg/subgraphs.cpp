#include "dfg/subgraphs.h"

namespace cgra::dfg {
namespace {

std::string join(std::string_view prefix, std::string_view name) { return std::string(prefix) + "." + std::string(name); }

void set_addresses(OpHandle& h, const AddrPattern& a) {
  h.imm("base", a.base).imm("stride", a.stride).imm("count", a.count).imm("rows", a.rows).imm("row_stride", a.row_stride);
}

}  // namespace

MacChain add_mac_chain(Builder& b, std::string_view prefix, std::span<const double> coefs, Role role, int worker,
                       const AccConnector& connect_acc) {
  if (coefs.empty()) throw DfgError("MAC chain '" + std::string(prefix) + "' needs at least one coefficient");
  MacChain chain;
  std::optional<PortRef> prev;
  for (std::size_t k = 0; k < coefs.size(); ++k) {
    const bool first = k == 0;
    std::string name = join(prefix, (first ? "mul" : "mac") + std::to_string(k));
    OpHandle h = b.add(first ? OpKind::Mul : OpKind::Mac, name).imm("coef", coefs[k]).role(role, worker);
    if (prev && connect_acc) connect_acc(*prev, h.port("acc"), k);
    else if (prev) b.connect(*prev, h.port("acc"));
    chain.taps.push_back(h.port("in"));
    chain.ops.push_back(h.vertex());
    prev = h.port("out");
  }
  chain.out = *prev;
  return chain;
}

ComputeWorker1d add_compute_worker_1d(Builder& b, const ComputeWorker1dSpec& spec) {
  if (!spec.filters.empty() && spec.filters.size() != spec.coefs.size())
    throw DfgError("compute worker '" + spec.prefix + "': " + std::to_string(spec.filters.size()) + " filters for " +
                   std::to_string(spec.coefs.size()) + " taps");
  ComputeWorker1d w;
  w.chain = add_mac_chain(b, spec.prefix, spec.coefs, Role::Compute, spec.worker);
  w.out = w.chain.out;
  for (std::size_t k = 0; k < spec.coefs.size(); ++k) {
    if (spec.filters.empty() || !spec.filters[k]) {
      w.inputs.push_back(w.chain.taps[k]);
      continue;
    }
    const TapFilter& f = *spec.filters[k];
    OpHandle h = b.add(OpKind::Filter, join(spec.prefix, "f" + std::to_string(k)))
                     .imm("mode", "pattern")
                     .imm("m", f.m)
                     .imm("n", f.n)
                     .imm("p", f.p)
                     .role(Role::Filter, spec.worker);
    b.connect(h.port("out"), w.chain.taps[k]);
    w.inputs.push_back(h.port("in"));
  }
  return w;
}

ComputeWorker2d add_compute_worker_2d(Builder& b, const ComputeWorker2dSpec& spec) {
  ComputeWorker2d w;
  w.x = add_compute_worker_1d(b, ComputeWorker1dSpec{join(spec.prefix, "x"), spec.worker, spec.x_coefs, spec.x_filters});
  w.y = add_compute_worker_1d(b, ComputeWorker1dSpec{join(spec.prefix, "y"), spec.worker, spec.y_coefs, spec.y_filters});
  OpHandle add = b.add(OpKind::Add, join(spec.prefix, "add")).role(Role::Compute, spec.worker);
  b.connect(w.x.out, add.port("a"));
  b.connect(w.y.out, add.port("b"));
  w.out = add.port("out");
  return w;
}

PortRef add_reader(Builder& b, std::string_view prefix, int worker, const AddrPattern& addresses) {
  OpHandle addr = b.add(OpKind::AddrGen, join(prefix, "addr")).role(Role::Control, worker);
  set_addresses(addr, addresses);
  OpHandle load = b.add(OpKind::Load, join(prefix, "load")).role(Role::Reader, worker);
  b.connect(addr.port("addr"), load.port("addr"));
  return load.port("data");
}

Writer add_writer(Builder& b, std::string_view prefix, int worker, const AddrPattern& addresses) {
  OpHandle addr = b.add(OpKind::AddrGen, join(prefix, "addr")).role(Role::Control, worker);
  set_addresses(addr, addresses);
  OpHandle store = b.add(OpKind::Store, join(prefix, "store")).role(Role::Writer, worker);
  b.connect(addr.port("addr"), store.port("addr"));
  return Writer{store.port("data"), store.port("done")};
}

SyncStage add_sync_stage(Builder& b, std::string_view prefix, std::span<const std::int64_t> expected) {
  if (expected.empty()) throw DfgError("sync stage '" + std::string(prefix) + "' needs at least one writer");
  SyncStage stage;
  OpHandle join_op = b.add(OpKind::Join, join(prefix, "join"))
                         .imm("n", static_cast<std::int64_t>(expected.size()))
                         .role(Role::Sync, -1);
  for (std::size_t k = 0; k < expected.size(); ++k) {
    OpHandle s = b.add(OpKind::Sync, join(prefix, "s" + std::to_string(k)))
                     .imm("expected", expected[k])
                     .role(Role::Sync, static_cast<int>(k));
    b.connect(s.port("done"), join_op.port("in" + std::to_string(k)));
    stage.inputs.push_back(s.port("in"));
  }
  stage.done = join_op.port("done");
  return stage;
}

}  // namespace cgra::dfg
