#pragma once
/// \file kernel_yaml.h
/// Kernel files (docs/kernels.md):
///   kernel: blur                 # a name for reports
///   dims: 2                      # 1, 2 or 3
///   grid: 1024x768               # N, "XxY", "XxYxZ" or a list; as many sizes as dims (or one)
///   inputs: [img]                # one or more input grids of the grid's shape
///   stages:                      # evaluated in order; the last is the output
///     - name: out
///       expr: "(img(-1,-1) + img(0,-1) + ...) / 9"
///   time_steps: 1                # optional, 1..64
/// Errors name the file and line ("k.yaml:7: ..."), and in an expression the column.

#include <string>
#include <string_view>

#include "spec/kernel.h"

namespace cgra {

/// Parses and checks a kernel document; `source` names it in errors.
Kernel parse_kernel_yaml(std::string_view text, const std::string& source);

/// Reads, parses and checks a kernel file.
Kernel load_kernel_file(const std::string& path);

/// Whether a spec document is a kernel (a map with a top-level 'kernel' key) rather than a star
/// stencil; false for malformed YAML (the spec loader then reports it).
bool is_kernel_yaml(std::string_view text);

}  // namespace cgra
