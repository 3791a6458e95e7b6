#pragma once
// What the kernel says about this process's memory (Linux): the smaps entry of the mapping that
// holds an address, and the transparent-huge-page mode. For the huge-heap tests.

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace cgra::test {

/// The smaps entry of the mapping that holds `addr`: its header line and its fields.
inline std::string smaps_entry_of(const void* addr) {
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  std::ifstream in("/proc/self/smaps");
  std::string line, entry;
  bool inside = false;
  while (std::getline(in, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-' && line.find(" kB") == std::string::npos) {
      if (inside) break;
      inside = lo <= a && a < hi;
    }
    if (inside) entry += line + '\n';
  }
  return entry;
}

/// The line of /sys/kernel/mm/transparent_hugepage/enabled (empty where there is none).
inline std::string thp_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string s;
  std::getline(in, s);
  return s;
}

}  // namespace cgra::test
