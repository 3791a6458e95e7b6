#pragma once
/// \file banked_graph.h
/// Internal to the stencil mapping's DFG builders (graph_parts.h): the builder of 1D, 2D and 3D
/// blocks (paper Fig. 4). Reader k loads columns k, k+w, ... of every row; the x filters on the
/// readers' streams (shared by the workers whose taps need the same values, along forward chains
/// in 2D) feed each worker's x chain; in 2D the worker's column stream feeds its y chain through
/// delay lines, in 3D the z readers its z chain; the writers store the worker's outputs. The
/// temporal builder (temporal_graph.cpp) chains T stages of these workers.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mapper/graph_parts.h"

namespace cgra::detail {

class BankedGraph : protected GraphParts {
 public:
  BankedGraph(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe);

  /// One stage: the readers, worker j's compute and writer for every j, the sync tree.
  StencilDfg run();

 protected:
  // Address generator for `count` columns `w` apart in every row of every (3D: streamed plane of
  // every) block.
  void set_addresses(dfg::OpHandle& h, std::uint64_t base, std::uint64_t count, std::uint64_t rows,
                     std::uint64_t planes = 0);

  // Reader k (`part` empty), or a re-reader of its forward chain (`part` ".p<m>"): the same
  // addresses, loaded again when the filters at that point take them (the caches hold the lines).
  PortRef add_reader(unsigned k, const std::string& part = "");

  // 2D: forward point m of reader k's chain (StencilPlan::x_forward_point): the reader itself, or
  // the last of the plan's COPY stages fed by point m-1.
  PortRef forward_point(unsigned k, unsigned m);

  // The shared filter of column offset s with pattern `pat` (workers whose taps need the same
  // values take them from one filter), on its reader's forward chain.
  PortRef x_filter(unsigned s, const FilterPattern& pat);

  // Worker j's x chain, and in 2D and 3D its y and z chains (stencil_dfg_compute.cpp).
  PortRef add_compute_worker(unsigned j);

  // 3D: z reader r of worker j: the worker's output columns of the interior rows of the planes
  // its run of z taps needs, from the first tap's offset to the last's.
  PortRef add_z_reader(unsigned j, unsigned r);

  PortRef add_writer(unsigned j, const PortRef& data);

  std::string pre_;      // name prefix of a temporal stage's ops (stage_prefix)
  unsigned x_row0_ = 0;  // slot row of the stage's x tap 0
  // Cycles from a word of a stage's column stream to the result it completes (temporal stages'
  // boundaries): the y chain's last MAC, the ADD, and about 16 cycles of links and filters, a MAC
  // to spare.
  std::uint64_t merge_latency_;
  // 3D, z taps on the column stream: cycles of the z chain (its 2rz MACs and their links, about 8
  // cycles each) and of the filters around it.
  std::uint64_t z_latency_;
  std::vector<PortRef> readers_;
  std::map<std::pair<unsigned, FilterPattern>, PortRef> x_filters_;
  std::map<std::pair<unsigned, unsigned>, PortRef> forward_;
};

}  // namespace cgra::detail
