#include "mem/backing_store.h"

#include <bit>
#include <stdexcept>

#include <fmt/format.h>

namespace cgra {

namespace {
void check_aligned(std::uint64_t addr, const char* what) {
  if (addr % 8 != 0)
    throw std::invalid_argument(fmt::format("backing store {}: address {:#x} is not 8-byte aligned", what, addr));
}
}  // namespace

std::uint64_t* BackingStore::page(std::uint64_t addr, bool create) const {
  const std::uint64_t key = addr / kPageBytes;
  // A page not there yet is remembered too (words == nullptr): the page's only entry is this one,
  // which its creation overwrites.
  Recent& r = recent_[recent_slot(key)];
  if (r.key == key && (r.words != nullptr || !create)) return r.words;
  auto it = pages_.find(key);
  if (it == pages_.end()) {
    if (!create) {
      r = {key, nullptr};
      return nullptr;
    }
    it = pages_.emplace(key, std::make_unique<std::uint64_t[]>(kPageBytes / 8)).first;  // zeros
  }
  r = {key, it->second.get()};
  return r.words;
}

std::uint64_t BackingStore::read(std::uint64_t addr) const {
  check_aligned(addr, "read");
  const std::uint64_t* p = page(addr, false);
  return p ? p[(addr % kPageBytes) / 8] : 0;
}

void BackingStore::write(std::uint64_t addr, std::uint64_t bits) {
  check_aligned(addr, "write");
  page(addr, true)[(addr % kPageBytes) / 8] = bits;
}

void BackingStore::write_doubles(std::uint64_t addr, std::span<const double> values) {
  check_aligned(addr, "write_doubles");
  for (std::size_t i = 0; i < values.size(); ++i) write(addr + 8 * i, std::bit_cast<std::uint64_t>(values[i]));
}

std::vector<double> BackingStore::read_doubles(std::uint64_t addr, std::size_t n) const {
  check_aligned(addr, "read_doubles");
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = std::bit_cast<double>(read(addr + 8 * i));
  return out;
}

}  // namespace cgra
