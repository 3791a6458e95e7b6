#pragma once
/// \file text_format.h
/// Number formatting shared by the mapper's texts (the worker and time-step reasons in
/// map_stencil.cpp, the summary in mapping_summary.cpp). Internal to mapper/.

#include <cstdio>
#include <string>

namespace cgra::mapper_text {

/// `v` with `digits` digits after the point ("%.*f").
inline std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace cgra::mapper_text
