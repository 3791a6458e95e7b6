#pragma once
/// \file expect_queue_stats.h
/// Compares two queues' statistics field by field, so that a failure names the field (`what`:
/// which queue).

#include <gtest/gtest.h>

#include <string>

#include "common/queue.h"

namespace cgra::test {

inline void expect_same_queue_stats(const QueueStats& x, const QueueStats& y, const std::string& what) {
  EXPECT_EQ(x.pushes, y.pushes) << what;
  EXPECT_EQ(x.pops, y.pops) << what;
  EXPECT_EQ(x.max_occupancy, y.max_occupancy) << what;
  EXPECT_EQ(x.occupancy_sum, y.occupancy_sum) << what;
  EXPECT_EQ(x.cycles, y.cycles) << what;
}

}  // namespace cgra::test
