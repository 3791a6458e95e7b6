#include "mem/set_assoc_cache.h"

#include <bit>
#include <stdexcept>

#include <fmt/format.h>

namespace cgra {

namespace {
std::uint32_t checked_lines(const CacheParams& p, const std::string& name) {
  auto need = [&](bool ok, const char* key, unsigned v, const char* rule) {
    if (!ok) throw std::invalid_argument(fmt::format("cache {}: {} = {} {}", name, key, v, rule));
  };
  need(p.sets >= 1, "sets", p.sets, "must be at least 1");
  need(p.ways >= 1, "ways", p.ways, "must be at least 1");
  need(p.mshrs >= 1, "mshrs", p.mshrs, "must be at least 1");
  need(p.hit_latency >= 1, "hit_latency", p.hit_latency, "must be at least 1 cycle");
  need(std::has_single_bit(p.line_bytes) && p.line_bytes >= 8 && p.line_bytes <= 512, "line_bytes", p.line_bytes,
       "must be a power of two between 8 and 512");
  const std::uint64_t lines = std::uint64_t(p.sets) * p.ways;
  if (lines > (1u << 30)) throw std::invalid_argument(fmt::format("cache {}: sets x ways = {} lines is too large", name, lines));
  return static_cast<std::uint32_t>(lines);
}
}  // namespace

std::uint64_t SetAssocCache::host_bytes(const CacheParams& params) {
  const std::uint64_t lines = std::uint64_t{params.sets} * params.ways;
  return lines * (2 * sizeof(std::uint64_t) + sizeof(std::uint8_t)) +
         FullyAssocLru::host_bytes(static_cast<std::uint32_t>(std::min<std::uint64_t>(lines, UINT32_MAX)));
}

SetAssocCache::SetAssocCache(const CacheParams& params, std::string name)
    : params_(params),
      name_(std::move(name)),
      mshr_index_(params.mshrs),
      shadow_(checked_lines(params, name_)),
      seen_(1024) {
  line_shift_ = static_cast<unsigned>(std::countr_zero(params.line_bytes));
  words_per_line_ = params.line_bytes / 8;
  full_mask_ = words_per_line_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << words_per_line_) - 1;
  const std::size_t n = std::size_t(params.sets) * params.ways;
  tags_.assign(n, LineTable::kEmpty);
  stamps_.assign(n, 0);
  dirty_.assign(n, 0);
  mshrs_.resize(params.mshrs);
  for (Mshr& m : mshrs_) m.targets.reserve(words_per_line_);
  for (std::uint32_t i = params.mshrs; i-- > 0;) free_mshr_list_.push_back(i);
}

int SetAssocCache::find_way(std::uint64_t line) const {
  const std::size_t base = std::size_t(line % params_.sets) * params_.ways;
  for (unsigned w = 0; w < params_.ways; ++w)
    if (tags_[base + w] == line) return static_cast<int>(base + w);
  return -1;
}

void SetAssocCache::hit(std::uint64_t line, bool make_dirty) {
  const int i = find_way(line);
  if (i < 0) throw std::logic_error(fmt::format("cache {}: hit() on absent line {:#x}", name_, line));
  stamps_[std::size_t(i)] = ++clock_;
  if (make_dirty) dirty_[std::size_t(i)] = 1;
  ++stats_.hits;
  shadow_.access(line);
}

void SetAssocCache::record_miss(std::uint64_t line) {
  ++stats_.misses;
  const bool in_shadow = shadow_.access(line);
  // seen_ keeps a bit per line, 32 neighbouring lines per entry: a stream's misses find the entry
  // its previous line used.
  const std::uint64_t group = line >> 5;
  const std::uint32_t bit = std::uint32_t{1} << (line & 31);
  std::uint32_t* const seen = seen_.find(group);
  if (seen == nullptr || (*seen & bit) == 0) {
    if (seen != nullptr)
      *seen |= bit;
    else
      seen_.insert_or_assign(group, bit);
    ++stats_.compulsory_misses;
  } else if (in_shadow) {
    ++stats_.conflict_misses;
  } else {
    ++stats_.capacity_misses;
  }
}

void SetAssocCache::record_merge(std::uint64_t line) {
  ++stats_.mshr_merges;
  shadow_.access(line);
}

Eviction SetAssocCache::install(std::uint64_t line, bool dirty) {
  if (find_way(line) >= 0) throw std::logic_error(fmt::format("cache {}: install of resident line {:#x}", name_, line));
  const std::size_t base = std::size_t(line % params_.sets) * params_.ways;
  std::size_t victim = base;
  for (unsigned w = 0; w < params_.ways; ++w) {
    const std::size_t i = base + w;
    if (tags_[i] == LineTable::kEmpty) { victim = i; break; }
    if (stamps_[i] < stamps_[victim]) victim = i;
  }
  Eviction ev;
  if (tags_[victim] != LineTable::kEmpty) {
    ev = {true, dirty_[victim] != 0, tags_[victim]};
    ++stats_.evictions;
    if (shadow_.contains(ev.line)) ++stats_.conflict_evictions;
    if (ev.dirty) ++stats_.dirty_writebacks;
  }
  tags_[victim] = line;
  stamps_[victim] = ++clock_;
  dirty_[victim] = dirty ? 1 : 0;
  ++stats_.fills;
  return ev;
}

int SetAssocCache::find_mshr(std::uint64_t line) const {
  const std::uint32_t* i = mshr_index_.find(line);
  return i ? static_cast<int>(*i) : -1;
}

int SetAssocCache::allocate_mshr(std::uint64_t line, MshrKind kind) {
  if (busy_mshrs_ == params_.mshrs || free_mshr_list_.empty())
    throw std::logic_error(fmt::format("cache {}: no free MSHR", name_));
  const std::uint32_t i = free_mshr_list_.back();
  free_mshr_list_.pop_back();
  Mshr& m = mshrs_[i];
  m.busy = true;
  m.line = line;
  m.kind = kind;
  m.dirty_on_fill = false;
  m.write_mask = 0;
  m.order = mshr_order_++;
  m.targets.clear();
  ++busy_mshrs_;
  fetch_mshrs_ += kind == MshrKind::Fetch;
  if (busy_mshrs_ > stats_.max_mshrs_in_use) stats_.max_mshrs_in_use = busy_mshrs_;
  mshr_index_.insert_or_assign(line, i);
  if (kind == MshrKind::Combine) combine_order_.emplace_back(m.order, i);
  return static_cast<int>(i);
}

void SetAssocCache::release_mshr(int i) {
  Mshr& m = mshr(i);
  m.busy = false;
  m.targets.clear();
  mshr_index_.erase(m.line);
  --busy_mshrs_;
  fetch_mshrs_ -= m.kind == MshrKind::Fetch;
  free_mshr_list_.push_back(static_cast<std::uint32_t>(i));
}

std::vector<std::uint64_t> SetAssocCache::unwritten_lines() const {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < tags_.size(); ++i)
    if (tags_[i] != LineTable::kEmpty && dirty_[i]) out.push_back(tags_[i]);
  for (const Mshr& m : mshrs_)
    if (m.busy && (m.kind == MshrKind::Combine || m.dirty_on_fill)) out.push_back(m.line);
  return out;
}

void SetAssocCache::combine_to_fetch(int i) {
  Mshr& m = mshr(i);
  if (!m.busy || m.kind != MshrKind::Combine)
    throw std::logic_error(fmt::format("cache {}: MSHR {} is not combining", name_, i));
  m.kind = MshrKind::Fetch;
  ++fetch_mshrs_;
}

int SetAssocCache::oldest_combine_mshr() {
  while (!combine_order_.empty()) {
    const auto [order, i] = combine_order_.front();
    const Mshr& m = mshrs_[i];
    if (m.busy && m.kind == MshrKind::Combine && m.order == order) return static_cast<int>(i);
    combine_order_.pop_front();  // released or turned into a fetch since
  }
  return -1;
}

}  // namespace cgra
