#pragma once
/// \file subgraphs.h
/// Sub-graph helpers: build a whole worker (or a piece of one) with one call, in the paper's
/// naming style. Each helper adds ops under `prefix`, sets their role and worker index, wires
/// their internal channels and returns the ports the caller connects to the rest of the graph.
/// The mapper decides the parameters (coefficients, filter patterns, addresses); these helpers
/// only encode the shape of the sub-graph.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dfg/builder.h"

namespace cgra::dfg {

/// A MUL followed by MACs: `prefix.mul0`, `prefix.mac1`, ..., `prefix.mac<k>`. Tap k multiplies
/// coefs[k]; each op's `out` feeds the next op's `acc`.
struct MacChain {
  std::vector<PortRef> taps;  ///< data input of tap k (`mul0.in`, `mac1.in`, ...)
  PortRef out;                ///< result of the last op
  std::vector<Vertex> ops;    ///< the MUL and MACs, in chain order
};

/// How a chain joins op k-1's `out` to op k's `acc` (k >= 1), right after adding op k: e.g. with a
/// capacity or through a delay stage.
using AccConnector = std::function<void(const PortRef& from, const PortRef& to, std::size_t k)>;

/// Adds a MUL/MAC chain for `coefs` (at least one) with the given role and worker index; each
/// accumulator channel is `connect_acc`'s, or a plain connection when it is empty.
MacChain add_mac_chain(Builder& b, std::string_view prefix, std::span<const double> coefs, Role role, int worker,
                       const AccConnector& connect_acc = {});

/// A 0^m 1^n 0^p data filter in front of one tap (FILTER mode pattern).
struct TapFilter {
  std::int64_t m = 0;
  std::int64_t n = 1;
  std::int64_t p = 0;
};

/// What a 1D compute worker needs: one coefficient per tap and, optionally, a filter per tap.
struct ComputeWorker1dSpec {
  std::string prefix;                          ///< e.g. `w2.x`
  int worker = 0;                              ///< worker index
  std::vector<double> coefs;                   ///< tap k: coefs[k] (tap 0 is the MUL)
  std::vector<std::optional<TapFilter>> filters;  ///< empty, or one entry per tap
};

/// The ports of a 1D compute worker.
struct ComputeWorker1d {
  std::vector<PortRef> inputs;  ///< where reader data for tap k enters (`f<k>.in` or the tap)
  PortRef out;                  ///< the worker's result stream
  MacChain chain;
};

/// Adds a 1D compute worker: optional FILTER `prefix.f<k>` (role filter, same worker index) in
/// front of tap k of a MUL/MAC chain (role compute). Throws DfgError if `filters` is neither
/// empty nor one per coefficient.
ComputeWorker1d add_compute_worker_1d(Builder& b, const ComputeWorker1dSpec& spec);

/// What a 2D compute worker needs: the x chain (as in 1D) and the y chain of 2*ry taps.
struct ComputeWorker2dSpec {
  std::string prefix;                               ///< e.g. `w2`; chains go to `w2.x`, `w2.y`
  int worker = 0;
  std::vector<double> x_coefs;                      ///< x taps, including the centre point
  std::vector<std::optional<TapFilter>> x_filters;  ///< empty, or one per x tap
  std::vector<double> y_coefs;                      ///< y taps (centre excluded), 2*ry of them
  std::vector<std::optional<TapFilter>> y_filters;  ///< empty, or one per y tap
};

/// The ports of a 2D compute worker.
struct ComputeWorker2d {
  ComputeWorker1d x;  ///< x chain: inputs fed by different readers
  ComputeWorker1d y;  ///< y chain: inputs all fed by one reader (paper section III-B)
  PortRef out;        ///< `prefix.add.out` = x partial sum + y partial sum
};

/// Adds a 2D compute worker: 1D workers `prefix.x` and `prefix.y` (see add_compute_worker_1d)
/// whose results meet in ADD `prefix.add` (role compute). Throws DfgError as the 1D helper does.
ComputeWorker2d add_compute_worker_2d(Builder& b, const ComputeWorker2dSpec& spec);

/// An address sequence (ADDR_GEN immediates).
struct AddrPattern {
  std::int64_t base = 0;
  std::int64_t stride = 8;
  std::int64_t count = 1;
  std::int64_t rows = 1;
  std::int64_t row_stride = 0;
};

/// Adds a reader: control `prefix.addr` (ADDR_GEN, role control) feeding `prefix.load`
/// (LOAD, role reader). Returns the loaded-data port `prefix.load.data`.
PortRef add_reader(Builder& b, std::string_view prefix, int worker, const AddrPattern& addresses);

/// The ports of a writer.
struct Writer {
  PortRef data;  ///< values to store (`prefix.store.data`)
  PortRef done;  ///< one token per completed store (`prefix.store.done`)
};

/// Adds a writer: control `prefix.addr` (ADDR_GEN, role control) feeding `prefix.store`
/// (STORE, role writer).
Writer add_writer(Builder& b, std::string_view prefix, int worker, const AddrPattern& addresses);

/// The ports of the synchronisation stage.
struct SyncStage {
  std::vector<PortRef> inputs;  ///< `prefix.s<k>.in`: connect writer k's done here
  PortRef done;                 ///< the combined "done" (`prefix.join.done`)
};

/// Adds one SYNC per writer (`prefix.s<k>`, expecting expected[k] stores, role sync, worker k)
/// and a JOIN `prefix.join` combining them (role sync, no worker index).
SyncStage add_sync_stage(Builder& b, std::string_view prefix, std::span<const std::int64_t> expected);

}  // namespace cgra::dfg
