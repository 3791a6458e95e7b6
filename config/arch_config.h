#pragma once
/// \file arch_config.h
/// The architecture configuration: YAML parsed once into typed parameter structs.
///
/// Every parameter is declared once (arch_params.cpp) with its key, type, unit, default, range
/// and meaning. Loading applies, in order: the declared defaults, the YAML document, then
/// `--set key=value` overrides; then checks the cross-parameter rules (layout shape, memory
/// ports on the edge, power-of-two cache geometry). Any problem is a ConfigError naming the
/// source (file and line, or the --set argument) and the key.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "config/mem_params.h"
#include "config/network_params.h"
#include "config/pe_params.h"
#include "config/technology_params.h"

namespace cgra {

/// The fabric clock; all latencies are in cycles of it.
struct ClockParams {
  double freq_ghz = 0;

  friend bool operator==(const ClockParams&, const ClockParams&) = default;
};

/// Run control of the simulator.
struct RunParams {
  std::uint64_t deadlock_cycles = 0;  ///< cycles with nothing issued and nothing in flight that end a run as a deadlock
  std::uint64_t max_cycles = 0;       ///< watchdog: a run still going after this many cycles is stopped
  unsigned threads = 1;               ///< host threads stepping the fabric (results do not depend on it)

  friend bool operator==(const RunParams&, const RunParams&) = default;
};

/// The whole architecture, as typed structs (no string look-ups after loading).
struct ArchConfig {
  ClockParams clock;
  FabricParams fabric;
  NetworkParams network;
  MemoryParams memory;
  RunParams run;
  TechnologyParams technology;

  /// DRAM bandwidth in bytes per fabric cycle (100 GB/s at 1.2 GHz = 83.33 B/cycle).
  double dram_bytes_per_cycle() const { return memory.dram.bandwidth_gbps / clock.freq_ghz; }

  friend bool operator==(const ArchConfig&, const ArchConfig&) = default;
};

/// A configuration error, with the place it comes from ("file.yaml:12" or "--set a.b=c").
class ConfigError : public Error {
 public:
  ConfigError(std::string where, const std::string& what)
      : Error(ErrorKind::BadInput, where.empty() ? what : where + ": " + what), where_(std::move(where)) {}
  const std::string& where() const { return where_; }

 private:
  std::string where_;
};

/// Value type of a parameter, as shown by --list-params.
enum class ParamType { Unsigned, Count64, Bytes, Real, Choice, StringList };

/// Description of one parameter (for --list-params and documentation).
struct ParamInfo {
  std::string key;          ///< dotted path, e.g. "fabric.rows"
  ParamType type;
  std::string unit;         ///< e.g. "cycles", "bytes", "GHz", "PEs"
  std::string default_text; ///< the declared default, as YAML text
  std::string range_text;   ///< allowed values, e.g. "1..4096" or "mesh"
  std::string description;
};

/// Every parameter, in declaration order.
std::vector<ParamInfo> arch_param_list();

/// The on-chip storage an architecture has, in bytes (8 bytes per queue entry), so that a
/// what-if's storage cost is visible beside its cycles.
struct StorageBytes {
  std::uint64_t pe_input_queues = 0;   ///< input queues of the F and I PEs
  std::uint64_t pe_output_queues = 0;  ///< output queues of every PE
  std::uint64_t reply_buffers = 0;     ///< input queues of the memory-port PEs (load replies)
  /// Route pipeline stages that hold words (network.stage_buffer_words): every circuit of every
  /// directed mesh link (routes_per_link x hop_latency stages), and each PE's injection and
  /// ejection stages.
  std::uint64_t route_stages = 0;
  std::uint64_t scratchpad = 0;
  std::uint64_t caches = 0;            ///< every L1 and the L2
  std::uint64_t queues() const { return pe_input_queues + pe_output_queues + reply_buffers + route_stages; }
  std::uint64_t total() const { return queues() + scratchpad + caches; }
};
StorageBytes storage_of(const ArchConfig& arch);

/// Name of a ParamType as printed ("unsigned", "bytes", ...).
std::string_view param_type_name(ParamType t);

/// Configuration with every parameter at its declared default.
ArchConfig default_arch_config();

/// Parses a YAML document on top of the defaults, then applies `overrides` ("key=value" each).
/// `source` names the document in messages (a file name, or "<built-in paper.yaml>"). A document's
/// top-level `include:` (a path or a list of paths) loads those documents first, in order, so
/// that the including document's own keys override theirs; a path is taken relative to the
/// including file's folder, and one not found there is looked up among the files of configs/
/// compiled into the binary (embedded_config_file).
ArchConfig load_arch_config(std::string_view yaml_text, const std::string& source,
                            const std::vector<std::string>& overrides = {});

/// Reads and parses an architecture file (see load_arch_config).
ArchConfig load_arch_file(const std::string& path, const std::vector<std::string>& overrides = {});

/// The built-in default: configs/paper.yaml as compiled into the binary.
std::string_view embedded_paper_yaml();

/// A file of configs/ compiled into the binary, by its path under configs/
/// ("technology/tables_45nm.yaml"); none when there is no such file.
std::optional<std::string_view> embedded_config_file(std::string_view relative_path);

/// Loads the built-in paper architecture with overrides.
ArchConfig load_default_arch(const std::vector<std::string>& overrides = {});

/// The effective configuration as a YAML document that load_arch_config reads back unchanged.
std::string arch_to_yaml(const ArchConfig& cfg);

/// Closest known key to `key` by edit distance, if any is close enough to be a likely typo.
std::optional<std::string> suggest_key(std::string_view key);

}  // namespace cgra
