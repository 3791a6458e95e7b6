// The cgrasim command's stencil and architecture: flags over the spec file, the stencil spec,
// the worker count, the architecture (see cli_spec.h).

#include "sim/cli_spec.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <ostream>

#include "io/npy.h"
#include "io/output_file.h"
#include "sim/report.h"
#include "spec/kernel_yaml.h"
#include "spec/spec_yaml.h"

namespace cgra {
namespace {

/// Two values that do not go together: a bad command line (UsageError) when both are flags, bad
/// input (SpecError) when the spec file gave one of them; `what` names both.
[[noreturn]] void conflict(const Options& o, std::initializer_list<const char*> keys,
                           const std::string& what) {
  for (const char* key : keys)
    if (o.from.count(key)) throw SpecError(what);
  throw UsageError(what);
}

}  // namespace

std::optional<Kernel> kernel_of(const Options& o) {
  if (o.spec_file.empty() || !is_kernel_yaml(read_spec_text(o.spec_file, "stencil spec file"))) return std::nullopt;
  const std::pair<bool, const char*> star[] = {{!o.stencil.empty(), "--stencil"},     {o.radius.has_value(), "--radius"},
                                               {o.radius_x.has_value(), "--radius-x"}, {o.radius_y.has_value(), "--radius-y"},
                                               {o.radius_z.has_value(), "--radius-z"}, {!o.grid.empty(), "--grid"}};
  for (const auto& [given, flag] : star)
    if (given)
      throw UsageError(std::string(flag) + " does not apply to the kernel file " + o.spec_file +
                       " (its grid and taps are the file's)");
  Kernel k = load_kernel_file(o.spec_file);
  // --z-readers chooses how a 3D star reads its planes: a kernel file that is a star takes it.
  if (!o.z_readers.empty() && !star_spec_of(k))
    throw UsageError("--z-readers does not apply to the kernel file " + o.spec_file +
                     " (z readers are a 3d star's; kernel '" + k.name + "' is not a star, docs/kernels.md \"Stars\")");
  return k;
}

unsigned kernel_workers_of(const Options& o) {
  if (o.workers.empty() || o.workers == "auto") return 0;
  unsigned w = 0;
  auto [p, ec] = std::from_chars(o.workers.data(), o.workers.data() + o.workers.size(), w);
  if (ec != std::errc() || p != o.workers.data() + o.workers.size() || w == 0)
    throw SpecError("--workers: expected a positive integer or 'auto', got '" + o.workers + "'");
  return w;
}

SimOptions sim_options_of(const Options& o) {
  SimOptions so;
  so.skip_ahead = !o.no_skip;
  so.skip_idle_pes = !o.no_skip;
  so.vcd_path = o.vcd_file;
  return so;
}

Options with_spec_file(Options o) {
  if (o.spec_file.empty()) return o;
  const SpecFile f = load_spec_file(o.spec_file);
  const auto from_file = [&](const char* key) { o.from[key] = f.where.at(key); };
  if (o.stencil.empty() && f.dims) {
    o.stencil = std::to_string(*f.dims) + "d";
    from_file("stencil");
  }
  if (!o.radius && f.radius) {
    o.radius = f.radius;
    from_file("radius");
  }
  if (!o.radius_x && f.radius_x) {
    o.radius_x = f.radius_x;
    from_file("radius_x");
  }
  if (!o.radius_y && f.radius_y) {
    o.radius_y = f.radius_y;
    from_file("radius_y");
  }
  if (!o.radius_z && f.radius_z) {
    o.radius_z = f.radius_z;
    from_file("radius_z");
  }
  if (o.grid.empty() && f.grid) {
    o.grid = *f.grid;
    from_file("grid");
  }
  if (o.workers.empty() && f.workers) {
    o.workers = *f.workers;
    from_file("workers");
  }
  if (o.time_steps.empty() && f.time_steps) {
    o.time_steps = *f.time_steps ? std::to_string(*f.time_steps) : "auto";
    from_file("time_steps");
  }
  if (o.z_readers.empty() && f.z_readers) {
    o.z_readers = *f.z_readers ? std::to_string(*f.z_readers) : "auto";
    from_file("z_readers");
  }
  o.coeff_x = f.coeff_x;
  o.coeff_y = f.coeff_y;
  o.coeff_z = f.coeff_z;
  for (const char* k : {"coefficients.x", "coefficients.y", "coefficients.z"})
    if (f.where.count(k)) o.from[k] = f.where.at(k);
  return o;
}

std::string origin(const Options& o, const std::string& key, const std::string& flag) {
  const auto it = o.from.find(key);
  return it == o.from.end() ? flag : it->second + ": '" + key + "'";
}

StencilSpec spec_of(const Options& o) {
  StencilSpec spec;
  if (o.stencil.empty())
    throw SpecError((o.spec_file.empty() ? std::string() : o.spec_file + ": no stencil kind; ") +
                    "give the stencil kind with --stencil 1d|2d|3d (or 'stencil:' in the spec file)");
  spec.dims = o.stencil == "1d" ? 1 : o.stencil == "2d" ? 2 : 3;
  const unsigned r = o.radius.value_or(0);
  spec.radius[0] = o.radius_x.value_or(r);
  spec.radius[1] = spec.dims >= 2 ? o.radius_y.value_or(r) : 0;
  spec.radius[2] = spec.dims == 3 ? o.radius_z.value_or(r) : 0;
  if (spec.dims == 1 && o.radius_y)
    conflict(o, {"radius_y", "stencil"},
             origin(o, "radius_y", "--radius-y") + " needs a 2d or 3d stencil (" +
                 origin(o, "stencil", "--stencil") + " gives 1d)");
  if (spec.dims != 3 && o.radius_z)
    conflict(o, {"radius_z", "stencil"},
             origin(o, "radius_z", "--radius-z") + " needs a 3d stencil (" +
                 origin(o, "stencil", "--stencil") + " gives " + o.stencil + ")");
  // A radius of 0 leaves a part of a 3d star out; a 2d star has both parts.
  if (spec.dims == 2 && o.radius_y && *o.radius_y == 0)
    conflict(o, {"radius_y", "stencil"},
             origin(o, "radius_y", "--radius-y") + " is 0; a radius of 0 needs a 3d stencil (" +
                 origin(o, "stencil", "--stencil") + " gives 2d)");
  if (!o.radius && !o.radius_x)
    throw SpecError((o.spec_file.empty() ? std::string() : o.spec_file + ": no radius; ") +
                    "give the stencil radius with --radius R (or --radius-x/--radius-y/--radius-z)");
  if (spec.dims >= 2 && !o.radius && !o.radius_y)
    throw SpecError((o.spec_file.empty() ? std::string() : o.spec_file + ": no y radius; ") +
                    "give --radius-y (or --radius) for a " + o.stencil + " stencil");
  if (spec.dims == 3 && !o.radius && !o.radius_z)
    throw SpecError((o.spec_file.empty() ? std::string() : o.spec_file + ": no z radius; ") +
                    "give --radius-z (or --radius) for a 3d stencil");
  try {
    static const char* const kDefaultGrid[] = {"194400", "960x449", "256x128x64"};
    parse_grid(o.grid.empty() ? kDefaultGrid[spec.dims - 1] : o.grid, spec);
  } catch (const SpecError& e) {
    // The flag's syntax was checked when parsing: what is left is a grid with as many sizes as
    // another kind of stencil has (XxY for a 1d or 3d stencil, XxYxZ for a 1d or 2d one).
    conflict(o, {"grid", "stencil"},
             origin(o, "grid", "--grid") + ": " + e.what() + " (" +
                 origin(o, "stencil", "--stencil") + " gives " + o.stencil + ")");
  }
  if (!o.time_steps.empty()) {
    // Checked when parsing (the flag) or reading the file: "auto" or 1..kMaxTimeSteps.
    unsigned t = 0;
    auto [p, ec] = std::from_chars(o.time_steps.data(), o.time_steps.data() + o.time_steps.size(), t);
    if (o.time_steps != "auto" && (ec != std::errc() || p != o.time_steps.data() + o.time_steps.size()))
      throw SpecError(origin(o, "time_steps", "--time-steps") + ": expected a positive integer up to " +
                      std::to_string(StencilSpec::kMaxTimeSteps) + " or 'auto', got '" + o.time_steps + "'");
    spec.time_steps = o.time_steps == "auto" ? 0 : t;
  }
  if (!o.z_readers.empty() && o.z_readers != "auto") {
    // Checked when parsing (the flag) or reading the file: a positive integer.
    unsigned z = 0;
    std::from_chars(o.z_readers.data(), o.z_readers.data() + o.z_readers.size(), z);
    spec.z_readers = z;
  }
  spec.coeff_x = o.coeff_x;
  spec.coeff_y = o.coeff_y;
  spec.coeff_z = o.coeff_z;
  try {
    spec.validate();
  } catch (const SpecError& e) {
    // Coefficient counts depend on the radius (maybe a flag): name the line that gave the list.
    const std::string what = e.what();
    for (const char* k : {"coefficients.x", "coefficients.y", "coefficients.z"})
      if (what.rfind(k, 0) == 0 && o.from.count(k)) throw SpecError(o.from.at(k) + ": " + what);
    if (what.rfind("grid ", 0) == 0 && o.from.count("grid"))
      throw SpecError(o.from.at("grid") + ": " + what);
    if (what.rfind("time steps ", 0) == 0)
      throw SpecError(origin(o, "time_steps", "--time-steps") + ": " + what);
    if (what.rfind("z readers ", 0) == 0) throw SpecError(origin(o, "z_readers", "--z-readers") + ": " + what);
    throw;
  }
  return spec;
}

unsigned workers_of(const Options& o, const StencilSpec& spec, const RooflineMachine& m) {
  if (o.workers.empty() || o.workers == "auto") return choose_workers(spec, m);
  unsigned w = 0;
  auto [p, ec] = std::from_chars(o.workers.data(), o.workers.data() + o.workers.size(), w);
  if (ec != std::errc() || p != o.workers.data() + o.workers.size())
    throw SpecError(origin(o, "workers", "--workers") +
                    ": expected a positive integer or 'auto', got '" + o.workers + "'");
  check_workers_fit(spec, m, w);
  return w;
}

std::string arch_name_of(const Options& o) {
  return o.arch_file.empty() ? "built-in configs/paper.yaml" : o.arch_file;
}

ArchConfig arch_of(const Options& o, std::ostream& out) {
  std::vector<std::string> sets = o.sets;
  if (o.max_cycles) sets.push_back("run.max_cycles=" + std::to_string(*o.max_cycles));
  ArchConfig arch = o.arch_file.empty() ? load_default_arch(sets) : load_arch_file(o.arch_file, sets);
  if (o.dump_arch)
    out << "# effective architecture (" << arch_name_of(o)
        << (o.sets.empty() && !o.max_cycles ? "" : " with --set overrides")
        << ")\n"
        << arch_to_yaml(arch) << "# " << area_text(arch) << " (docs/cost.md)\n";
  return arch;
}

/// The .npy shape of a grid: (N,) in 1D, (Y, X) in 2D, (Z, Y, X) in 3D (x contiguous).
std::vector<std::uint64_t> npy_shape(const StencilSpec& spec) {
  return {spec.grid.rend() - static_cast<std::ptrdiff_t>(spec.dims), spec.grid.rend()};
}

namespace {

std::vector<double> read_grid(const std::string& file, const std::string& flag, const StencilSpec& spec) {
  NpyArray a = read_npy(file);
  const std::vector<std::uint64_t> want = npy_shape(spec);
  if (a.shape != want) {
    auto shape = [](const std::vector<std::uint64_t>& v) {
      std::string t = "(";
      for (std::size_t i = 0; i < v.size(); ++i) t += (i ? ", " : "") + std::to_string(v[i]);
      return t + (v.size() == 1 ? ",)" : ")");
    };
    throw FileError(file + ": shape " + shape(a.shape) + " does not match the grid " + spec.grid_text() +
                    " (expected " + shape(want) + ")" + flag);
  }
  return std::move(a.data);
}

}  // namespace

std::vector<double> input_of(const Options& o, const StencilSpec& spec) {
  if (o.input_file.empty()) return default_input_grid(spec.grid_points());
  return read_grid(o.input_file, "", spec);
}

void refuse_named_inputs(const Options& o) {
  if (!o.named_inputs.empty())
    throw UsageError("--input " + o.named_inputs.front().first + "=" + o.named_inputs.front().second +
                     ": NAME=FILE names an input of a kernel file; this stencil has one input: give --input FILE");
}

std::vector<std::optional<std::string>> kernel_input_files(const Options& o, const Kernel& k) {
  std::vector<std::optional<std::string>> files(k.inputs.size());
  for (const auto& [name, file] : o.named_inputs) {
    const auto it = std::find(k.inputs.begin(), k.inputs.end(), name);
    if (it == k.inputs.end()) {
      std::string list;
      for (const std::string& n : k.inputs) list += (list.empty() ? "" : ", ") + n;
      throw UsageError("--input " + name + "=" + file + ": kernel '" + k.name + "' has no input '" + name +
                       "' (inputs: " + list + ")");
    }
    files[std::size_t(it - k.inputs.begin())] = file;
  }
  if (files[0] && !o.input_file.empty())
    throw UsageError("--input: input '" + k.inputs[0] + "' given twice ('" + o.input_file + "' and " + k.inputs[0] +
                     "=" + *files[0] + ")");
  if (!files[0] && !o.input_file.empty()) files[0] = o.input_file;
  return files;
}

std::vector<std::vector<double>> kernel_grids_of(const Options& o, const Kernel& k, const StencilSpec& spec) {
  const std::vector<std::optional<std::string>> files = kernel_input_files(o, k);
  std::vector<std::vector<double>> grids =
      kernel_inputs(k, !files[0]                  ? default_input_grid(spec.grid_points())
                       : o.input_file.empty() ? read_grid(*files[0], " (--input " + k.inputs[0] + "=)", spec)
                                              : input_of(o, spec));
  for (std::size_t g = 1; g < files.size(); ++g)
    if (files[g]) grids[g] = read_grid(*files[g], " (--input " + k.inputs[g] + "=)", spec);
  return grids;
}

}  // namespace cgra
