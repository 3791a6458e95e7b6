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
  /// The most time steps a spec may ask for (validate()).
  static constexpr unsigned kMaxTimeSteps = 64;

  unsigned dims = 1;                            ///< 1, 2 or 3
  /// rx, ry, rz (unused dimensions 0). rx >= 1; in 2D ry >= 1; in 3D ry and rz may be 0 (that
  /// part of the star is then absent).
  std::array<unsigned, kMaxDims> radius{};
  std::array<std::uint64_t, kMaxDims> grid{};   ///< nx (contiguous), ny, nz (unused dimensions 1)
  unsigned workers = 0;                         ///< w; 0 means "choose from the roofline"
  /// T: successive applications of the stencil in one pass (temporal pipelining); 1: one step;
  /// 0 means "choose from the prediction" (resolved by the mapper); at most kMaxTimeSteps.
  unsigned time_steps = 1;
  /// 3D with a z part and one time step: z readers per worker (each loads the planes of some z
  /// offsets again through the caches; the taps between share them through deep channels), at most
  /// 2rz; 0 means "choose from the prediction" (docs/stencil.md, "3D"). The memory PEs cap it.
  unsigned z_readers = 0;
  /// Coefficients along x for offsets -rx..rx (2rx+1 values); empty means the default.
  std::vector<double> coeff_x;
  /// Coefficients along y for offsets -ry..-1, 1..ry (2ry values; the centre belongs to x);
  /// empty means the default.
  std::vector<double> coeff_y;
  /// Coefficients along z for offsets -rz..-1, 1..rz (2rz values); empty means the default.
  std::vector<double> coeff_z;

  /// The x coefficients in use: coeff_x, or the default 1/points for every offset.
  std::vector<double> x_coefficients() const;
  /// The y coefficients in use: coeff_y, or the default 1/points for every offset.
  std::vector<double> y_coefficients() const;
  /// The z coefficients in use: coeff_z, or the default 1/points for every offset (3D only).
  std::vector<double> z_coefficients() const;
  /// Points of one plane (nx · ny; 1D: nx).
  std::uint64_t plane_points() const { return grid[0] * (dims >= 2 ? grid[1] : 1); }

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
  /// "2d, rx=12 ry=12, grid 960x449"; "3d, rx=4 ry=4 rz=4, grid 256x128x64"; with time steps
  /// other than 1: "1d, rx=2, grid 1000, T=4" (T=0: "T=auto").
  std::string describe() const;
  /// "960x449" (1D: "194400", 3D: "256x128x64").
  std::string grid_text() const;
};

/// Parses a grid argument: "N" (1D, or N along every dimension in 2D and 3D), "XxY" (2D: X columns
/// along x, Y rows) or "XxYxZ" (3D: Z planes of Y rows). Throws SpecError quoting the text when it
/// is malformed or has the wrong number of sizes for spec.dims.
void parse_grid(const std::string& text, StencilSpec& spec);

}  // namespace cgra
