// cgrasim: cycle-accurate CGRA stencil simulator (see README.md).
#include <iostream>
#include <string>
#include <vector>

#include "sim/cli.h"
#include "sim/study/study_cli.h"

// The heap is on huge pages before anything runs: cgrasim links cgra_huge_heap_start
// (common/huge_heap_start.cpp).
int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "sweep" || args[0] == "plot" || args[0] == "explore"))  // docs/sweep.md, docs/explore.md
    return cgra::study::run_study_cli(args, std::cout, std::cerr);
  return cgra::run_cli(args, std::cout, std::cerr);
}
