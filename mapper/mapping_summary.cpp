// The text forms of a mapping: MappingSummary::text and describe (map_stencil.h).
#include <algorithm>
#include <cstdio>
#include <string>

#include "mapper/map_stencil.h"
#include "mapper/text_format.h"

namespace cgra {

using mapper_text::fixed;

std::string MappingSummary::text() const {
  std::string s;
  auto line = [&](const std::string& k, const std::string& v) { s += k + ": " + v + "\n"; };
  line("workers", std::to_string(workers) + " (" + workers_reason + ")");
  if (time_steps > 1 || !time_steps_reason.empty())
    line("time steps", std::to_string(time_steps) + " (" + (time_steps_reason.empty() ? "given" : time_steps_reason) +
                           (time_steps > 1 ? "); stages chained on the fabric, halo " + fixed(100 * halo_overhead, 2) +
                                                 "% more words read than one step's"
                                           : ")"));
  const BlockPlan& b = buffering.blocks;
  if (buffering.interleave > 0)
    line("segments", std::to_string(workers * buffering.interleave) + " of " +
                         std::to_string(buffering.segment_length) + " outputs, " +
                         std::to_string(buffering.interleave) + " interleaved per worker (a chain link has " +
                         std::to_string(buffering.interleave) + " steps to deliver a partial sum)");
  else
  line("blocks", std::to_string(b.blocks) + " of " + std::to_string(b.out_width) + " output columns (" +
                     std::to_string(std::max(buffering.read_width, b.in_width)) + " read" +
                     (buffering.read_width > b.in_width ? ", the halo of the time steps included" : "") + ", " +
                     std::to_string(b.stride) + " apart)");
  if (buffering.z_streams > 0)
    line("z readers", std::to_string(buffering.z_streams) + " per worker (z taps sharing a reader hold the planes "
                          "between their offsets in deep channels); they re-read " +
                          std::to_string(buffering.z_window_bytes) + " bytes of planes (whole lines) through the L2" +
                          (z_readers_reason.empty() ? std::string() : " (" + z_readers_reason + ")"));
  line("deep channels", std::to_string(buffering.deep_channels) + " holding " + std::to_string(buffering.deep_words) +
                            " words = " + std::to_string(buffering.scratchpad_bytes) + " bytes of scratchpad");
  line("delay stages", std::to_string(buffering.delay_copies) + " COPY PEs");
  if (buffering.forward_copies > 0)
    line("forward chains", "COPY stages per gap: " + std::to_string(buffering.forward_copies) +
                               "; re-read points per reader: " + std::to_string(buffering.forward_rereads));
  line("scratchpad rate", fixed(buffering.scratchpad_rate, 3) + " of full rate (2 accesses per word through a deep channel)");
  line("estimated cycles", fixed(buffering.cycles(), 0) + " (readers " + fixed(buffering.reader_cycles, 0) +
                               ", memory " + fixed(buffering.memory_cycles, 0) +
                               (buffering.compute_cycles > 0 ? ", MAC chains " + fixed(buffering.compute_cycles, 0) : "") +
                               ")");
  line("PEs used", std::to_string(placement.pes_used) + " (F " + std::to_string(placement.fp_pes) + ", I " +
                       std::to_string(placement.int_pes) + ", M " + std::to_string(placement.mem_pes) + "; " +
                       std::to_string(placement.shared_pes) + " shared)");
  std::string roles;
  for (const auto& [r, n] : ops_by_role) roles += (roles.empty() ? "" : ", ") + r + " " + std::to_string(n);
  line("ops by role", roles);
  std::string kinds;
  for (const auto& [k, n] : ops_by_kind) kinds += (kinds.empty() ? "" : ", ") + k + " " + std::to_string(n);
  line("ops by kind", kinds);
  line("predicted cycles", std::to_string(predicted_cycles) + " (" + predicted_bound + ")");
  line("load latency bound", fixed(load_rate_bound, 3) + " words per cycle per reader -> " +
                                 fixed(load_latency_cycles, 0) + " cycles if every load misses");
  line("routes", std::to_string(placement.routes) + ", " + std::to_string(placement.total_hops) +
                     " links, at most " + std::to_string(placement.max_link_usage) + " on one link");
  return s;
}

std::string describe(const MappedStencil& m) {
  auto hex = [](std::uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return std::string(buf);
  };
  std::string s = "stencil: " + m.spec.describe() + ", w=" + std::to_string(m.spec.workers) + "\n";
  s += "host: input grid at " + hex(m.layout.input_base) + ", output grid at " + hex(m.layout.output_base) + " (" +
       std::to_string(m.layout.grid_bytes) + " bytes each); copy the input to the output before the run (boundary " +
       "cells keep the input)\n";
  s += "done: '" + m.done_op + "' emits " + std::to_string(m.done_tokens) + " token on its unconnected done output\n";
  return s + m.summary.text();
}

}  // namespace cgra
