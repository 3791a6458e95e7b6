// The typo distance behind the readers' "did you mean": one edit per insertion, deletion,
// substitution or swap of adjacent characters. Distances worked out by hand.
#include <gtest/gtest.h>

#include "common/edit_distance.h"

namespace cgra {
namespace {

TEST(EditDistance, CountsEachKindOfEditOnce) {
  EXPECT_EQ(edit_distance("radius", "radius"), 0u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("radious", "radius"), 1u);  // one insertion
  EXPECT_EQ(edit_distance("grd", "grid"), 1u);        // one deletion
  EXPECT_EQ(edit_distance("grim", "grid"), 1u);       // one substitution
  EXPECT_EQ(edit_distance("stagse", "stages"), 1u);   // one swap of neighbours
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);  // k->s, e->i, +g
  EXPECT_EQ(edit_distance("ca", "abc"), 3u);          // a swap is not reused: OSA, not Damerau
}

TEST(EditDistance, IsSymmetric) {
  for (auto [a, b] : {std::pair{"stencil", "stnecil"}, {"workers", "wroker"}, {"abcdef", "badcfe"}})
    EXPECT_EQ(edit_distance(a, b), edit_distance(b, a)) << a << " / " << b;
  EXPECT_EQ(edit_distance("abcdef", "badcfe"), 3u);  // three swaps
}

}  // namespace
}  // namespace cgra
