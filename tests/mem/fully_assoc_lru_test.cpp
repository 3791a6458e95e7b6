// The fully associative LRU shadow of the 3C miss classes (mem/fully_assoc_lru.h) against a plain
// list-based LRU: the same hit or miss on every access, for streams interleaved as several ports
// of one cache interleave them, for random reuse, and for lines that map to one memo entry.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <list>
#include <random>

#include "mem/fully_assoc_lru.h"

namespace cgra {
namespace {

// True LRU of `capacity` lines, the obvious way.
class ListLru {
 public:
  explicit ListLru(std::size_t capacity) : capacity_(capacity) {}
  bool access(std::uint64_t line) {
    const auto it = std::find(lines_.begin(), lines_.end(), line);
    const bool hit = it != lines_.end();
    if (hit) lines_.erase(it);
    lines_.push_front(line);
    if (lines_.size() > capacity_) lines_.pop_back();
    return hit;
  }

 private:
  std::size_t capacity_;
  std::list<std::uint64_t> lines_;
};

TEST(FullyAssocLru, HitsAndMissesAsATrueLru) {
  for (const std::uint32_t capacity : {1u, 4u, 16u, 100u}) {
    for (unsigned seed = 1; seed <= 5; ++seed) {
      SCOPED_TRACE("capacity " + std::to_string(capacity) + ", seed " + std::to_string(seed));
      FullyAssocLru lru(capacity);
      ListLru ref(capacity);
      std::mt19937_64 rng(seed);
      std::uint64_t stream[4] = {0, 1000, 64 * 7, 5000};  // four ports' streams
      for (int k = 0; k < 20000; ++k) {
        std::uint64_t line;
        switch (rng() % 4) {
          case 0: {  // a port's stream: the same line several times, then the next
            const unsigned s = static_cast<unsigned>(rng() % 4);
            if (rng() % 4 == 0) ++stream[s];
            line = stream[s];
            break;
          }
          case 1: line = rng() % (2 * capacity + 3); break;         // reuse around the capacity
          case 2: line = 64 * (rng() % (capacity + 2)); break;      // one memo entry, many lines
          default: line = rng() % 100000; break;                    // mostly new
        }
        ASSERT_EQ(lru.access(line), ref.access(line)) << "access " << k << ", line " << line;
      }
    }
  }
}

}  // namespace
}  // namespace cgra
