#pragma once
/// \file stencil_spec.h
/// A star stencil: dimensions, radius and grid size per dimension, workers. Dimension 0 (x) is
/// the contiguous one. Outputs cover the interior only: N - 2r points per dimension.

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.h"

namespace cgra {

/// An error in a stencil specification (radius, grid, workers), naming the culprit.
class SpecError : public Error {
 public:
  explicit SpecError(const std::string& what) : Error(ErrorKind::BadInput, what) {}
};

/// Shape and size of one star-stencil run.
struct StencilSpec {
  static constexpr unsigned kMaxDims = 3;

  unsigned dims = 1;                            ///< 1 or 2 (3 is reserved for later)
  std::array<unsigned, kMaxDims> radius{};      ///< rx, ry, rz (unused dimensions 0)
  std::array<std::uint64_t, kMaxDims> grid{};   ///< nx (contiguous), ny, nz (unused dimensions 1)
  unsigned workers = 0;                         ///< w; 0 means "choose from the roofline"
  /// Coefficients along x for offsets -rx..rx (2rx+1 values); empty means the default.
  std::vector<double> coeff_x;
  /// Coefficients along y for offsets -ry..-1, 1..ry (2ry values; the centre belongs to x);
  /// empty means the default.
  std::vector<double> coeff_y;

  /// The x coefficients in use: coeff_x, or the default 1/points for every offset.
  std::vector<double> x_coefficients() const;
  /// The y coefficients in use: coeff_y, or the default 1/points for every offset.
  std::vector<double> y_coefficients() const;

  /// Points of the star: 2·(rx + ry + rz) + 1.
  unsigned points() const;
  /// Useful flops per output: one MUL and (points − 1) fused MACs = 2·(points − 1) + 1.
  unsigned flops_per_output() const { return 2 * (points() - 1) + 1; }
  /// Grid points (input size).
  std::uint64_t grid_points() const;
  /// Interior outputs: product of (N − 2r) over the dimensions.
  std::uint64_t outputs() const;
  /// Throws SpecError naming the culprit if the spec cannot run (radius 0, grid too small, ...).
  void validate() const;
  /// "2d, rx=12 ry=12, grid 960x449".
  std::string describe() const;
  /// "960x449" (1D: "194400").
  std::string grid_text() const;
};

/// Parses a grid argument: "N" (1D, or N x N in 2D) or "XxY" (X columns along x, Y rows).
/// Throws SpecError quoting the text when it is malformed.
void parse_grid(const std::string& text, StencilSpec& spec);

}  // namespace cgra
