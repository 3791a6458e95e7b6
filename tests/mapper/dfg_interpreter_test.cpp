// The test DFG interpreter (dfg_interpreter.h) on the ops the mapper uses to re-insert words into a
// stream: BITS with every/phase, MUX mode=bits and FILTER mode=bits, checked value by value.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "dfg/asm.h"
#include "dfg/validate.h"
#include "tests/mapper/dfg_interpreter.h"

namespace cgra::test {
namespace {

// 72 output words: the computed stream `a` (words 0..67 at 0..) except at positions 18 and 24 of
// every period of 36 (BITS m=18 n=12 p=6 every=6 phase=0), which take the next word of `b`, a
// FILTER mode=bits keeping positions 1, 4, 7, 10 of 12 replacement words (BITS m=0 n=12 p=0 every=3
// phase=1).
constexpr const char* kReinsert = R"(
op sel BITS m=18 n=12 p=6 every=6 phase=0
op keep BITS m=0 n=12 p=0 every=3 phase=1
op ag_a ADDR_GEN base=0 count=68
op ld_a LOAD
op ag_r ADDR_GEN base=1024 count=12
op ld_r LOAD
op f FILTER mode=bits
op x MUX mode=bits
op ag_w ADDR_GEN base=4096 count=72
op st STORE
op s SYNC expected=72
edge sel.out -> x.sel
edge keep.out -> f.bits
edge ag_a.addr -> ld_a.addr
edge ld_a.data -> x.a
edge ag_r.addr -> ld_r.addr
edge ld_r.data -> f.in
edge f.out -> x.b
edge ag_w.addr -> st.addr
edge x.out -> st.data
edge st.done -> s.in
)";

TEST(DfgInterpreter, StridedBitsMuxByBitsAndFilterByBits) {
  const dfg::Dfg g = dfg::parse_asm(kReinsert, "reinsert.asm");
  dfg::validate(g);
  DfgInterpreter interp(g, 4, 4);
  for (std::uint64_t i = 0; i < 68; ++i) interp.memory()[8 * i] = i;
  for (std::uint64_t i = 0; i < 12; ++i) interp.memory()[1024 + 8 * i] = 1000 + i;
  for (std::uint64_t i = 0; i < 72; ++i) interp.memory()[4096 + 8 * i] = ~std::uint64_t{0};
  const InterpResult r = interp.run();
  ASSERT_TRUE(r.done) << r.blocked;
  EXPECT_TRUE(r.leftovers.empty()) << r.leftovers.front();
  std::vector<std::uint64_t> got, want;
  std::uint64_t next_a = 0, next_b = 1001;
  for (std::uint64_t k = 0; k < 72; ++k) {
    got.push_back(interp.memory()[4096 + 8 * k]);
    const std::uint64_t c = k % 36;
    if (c == 18 || c == 24) {
      want.push_back(next_b);
      next_b += 3;
    } else {
      want.push_back(next_a++);
    }
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(next_a, 68u);
}

// MUX in its default mode decides by sel's value (0 -> a), not by its tag.
TEST(DfgInterpreter, MuxByValue) {
  const dfg::Dfg g = dfg::parse_asm(R"(
op ag_s ADDR_GEN base=0 count=4
op ld_s LOAD
op ag_a ADDR_GEN base=64 count=2
op ld_a LOAD
op ag_b ADDR_GEN base=128 count=2
op ld_b LOAD
op as_int COPY
op x MUX
op ag_w ADDR_GEN base=4096 count=4
op st STORE
op s SYNC expected=4
edge ag_s.addr -> ld_s.addr
edge ld_s.data -> as_int.in
edge as_int.out -> x.sel
edge ag_a.addr -> ld_a.addr
edge ld_a.data -> x.a
edge ag_b.addr -> ld_b.addr
edge ld_b.data -> x.b
edge ag_w.addr -> st.addr
edge x.out -> st.data
edge st.done -> s.in
)");
  dfg::validate(g);
  DfgInterpreter interp(g, 4, 4);
  const std::vector<std::uint64_t> sel{0, 7, 7, 0};
  for (std::uint64_t i = 0; i < 4; ++i) interp.memory()[8 * i] = sel[i];
  for (std::uint64_t i = 0; i < 2; ++i) interp.memory()[64 + 8 * i] = 10 + i;
  for (std::uint64_t i = 0; i < 2; ++i) interp.memory()[128 + 8 * i] = 20 + i;
  for (std::uint64_t i = 0; i < 4; ++i) interp.memory()[4096 + 8 * i] = 0;
  const InterpResult r = interp.run();
  ASSERT_TRUE(r.done) << r.blocked;
  std::vector<std::uint64_t> got;
  for (std::uint64_t i = 0; i < 4; ++i) got.push_back(interp.memory()[4096 + 8 * i]);
  EXPECT_EQ(got, (std::vector<std::uint64_t>{10, 20, 21, 11}));
}

}  // namespace
}  // namespace cgra::test
