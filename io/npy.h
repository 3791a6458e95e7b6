#pragma once
/// \file npy.h
/// NumPy .npy files of little-endian float64 in C order (format versions 1.0, 2.0 and 3.0 read;
/// 1.0 written, 2.0 when the header needs it), so users can feed grids from and check results in their own tools.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cgra {

/// A float64 array: its shape (outermost first) and its values in C order.
struct NpyArray {
  std::vector<std::uint64_t> shape;
  std::vector<double> data;
};

/// Parses .npy bytes; throws FileError naming `source` and what is wrong (magic, version,
/// dtype, Fortran order, shape, truncated or trailing data).
NpyArray parse_npy(std::string_view bytes, const std::string& source);

/// Reads a .npy file (see parse_npy).
NpyArray read_npy(const std::string& path);

/// The .npy encoding of `a`: version 1.0, or 2.0 when the header is too long for 1.0.
std::string encode_npy(const NpyArray& a);

/// Writes `a` to `path` atomically (see write_file_atomic).
void write_npy(const std::string& path, const NpyArray& a);

}  // namespace cgra
