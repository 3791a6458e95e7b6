// Puts the heap of the executable it is linked into on huge pages (common/huge_heap.h) before any
// library's initialiser runs: an ELF pre-initialisation function, which the loader calls after the
// C library's own start-up and before the shared libraries' initialisers. SystemC's initialiser
// allocates and clears a 3 MiB scratch heap; as a fresh mapping of 4 KiB pages that is some 770
// page faults, about 10 ms of every start on a virtual machine, and from the huge-page heap two;
// and the fabric's state, swept every cycle, takes TLB misses on 4 KiB pages (about 15% of the
// simulation's time, docs/model.md, "Performance"). Elsewhere it runs at static initialisation.
// Linked as the object library cgra_huge_heap_start (common/CMakeLists.txt), so that the linker
// keeps it although nothing refers to it: cgrasim, sim_speed and core_floor link it, so that the
// benchmarks measure the simulator as users run it.
#include "common/huge_heap.h"

namespace {
void early_heap(int, char**, char**) { cgra::heap_on_huge_pages(); }
}  // namespace

#if defined(__linux__) && defined(__GLIBC__)
[[gnu::section(".preinit_array"), gnu::used]] void (*const cgra_huge_heap_preinit)(int, char**, char**) = early_heap;
#else
namespace {
[[maybe_unused]] const bool heap_started = (early_heap(0, nullptr, nullptr), true);
}  // namespace
#endif
