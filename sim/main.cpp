// cgrasim: cycle-accurate CGRA stencil simulator (see README.md).
#include <iostream>
#include <string>
#include <vector>

#include "common/huge_heap.h"
#include "sim/cli.h"
#include "sim/study/study_cli.h"

namespace {

// The heap goes on huge pages before any library's constructor runs (an ELF pre-initialisation
// function: the loader calls it after the C library's own start-up, before the shared libraries'
// initialisers). SystemC's initialiser allocates and clears a 3 MiB scratch heap; as a fresh
// mapping of 4 KiB pages that is some 770 page faults, about 10 ms of every start on a
// virtual machine, and from the huge-page heap two.
void early_heap(int, char**, char**) { cgra::heap_on_huge_pages(); }

}  // namespace

#if defined(__linux__) && defined(__GLIBC__)
[[gnu::section(".preinit_array"), gnu::used]] void (*const cgrasim_preinit)(int, char**, char**) = early_heap;
#endif

int main(int argc, char** argv) {
#if !(defined(__linux__) && defined(__GLIBC__))
  cgra::heap_on_huge_pages();
#endif
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "sweep" || args[0] == "plot"))  // docs/sweep.md
    return cgra::study::run_study_cli(args, std::cout, std::cerr);
  return cgra::run_cli(args, std::cout, std::cerr);
}
