#pragma once
/// \file spec_yaml.h
/// Stencil specification files (docs/stencil.md):
///   stencil: 2d            # 1d | 2d | 3d
///   radius: 12             # or radius_x / radius_y / radius_z
///   grid: 960x449          # N, "XxY", "XxYxZ", [X, Y] or [X, Y, Z]
///   workers: 5             # N | auto
///   time_steps: 1          # T successive applications (1..64) | auto
///   z_readers: auto        # 3d, one time step: z readers per worker (1..2rz) | auto
///   coefficients: {x: [2rx+1 values for -rx..rx], y: [2ry values for -ry..-1, 1..ry],
///                  z: [2rz values for -rz..-1, 1..rz]}
/// Any subset may be given; command-line flags override what the file says. radius_y and
/// radius_z may be 0 (that part of the star absent) only in a 3d stencil: checked once the flags
/// are merged (the stencil kind may come from the command line), naming the file line.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/stencil_spec.h"

namespace cgra {

/// What a spec file gives; unset fields are left to the command line or the defaults.
struct SpecFile {
  std::optional<unsigned> dims;
  std::optional<unsigned> radius, radius_x;
  std::optional<unsigned> radius_y, radius_z;  ///< may be 0 (3d only, checked after the merge)
  std::optional<std::string> grid;     ///< as text: "N", "XxY" or "XxYxZ"
  std::optional<std::string> workers;  ///< "N" or "auto"
  std::optional<unsigned> time_steps;  ///< 1..StencilSpec::kMaxTimeSteps, 0 for "auto"
  std::optional<unsigned> z_readers;   ///< 1..2rz (checked after the merge), 0 for "auto"
  std::vector<double> coeff_x, coeff_y, coeff_z;
  /// Where each given key is ("file.yaml:3"), by key ("grid", "coefficients.x", ...), so that
  /// checks made once the flags are merged (grid shape, coefficient counts) can name the line.
  std::map<std::string, std::string> where;
};

/// Parses a spec document; `source` names it in errors ("file.yaml:3: ...").
SpecFile parse_spec_yaml(std::string_view text, const std::string& source);

/// Reads and parses a spec file.
SpecFile load_spec_file(const std::string& path);

/// The bytes of the file at `path`; SpecError naming it as `what` ("stencil spec file", "kernel
/// file") when it is a directory or cannot be opened or read.
std::string read_spec_text(const std::string& path, const std::string& what);

}  // namespace cgra
