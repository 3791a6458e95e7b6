// What the fabric reports after a run: the deadlock report and the statistics tree (see fabric.h).

#include "sim/model/fabric.h"

#include <nlohmann/json.hpp>

namespace cgra {
namespace {

std::string pos_text(PePos p) {
  return "(" + std::to_string(p.row) + "," + std::to_string(p.col) + ")";
}

nlohmann::json queue_json(const TwoPhaseQueue& q, unsigned index,
                          const std::vector<std::string>& names) {
  const QueueStats& s = q.stats();
  nlohmann::json j;
  j["queue"] = index;
  if (index < names.size() && !names[index].empty()) j["name"] = names[index];
  j["pushes"] = s.pushes;
  j["max_occupancy"] = s.max_occupancy;
  j["mean_occupancy"] =
      s.cycles ? static_cast<double>(s.occupancy_sum) / static_cast<double>(s.cycles) : 0.0;
  return j;
}

}  // namespace

std::string Fabric::blocked_report() {
  finish();
  std::string s;
  for (std::size_t j = 0; j < pes_.size(); ++j) {  // in placement order
    const TriggeredPe& pe = pes_[step_of_[j]];
    const StallInfo& st = pe.last_stall();
    if (st.reason == StallReason::None || st.reason == StallReason::NoTrigger) continue;
    s += pe.describe_stall();
    const PeConfig& c = program_.pes[j];
    if (st.instruction >= 0) {
      std::size_t k = 0;
      while (k + 1 < c.op_first.size() &&
             c.op_first[k + 1] <= static_cast<unsigned>(st.instruction))
        ++k;
      if (k < c.ops.size()) s += "; op '" + c.ops[k] + "'";
    }
    if (st.queue >= 0) {
      const bool out = st.reason == StallReason::OutputFull;
      const auto& names = out ? c.output_names : c.input_names;
      const auto q = static_cast<std::size_t>(st.queue);
      if (q < names.size() && !names[q].empty())
        s += std::string("; ") + (out ? "o" : "i") + std::to_string(q) + " is " + names[q];
    }
    s += "\n";
  }
  s += network_->blocked_report();
  return s;
}

nlohmann::json Fabric::stats_json(std::uint64_t cycles) {
  using nlohmann::json;
  finish();
  json pes = json::array();
  std::uint64_t total_issued = 0;
  for (std::size_t k = 0; k < pes_.size(); ++k) {  // in placement order
    TriggeredPe& pe = pes_[step_of_[k]];
    pe.settle_statistics();
    const PeConfig& c = program_.pes[k];
    const PeStats& s = pe.stats();
    json j;
    j["pe"] = pos_text(c.pos);
    j["kind"] = std::string(1, static_cast<char>(c.kind));
    j["ops"] = c.ops;
    j["cycles"] = s.cycles;
    j["issued"] = s.issued;
    j["utilization"] = cycles ? static_cast<double>(s.issued) / static_cast<double>(cycles) : 0.0;
    json per_op = json::object();
    for (unsigned o = 0; o < kOpcodeCount; ++o)
      if (s.issued_per_op[o])
        per_op[std::string(opcode_name(static_cast<Opcode>(o)))] = s.issued_per_op[o];
    j["issued_per_op"] = per_op;
    json stalls = json::object();
    for (unsigned r = 1; r < kStallReasonCount; ++r)
      stalls[std::string(stall_reason_name(static_cast<StallReason>(r)))] = s.stalls[r];
    j["stalls"] = stalls;
    if (c.kind == PeKind::Memory) {
      j["loads"] = s.loads;
      j["stores"] = s.stores;
      j["memory_port"] = c.mem_port;
    }
    json in = json::array(), out = json::array();
    for (unsigned q = 0; q < c.input_names.size() && q < pe.input_count(); ++q)
      in.push_back(queue_json(pe.input(q), q, c.input_names));
    for (unsigned q = 0; q < c.output_names.size() && q < pe.output_count(); ++q)
      out.push_back(queue_json(pe.output(q), q, c.output_names));
    j["input_queues"] = in;
    j["output_queues"] = out;
    total_issued += s.issued;
    pes.push_back(std::move(j));
  }
  json routes = json::array();
  for (std::size_t r = 0; r < network_->route_count(); ++r) {
    const RouteStats& rs = network_->stats(r);
    routes.push_back({{"route", network_->route_name(r)},
                      {"words", rs.words},
                      {"stall_cycles", rs.stall_cycles}});
  }
  json links = json::array();
  const auto words = network_->words_per_link();
  std::uint64_t link_words = 0;
  for (LinkId l = 0; l < words.size(); ++l) {
    if (words[l] == 0) continue;
    links.push_back({{"link", geometry_.link_name(l)}, {"words", words[l]}});
    link_words += words[l];
  }
  json f;
  f["placed_pes"] = pes_.size();
  f["instructions_issued"] = total_issued;
  f["mean_pe_utilization"] = cycles && !pes_.empty() ? static_cast<double>(total_issued) /
                                                           static_cast<double>(cycles * pes_.size())
                                                     : 0.0;
  f["pes"] = std::move(pes);
  f["network"] = {
      {"routes", std::move(routes)}, {"links", std::move(links)}, {"link_words", link_words}};
  return f;
}

}  // namespace cgra
