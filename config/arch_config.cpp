// Loading, checking and printing the architecture configuration (see arch_config.h).

#include "config/arch_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/edit_distance.h"
#include "config/param_spec.h"

namespace cgra {
namespace {

using config::param_specs;
using config::ParamSpec;

const ParamSpec* find_spec(std::string_view key) {
  for (const auto& s : param_specs())
    if (s.info.key == key) return &s;
  return nullptr;
}

/// True when `path` is a section, i.e. a proper prefix of some key ("fabric", "memory.l1").
bool is_section(const std::string& path) {
  for (const auto& s : param_specs())
    if (s.info.key.size() > path.size() && s.info.key.compare(0, path.size(), path) == 0 &&
        s.info.key[path.size()] == '.')
      return true;
  return false;
}

std::string unknown_key_message(const std::string& path) {
  std::string msg = "unknown key '" + path + "'";
  if (auto s = suggest_key(path)) msg += " (did you mean '" + *s + "'?)";
  return msg;
}

/// Where a document comes from, for resolving its includes: a file on disk (its folder), or a
/// file compiled into the binary (its path under configs/).
struct DocumentPlace {
  std::string source;       ///< the name used in messages
  bool embedded = false;    ///< a compiled-in file of configs/
  std::string folder;       ///< the folder its includes are relative to (a disk path or a configs/ path)
};

/// Reads an included document: beside the including one, else compiled in.
std::pair<std::string, DocumentPlace> read_include(const DocumentPlace& from, const std::string& path,
                                                   const std::string& at) {
  namespace fs = std::filesystem;
  const auto embedded = [&](const std::string& rel) -> std::optional<std::pair<std::string, DocumentPlace>> {
    const std::string key = fs::path(rel).lexically_normal().generic_string();
    if (auto text = embedded_config_file(key))
      return std::pair{std::string(*text),
                       DocumentPlace{"<built-in configs/" + key + ">", true, fs::path(key).parent_path().generic_string()}};
    return std::nullopt;
  };
  if (from.embedded) {
    if (auto doc = embedded((fs::path(from.folder) / path).generic_string())) return *doc;
    throw ConfigError(at, "'include': no built-in file configs/" + path);
  }
  const fs::path disk = fs::path(path).is_absolute() ? fs::path(path) : fs::path(from.folder) / path;
  std::error_code ec;
  if (fs::is_regular_file(disk, ec)) {
    std::ifstream in(disk, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in || in.bad()) throw ConfigError(at, "'include': cannot read " + disk.string());
    return {text.str(), DocumentPlace{disk.string(), false, disk.parent_path().string()}};
  }
  if (!fs::path(path).is_absolute())
    if (auto doc = embedded(path)) return *doc;
  throw ConfigError(at, "'include': cannot open " + disk.string() + " (nor is it a built-in file of configs/)");
}

/// Applies a YAML document to `cfg`, remembering where each key was set (for later messages).
class DocumentLoader {
 public:
  DocumentLoader(ArchConfig& cfg, std::string source, std::map<std::string, std::string>& origin)
      : cfg_(cfg), place_(place_of(source)), origin_(origin) {}
  DocumentLoader(ArchConfig& cfg, DocumentPlace place, std::map<std::string, std::string>& origin,
                 std::vector<std::string> chain)
      : cfg_(cfg), place_(std::move(place)), origin_(origin), chain_(std::move(chain)) {}

  void load(std::string_view text) {
    YAML::Node root;
    try {
      root = YAML::Load(std::string(text));
    } catch (const YAML::ParserException& e) {
      throw ConfigError(where(e.mark), "malformed YAML: " + e.msg);
    }
    if (root.IsNull()) return;  // an empty document keeps every default
    if (!root.IsMap())
      throw ConfigError(where(root.Mark()), "expected a map of sections (clock, fabric, network, memory, run, technology)");
    if (const YAML::Node inc = root["include"]) load_includes(inc);
    apply_map(root, "");
  }

 private:
  /// A source name that is a path on disk resolves its includes beside it; "<...>" names (the
  /// built-in paper.yaml) among the compiled-in files of configs/.
  static DocumentPlace place_of(const std::string& source) {
    if (source.starts_with("<built-in configs/")) return {source, true, ""};
    if (source.starts_with("<")) return {source, false, "."};
    const std::string folder = std::filesystem::path(source).parent_path().string();
    return {source, false, folder.empty() ? "." : folder};
  }

  void load_includes(const YAML::Node& inc) {
    const std::string at = where(inc.Mark());
    std::vector<std::string> paths;
    if (inc.IsScalar()) {
      paths.push_back(inc.Scalar());
    } else if (inc.IsSequence()) {
      for (const auto& item : inc) {
        if (!item.IsScalar()) throw ConfigError(at, "'include': expected a file name or a list of file names");
        paths.push_back(item.Scalar());
      }
    } else {
      throw ConfigError(at, "'include': expected a file name or a list of file names");
    }
    for (const std::string& path : paths) {
      if (path.empty()) throw ConfigError(at, "'include': empty file name");
      auto [text, place] = read_include(place_, path, at);
      std::vector<std::string> chain = chain_;
      chain.push_back(place_.source);
      if (std::find(chain.begin(), chain.end(), place.source) != chain.end() || chain.size() > 16)
        throw ConfigError(at, "'include': " + path + " includes itself (through " + chain.back() + ")");
      DocumentLoader(cfg_, place, origin_, std::move(chain)).load(text);
    }
  }

  std::string where(const YAML::Mark& m) const {
    const std::string& source_ = place_.source;
    return m.is_null() ? source_ : source_ + ":" + std::to_string(m.line + 1);
  }

  void apply_map(const YAML::Node& map, const std::string& prefix) {
    std::set<std::string> seen;
    for (const auto& kv : map) {
      const std::string at = where(kv.first.Mark());
      if (!kv.first.IsScalar()) throw ConfigError(at, "keys must be plain names");
      const std::string name = kv.first.Scalar();
      const std::string path = prefix.empty() ? name : prefix + "." + name;
      if (!seen.insert(name).second) throw ConfigError(at, "duplicate key '" + path + "'");
      if (path == "include") continue;  // loaded first (load_includes)
      if (const ParamSpec* spec = find_spec(path)) {
        if (kv.second.IsNull()) throw ConfigError(at, "'" + path + "': no value given");
        spec->parse(cfg_, kv.second, at);
        origin_[path] = at;
      } else if (is_section(path)) {
        if (kv.second.IsNull()) continue;  // an empty section keeps its defaults
        if (!kv.second.IsMap()) throw ConfigError(at, "'" + path + "' is a section: expected a map of keys");
        apply_map(kv.second, path);
      } else {
        throw ConfigError(at, unknown_key_message(path));
      }
    }
  }

  ArchConfig& cfg_;
  DocumentPlace place_;
  std::map<std::string, std::string>& origin_;
  std::vector<std::string> chain_;  ///< the documents that include this one, outermost first
};

/// Where each key was set (the document's file:line or the --set argument), and for keys set by
/// --set the position of their last override, so that a rule between keys can name the override.
struct Origins {
  std::map<std::string, std::string> where;
  std::map<std::string, std::size_t> override_rank;  ///< 1 = the first --set
};

void apply_override(ArchConfig& cfg, const std::string& arg, std::size_t rank, Origins& origin) {
  const std::string at = "--set " + arg;
  const auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0) throw ConfigError(at, "expected key=value");
  const std::string key = arg.substr(0, eq);
  const ParamSpec* spec = find_spec(key);
  if (!spec) {
    if (is_section(key)) throw ConfigError(at, "'" + key + "' is a section, not a parameter");
    throw ConfigError(at, unknown_key_message(key));
  }
  YAML::Node value;
  try {
    value = YAML::Load(arg.substr(eq + 1));
  } catch (const YAML::ParserException& e) {
    throw ConfigError(at, "'" + key + "': malformed value: " + e.msg);
  }
  if (value.IsNull()) throw ConfigError(at, "'" + key + "': no value given");
  spec->parse(cfg, value, at);
  origin.where[key] = at;
  origin.override_rank[key] = rank;
}

bool is_pow2(std::uint64_t v) { return v && !(v & (v - 1)); }

/// Rules that involve more than one parameter. Messages name the key and where it was set.
void check(const ArchConfig& c, const Origins& origin) {
  auto fail = [&](const std::string& key, const std::string& what) {
    auto it = origin.where.find(key);
    throw ConfigError(it == origin.where.end() ? "<default>" : it->second, "'" + key + "': " + what);
  };
  // A rule between several keys names the one the user changed last: the last --set among them
  // (`--set fabric.cols=40` breaks the layout configs/paper.yaml gives), else the first the
  // document sets, else the first key (all at their defaults).
  auto culprit = [&](std::initializer_list<const char*> keys) -> std::string {
    const auto score = [&](const std::string& k) -> std::size_t {
      if (auto it = origin.override_rank.find(k); it != origin.override_rank.end()) return it->second + 1;
      return origin.where.count(k) ? 1 : 0;
    };
    std::string key = *keys.begin();
    for (const char* k : keys)
      if (score(k) > score(key)) key = k;
    return key;
  };
  const std::string shape_key = culprit({"fabric.layout", "fabric.rows", "fabric.cols"});
  const std::string tiled = shape_key == "fabric.layout" ? "" : " (fabric.layout is tiled over it)";
  const auto& layout = c.fabric.layout;
  if (layout.empty()) fail("fabric.layout", "the layout needs at least one row");
  for (std::size_t r = 0; r < layout.size(); ++r) {
    if (layout[r].empty()) fail("fabric.layout", "layout row " + std::to_string(r) + " is empty");
    if (layout[r].size() != layout[0].size())
      fail("fabric.layout", "layout rows differ in length (row 0 has " + std::to_string(layout[0].size()) +
                                " letters, row " + std::to_string(r) + " has " + std::to_string(layout[r].size()) + ")");
    for (char ch : layout[r])
      if (ch != 'F' && ch != 'I' && ch != 'M')
        fail("fabric.layout", std::string("unknown PE kind '") + ch + "' in row " + std::to_string(r) +
                                  " (expected F, I or M)");
  }
  const unsigned rows = c.fabric.rows, cols = c.fabric.cols;
  unsigned fp = 0, mem = 0;
  for (unsigned r = 0; r < rows; ++r) {
    for (unsigned col = 0; col < cols; ++col) {
      PeKind k = c.fabric.kind_at(r, col);
      fp += k == PeKind::Fp;
      if (k == PeKind::Memory) {
        ++mem;
        if (r != 0 && r + 1 != rows && col != 0 && col + 1 != cols)
          fail(shape_key, "memory-port PE at (" + std::to_string(r) + "," + std::to_string(col) +
                              ") is not on the edge of the " + std::to_string(rows) + "x" +
                              std::to_string(cols) + " fabric" + tiled);
      }
    }
  }
  if (fp == 0) fail(shape_key, "the fabric has no MAC-capable (F) PE" + tiled);
  if (mem == 0) fail(shape_key, "the fabric has no memory-port (M) PE" + tiled);
  // memory.l1.ports_per_cache above the fabric's memory ports means one L1 for all of them.
  for (const char* lvl : {"l1", "l2"}) {
    const CacheParams& cp = std::string(lvl) == "l1" ? c.memory.l1 : c.memory.l2;
    const std::string k = std::string("memory.") + lvl;
    if (!is_pow2(cp.sets)) fail(k + ".sets", std::to_string(cp.sets) + " is not a power of two");
    if (!is_pow2(cp.line_bytes)) fail(k + ".line_bytes", std::to_string(cp.line_bytes) + " is not a power of two");
  }
  if (c.memory.l2.line_bytes != c.memory.l1.line_bytes) {
    const bool l1 = culprit({"memory.l2.line_bytes", "memory.l1.line_bytes"}) == "memory.l1.line_bytes";
    const CacheParams& self = l1 ? c.memory.l1 : c.memory.l2;
    const CacheParams& other = l1 ? c.memory.l2 : c.memory.l1;
    fail(l1 ? "memory.l1.line_bytes" : "memory.l2.line_bytes",
         std::string(l1 ? "L1" : "L2") + " lines (" + std::to_string(self.line_bytes) + " B) must have the " +
             (l1 ? "L2" : "L1") + " line size (" + std::to_string(other.line_bytes) +
             " B): the memory model keeps one line size");
  }
  // The DRAM model takes bandwidth and clock at 1 MB/s and 1 kHz (mem/dram.cpp); below that it
  // refuses them, which would end the run as an internal error instead of naming the key.
  const auto text = [](double v) {
    std::ostringstream t;
    t << v;
    return t.str();
  };
  if (std::llround(c.clock.freq_ghz * 1e6) == 0)
    fail("clock.freq_ghz", "value " + text(c.clock.freq_ghz) + " is below the model's resolution of 1 kHz (0.000001)");
  if (std::llround(c.memory.dram.bandwidth_gbps * 1e3) == 0)
    fail("memory.dram.bandwidth_gbps",
         "value " + text(c.memory.dram.bandwidth_gbps) + " is below the model's resolution of 1 MB/s (0.001)");
  const auto& sp = c.memory.scratchpad;
  if (sp.size_bytes % (8ull * sp.banks) != 0) {
    if (culprit({"memory.scratchpad.size_bytes", "memory.scratchpad.banks"}) == "memory.scratchpad.banks")
      fail("memory.scratchpad.banks", std::to_string(sp.banks) + " banks do not divide memory.scratchpad.size_bytes (" +
                                          std::to_string(sp.size_bytes) + ") into whole 8-byte words per bank");
    fail("memory.scratchpad.size_bytes", std::to_string(sp.size_bytes) + " is not a whole number of 8-byte words per bank (" +
                                             std::to_string(sp.banks) + " banks)");
  }
  if (sp.row_bytes % 8 != 0)
    fail("memory.scratchpad.row_bytes", std::to_string(sp.row_bytes) + " is not a whole number of 8-byte words");
  if (sp.size_bytes % (sp.row_bytes * sp.banks) != 0)
    fail("memory.scratchpad.row_bytes", "rows of " + std::to_string(sp.row_bytes) + " bytes do not divide a bank of " +
                                            std::to_string(sp.size_bytes / sp.banks) + " bytes");
}

}  // namespace

std::string_view param_type_name(ParamType t) {
  switch (t) {
    case ParamType::Unsigned: return "unsigned";
    case ParamType::Count64: return "count";
    case ParamType::Bytes: return "bytes";
    case ParamType::Real: return "real";
    case ParamType::Choice: return "choice";
    case ParamType::StringList: return "list";
  }
  return "?";
}

std::vector<ParamInfo> arch_param_list() {
  std::vector<ParamInfo> out;
  for (const auto& s : param_specs()) out.push_back(s.info);
  return out;
}

std::optional<std::string> suggest_key(std::string_view key) {
  std::optional<std::string> best;
  std::size_t best_d = std::max<std::size_t>(2, key.size() / 4) + 1;
  for (const auto& s : param_specs()) {
    std::size_t d = edit_distance(key, s.info.key);
    if (d < best_d) {
      best_d = d;
      best = s.info.key;
    }
  }
  return best;
}

ArchConfig default_arch_config() {
  ArchConfig cfg;
  for (const auto& s : param_specs()) s.set_default(cfg);
  return cfg;
}

ArchConfig load_arch_config(std::string_view yaml_text, const std::string& source,
                            const std::vector<std::string>& overrides) {
  ArchConfig cfg = default_arch_config();
  Origins origin;
  DocumentLoader(cfg, source, origin.where).load(yaml_text);
  for (std::size_t i = 0; i < overrides.size(); ++i) apply_override(cfg, overrides[i], i + 1, origin);
  check(cfg, origin);
  return cfg;
}

ArchConfig load_arch_file(const std::string& path, const std::vector<std::string>& overrides) {
  // A directory opens as a stream that reads nothing: it would pass for an empty file (defaults).
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ConfigError(path, "is a directory, not an architecture file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path, "cannot open architecture file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ConfigError(path, "cannot read architecture file");
  return load_arch_config(text.str(), path, overrides);
}

ArchConfig load_default_arch(const std::vector<std::string>& overrides) {
  // The built-in file is parsed once per process (it cannot fail; YAML parsing is most of a
  // load's time, and a sweep's validation and worker load it once a point).
  struct Parsed {
    ArchConfig cfg = default_arch_config();
    Origins origin;
    Parsed() { DocumentLoader(cfg, DocumentPlace{"<built-in configs/paper.yaml>", true, ""}, origin.where, {}).load(embedded_paper_yaml()); }
  };
  static const Parsed parsed;
  ArchConfig cfg = parsed.cfg;
  Origins origin = parsed.origin;
  for (std::size_t i = 0; i < overrides.size(); ++i) apply_override(cfg, overrides[i], i + 1, origin);
  check(cfg, origin);
  return cfg;
}

std::string arch_to_yaml(const ArchConfig& cfg) {
  // Keys are emitted in declaration order, nesting sections as the dotted paths say.
  YAML::Emitter e;
  e << YAML::BeginMap;
  std::vector<std::string> open;  // currently open sections
  for (const auto& s : param_specs()) {
    std::vector<std::string> parts;
    std::stringstream ss(s.info.key);
    for (std::string part; std::getline(ss, part, '.');) parts.push_back(part);
    std::size_t common = 0;
    while (common < open.size() && common + 1 < parts.size() && open[common] == parts[common]) ++common;
    while (open.size() > common) {
      e << YAML::EndMap;
      open.pop_back();
    }
    for (std::size_t i = common; i + 1 < parts.size(); ++i) {
      e << YAML::Key << parts[i] << YAML::Value << YAML::BeginMap;
      open.push_back(parts[i]);
    }
    e << YAML::Key << parts.back() << YAML::Value;
    s.emit(cfg, e);
  }
  while (!open.empty()) {
    e << YAML::EndMap;
    open.pop_back();
  }
  e << YAML::EndMap;
  return std::string(e.c_str()) + "\n";
}

StorageBytes storage_of(const ArchConfig& arch) {
  const FabricParams& f = arch.fabric;
  const PeParams& pe = f.pe;
  const std::uint64_t word = 8;
  const std::uint64_t pes = std::uint64_t{f.rows} * f.cols, mem = f.count(PeKind::Memory);
  StorageBytes s;
  s.pe_input_queues = (pes - mem) * pe.input_queues * pe.input_queue_depth * word;
  s.reply_buffers = mem * pe.input_queues * pe.input_depth_of(true) * word;
  s.pe_output_queues = pes * pe.output_queues * pe.output_queue_depth * word;
  // Directed mesh links: 2 per neighbouring pair, horizontally and vertically.
  const std::uint64_t links = 2 * (std::uint64_t{f.rows} * (f.cols - 1) + std::uint64_t{f.cols} * (f.rows - 1));
  const NetworkParams& n = arch.network;
  const std::uint64_t stages = links * n.routes_per_link * n.hop_latency +
                               pes * (pe.output_queues * n.injection_latency + pe.input_queues * n.ejection_latency);
  s.route_stages = stages * n.stage_buffer_words * word;
  s.scratchpad = arch.memory.scratchpad.size_bytes;
  const unsigned per = std::max(1u, arch.memory.l1_ports_per_cache);
  const std::uint64_t l1s = (mem + per - 1) / per;
  s.caches = l1s * arch.memory.l1.size_bytes() + arch.memory.l2.size_bytes();
  return s;
}

}  // namespace cgra
