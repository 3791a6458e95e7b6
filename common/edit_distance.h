#pragma once
/// \file edit_distance.h
/// The typo distance behind every "did you mean" of the file readers (configs, spec and kernel
/// files, sweep and explore files): insertions, deletions, substitutions and swaps of two
/// adjacent characters, one edit each (the optimal string alignment distance).

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

namespace cgra {

inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows: the swap of a[i-2..i-1] looks two rows back.
  std::vector<std::size_t> before(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], before[j - 2] + 1);
    }
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace cgra
