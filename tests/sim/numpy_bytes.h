#pragma once
/// \file numpy_bytes.h
/// Test helper: the bytes numpy.save writes for a float64 array, laid out by hand as an
/// independent reference for the .npy reader/writer (magic, version 1.0, little-endian header
/// length, the header dict padded with spaces to a 64-byte boundary and ended by a newline, data).

#include <cstring>
#include <string>
#include <vector>

namespace cgra::test {

inline std::string numpy_bytes(const std::string& shape_text, const std::vector<double>& values,
                               const std::string& descr = "<f8", bool fortran = false) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                     ", 'shape': " + shape_text + ", }";
  while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += char(dict.size() & 0xff);
  out += char(dict.size() >> 8);
  out += dict;
  for (double v : values) {
    char b[8];
    std::memcpy(b, &v, 8);
    out.append(b, 8);
  }
  return out;
}

}  // namespace cgra::test
