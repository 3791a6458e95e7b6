// libFuzzer target: the stencil spec YAML parser and spec validation (contract in fuzz_checks.h).
#include "fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return cgra::fuzz::run_fuzz_input(cgra::fuzz::check_spec, data, size);
}
