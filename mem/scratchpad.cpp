#include "mem/scratchpad.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace cgra {

Scratchpad::Scratchpad(const ScratchpadParams& params) : params_(params) {
  if (params.size_bytes == 0 || params.size_bytes % 8 != 0)
    throw std::invalid_argument(fmt::format("scratchpad.size_bytes = {} must be a positive multiple of 8", params.size_bytes));
  if (params.banks == 0) throw std::invalid_argument("scratchpad.banks must be at least 1");
  if (params.ports == 0) throw std::invalid_argument("scratchpad.ports must be at least 1");
  if (params.latency == 0) throw std::invalid_argument("scratchpad.latency must be at least 1 cycle");
  data_.resize(params.size_bytes / 8);
  bank_free_.assign(params.banks, 0);
}

std::uint64_t Scratchpad::index(std::uint64_t addr, const char* what) const {
  if (addr % 8 != 0 || addr >= params_.size_bytes)
    throw std::out_of_range(fmt::format("scratchpad {}: address {:#x} is unaligned or beyond {} bytes", what, addr,
                                        params_.size_bytes));
  return addr / 8;
}

std::uint64_t Scratchpad::issue(std::uint64_t cycle, std::uint64_t addr) {
  if (cycle < last_cycle_)
    throw std::logic_error(fmt::format("scratchpad: access in cycle {} after one in cycle {}", cycle, last_cycle_));
  last_cycle_ = cycle;
  if (!can_issue(cycle))
    throw std::logic_error(fmt::format("scratchpad: more than {} accesses in cycle {}", params_.ports, cycle));
  if (cycle != port_cycle_) {
    port_cycle_ = cycle;
    port_used_ = 0;
  }
  ++port_used_;
  std::uint64_t& free = bank_free_[bank_of(addr)];
  const std::uint64_t start = free > cycle ? free : cycle;
  if (start > cycle) {
    ++stats_.bank_conflicts;
    stats_.bank_conflict_cycles += start - cycle;
  }
  free = start + 1;
  return start + params_.latency;
}

std::uint64_t Scratchpad::read(std::uint64_t cycle, std::uint64_t addr, Word& out) {
  const std::uint64_t i = index(addr, "read");
  const std::uint64_t done = issue(cycle, addr);
  out = data_[i];
  ++stats_.reads;
  return done;
}

std::uint64_t Scratchpad::write(std::uint64_t cycle, std::uint64_t addr, Word w) {
  const std::uint64_t i = index(addr, "write");
  const std::uint64_t done = issue(cycle, addr);
  data_[i] = w;
  ++stats_.writes;
  return done;
}

Word Scratchpad::peek(std::uint64_t addr) const { return data_[index(addr, "peek")]; }

void Scratchpad::poke(std::uint64_t addr, Word w) { data_[index(addr, "poke")] = w; }

std::uint64_t Scratchpad::row_index(std::uint64_t addr, unsigned n, const char* what) const {
  const std::uint64_t i = index(addr, what);
  if (n == 0 || n > row_words() || addr / params_.row_bytes != (addr + 8 * (n - 1)) / params_.row_bytes ||
      addr + 8 * (n - 1) >= params_.size_bytes)
    throw std::out_of_range(fmt::format("scratchpad {}: {} words at {:#x} do not lie in one row of {} bytes", what, n,
                                        addr, params_.row_bytes));
  return i;
}

std::uint64_t Scratchpad::read_row(std::uint64_t cycle, std::uint64_t addr, unsigned n, Word* out) {
  const std::uint64_t i = row_index(addr, n, "read");
  const std::uint64_t done = issue(cycle, addr);
  for (unsigned k = 0; k < n; ++k) out[k] = data_[i + k];
  ++stats_.reads;
  return done;
}

std::uint64_t Scratchpad::write_row(std::uint64_t cycle, std::uint64_t addr, unsigned n, const Word* w) {
  const std::uint64_t i = row_index(addr, n, "write");
  const std::uint64_t done = issue(cycle, addr);
  for (unsigned k = 0; k < n; ++k) data_[i + k] = w[k];
  ++stats_.writes;
  return done;
}

std::uint64_t Scratchpad::allocate(std::uint64_t bytes, const std::string& who) {
  const std::uint64_t row = params_.row_bytes;
  const std::uint64_t rounded = (bytes + row - 1) / row * row;
  if (rounded > params_.size_bytes - next_free_byte_)
    throw std::length_error(fmt::format("scratchpad: {} needs {} bytes but only {} of {} are free", who, rounded,
                                        params_.size_bytes - next_free_byte_, params_.size_bytes));
  const std::uint64_t base = next_free_byte_;
  next_free_byte_ += rounded;
  stats_.bytes_allocated += rounded;
  return base;
}

// ---------------------------------------------------------------------------------------------

ScratchpadFifo::ScratchpadFifo(Scratchpad& spm, std::uint64_t base, std::uint64_t depth, unsigned read_ahead,
                               std::string name)
    : spm_(spm),
      base_(base),
      depth_(depth),
      row_(spm.row_words()),
      slots_((depth + row_ - 1) / row_ * row_),
      read_ahead_(read_ahead ? read_ahead : row_ + spm.params().latency + 1),
      name_(std::move(name)),
      writes_(spm.params().latency + 4),
      out_(read_ahead_) {
  if (depth == 0) throw std::invalid_argument(fmt::format("scratchpad FIFO {}: depth must be at least 1", name_));
  if (base % spm.params().row_bytes != 0 || base > spm.params().size_bytes ||
      slots_ > (spm.params().size_bytes - base) / 8)
    throw std::out_of_range(fmt::format("scratchpad FIFO {}: {} words at {:#x} do not fit in {} bytes as rows of {}",
                                        name_, depth, base, spm.params().size_bytes, spm.params().row_bytes));
  if (read_ahead_ < row_)
    throw std::invalid_argument(fmt::format("scratchpad FIFO {}: a read-ahead of {} words holds no row of {}", name_,
                                            read_ahead_, row_));
  stage_.reserve(row_);
  rbuf_.resize(row_);
}

void ScratchpadFifo::push(Word w) {
  if (!can_push()) throw std::logic_error(fmt::format("scratchpad FIFO {}: push while full or already pushed", name_));
  push_pending_ = true;
  push_word_ = w;
}

void ScratchpadFifo::preload(Word w) {
  if (now_ != kNever || count_ >= depth_)
    throw std::logic_error(fmt::format("scratchpad FIFO {}: preload after the first tick or while full", name_));
  spm_.poke(slot_addr(wr_seq_), w);
  ++wr_seq_;
  ++count_;
  if (count_ > stats_.max_occupancy) stats_.max_occupancy = count_;
}

void ScratchpadFifo::pop() {
  if (empty() || pop_pending_)
    throw std::logic_error(fmt::format("scratchpad FIFO {}: pop while empty or already popped", name_));
  pop_pending_ = true;
}

std::uint64_t ScratchpadFifo::write_done(std::uint64_t seq) const {
  for (std::uint64_t s = writes_.head_seq(); s < writes_.tail_seq(); ++s)
    if (writes_.at_seq(s).begin <= seq && seq < writes_.at_seq(s).end) return writes_.at_seq(s).done;
  return 0;
}

std::uint64_t ScratchpadFifo::read_words(std::uint64_t cycle) const {
  const std::uint64_t limit = std::min(wr_seq_, row_end(rd_seq_));
  std::uint64_t end = rd_seq_;
  while (end < limit && write_done(end) < cycle) {  // whole writes, in order
    std::uint64_t next = limit;
    for (std::uint64_t s = writes_.head_seq(); s < writes_.tail_seq(); ++s)
      if (writes_.at_seq(s).begin <= end && end < writes_.at_seq(s).end) next = std::min(limit, writes_.at_seq(s).end);
    end = next;
  }
  return out_.size() + (end - rd_seq_) <= read_ahead_ ? end - rd_seq_ : 0;
}

void ScratchpadFifo::tick(std::uint64_t cycle) {
  if (now_ != kNever && cycle <= now_)
    throw std::logic_error(fmt::format("scratchpad FIFO {}: tick({}) after tick({})", name_, cycle, now_));
  // 1. consumer: the pop frees a slot (usable by the producer next cycle) and a prefetch place.
  if (pop_pending_) {
    out_.pop_front();
    --count_;
    ++stats_.pops;
    pop_pending_ = false;
  }
  // 2. producer: the pushed word is accepted (counted now) into the tail register.
  if (push_pending_) {
    stage_.push_back(push_word_);
    push_pending_ = false;
    ++count_;
    ++stats_.pushes;
    if (count_ > stats_.max_occupancy) stats_.max_occupancy = count_;
  }
  // 3. the write goes first: it is the older claim on a port.
  const bool full = row_full();
  if (full || flush_due()) {
    if (spm_.can_issue(cycle)) {
      const auto n = static_cast<unsigned>(stage_.size());
      const std::uint64_t done = spm_.write_row(cycle, slot_addr(wr_seq_), n, stage_.data());
      writes_.push_back({wr_seq_, wr_seq_ + n, done});
      wr_seq_ += n;
      stage_.clear();
    } else if (full) {
      ++stats_.write_port_stalls;
    }
  }
  while (!writes_.empty() && writes_.front().done < cycle) writes_.pop_front();
  // 4. prefetch the written words of the next row whose writes have completed in an earlier cycle.
  if (const std::uint64_t n = read_words(cycle); n > 0 && spm_.can_issue(cycle)) {
    const std::uint64_t done = spm_.read_row(cycle, slot_addr(rd_seq_), static_cast<unsigned>(n), rbuf_.data());
    for (std::uint64_t k = 0; k < n; ++k) out_.push_back({rbuf_[k], done});
    rd_seq_ += n;
  }
  now_ = cycle;
}

std::uint64_t ScratchpadFifo::next_event_cycle() const {
  if (now_ == kNever) return !stage_.empty() || push_pending_ || rd_seq_ < wr_seq_ ? 0 : kNever;
  std::uint64_t next = kNever;
  auto consider = [&](std::uint64_t c) { next = c < next ? c : next; };
  if (row_full() || flush_due()) consider(now_ + 1);
  if (rd_seq_ < wr_seq_) {
    const std::uint64_t d = write_done(rd_seq_);
    const std::uint64_t c = d + 1 > now_ + 1 ? d + 1 : now_ + 1;
    if (read_words(c) > 0) consider(c);
  }
  if (!out_.empty() && out_.front().done > now_) consider(out_.front().done);
  return next;
}

}  // namespace cgra
