#pragma once
/// \file network_params.h
/// The fabrics and network parameters the network tests build on (a fabric of F PEs only).

#include "config/network_params.h"

namespace cgra::test {

inline FabricParams f_fabric(unsigned rows, unsigned cols, unsigned input_queues, unsigned output_queues,
                             unsigned depth) {
  FabricParams p;
  p.rows = rows;
  p.cols = cols;
  p.layout = {"F"};
  p.pe.input_queues = input_queues;
  p.pe.output_queues = output_queues;
  p.pe.input_queue_depth = depth;
  p.pe.output_queue_depth = depth;
  return p;
}

inline NetworkParams network_params(unsigned hop, unsigned inj, unsigned ej, unsigned routes_per_link) {
  NetworkParams n;
  n.hop_latency = hop;
  n.injection_latency = inj;
  n.ejection_latency = ej;
  n.routes_per_link = routes_per_link;
  return n;
}

}  // namespace cgra::test
