#pragma once
/// \file spec_yaml.h
/// Stencil specification files (docs/stencil.md):
///   stencil: 2d            # 1d | 2d
///   radius: 12             # or radius_x / radius_y
///   grid: 960x449          # N, "XxY", or [X, Y]
///   workers: 5             # N | auto
///   coefficients: {x: [2rx+1 values for -rx..rx], y: [2ry values for -ry..-1, 1..ry]}
/// Any subset may be given; command-line flags override what the file says.

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
  std::optional<unsigned> radius, radius_x, radius_y;
  std::optional<std::string> grid;     ///< as text: "N" or "XxY"
  std::optional<std::string> workers;  ///< "N" or "auto"
  std::vector<double> coeff_x, coeff_y;
  /// Where each given key is ("file.yaml:3"), by key ("grid", "coefficients.x", ...), so that
  /// checks made once the flags are merged (grid shape, coefficient counts) can name the line.
  std::map<std::string, std::string> where;
};

/// Parses a spec document; `source` names it in errors ("file.yaml:3: ...").
SpecFile parse_spec_yaml(std::string_view text, const std::string& source);

/// Reads and parses a spec file.
SpecFile load_spec_file(const std::string& path);

}  // namespace cgra
