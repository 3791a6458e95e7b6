#pragma once
/// \file fuzz_checks.h
/// The contracts the fuzz targets check, shared by the libFuzzer targets (fuzz/*_fuzzer.cpp, a
/// clang build with CGRA_FUZZ=ON) and by the seed-corpus test (fuzz/corpus_test.cpp, every build),
/// so a committed corpus file is a regression input in `make test`.
///
/// Contract of every parser: any input either parses, or throws the parser's documented error
/// type with a non-empty message. When the parse succeeds, writing the result and parsing
/// the text again gives the same value. Anything else (another exception, a crash, a sanitizer
/// report, a hang) is a finding.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cgra::fuzz {

/// A broken contract: the input made a parser misbehave. Thrown only by the check functions.
class ContractViolation : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// What a check made of an input that kept the contract: accepted (parsed, round trip held), or
/// rejected with the documented error, whose message it keeps. The seed-corpus test holds the
/// committed seeds to their names (a `bad_*` seed must be rejected, any other accepted).
struct Outcome {
  bool rejected = false;
  std::string error;  ///< the documented error's message, when rejected
};

/// Architecture YAML (load_arch_config) plus `--set` overrides: the text up to a line `#--set` is
/// the YAML document; each line after it is one override ("key=value"). Round trip: arch_to_yaml
/// of the result loads back to an equal ArchConfig. Documented error: ConfigError.
Outcome check_arch_config(std::string_view input);

/// DFG assembly (dfg::parse_asm), then find_problems() on what parsed. Round trip: write_asm of
/// the parsed graph parses again and writes the same text. Documented error: dfg::DfgError
/// (AsmParseError is one).
Outcome check_asm(std::string_view input);

/// PE listings (parse_listings, one or more `.pe` sections). Round trip: print_listing of each
/// program parses back to an equal program. Documented error: ListingError.
Outcome check_listing(std::string_view input);

/// .npy bytes (parse_npy). Round trip: encode_npy of the array parses back to the same shape and
/// the same bits. Documented error: FileError.
Outcome check_npy(std::string_view input);

/// Stencil spec YAML (parse_spec_yaml), then the spec it gives merged as cgrasim does with no
/// flags (radius 1 and the default grid where the file says nothing) and validated. Documented
/// error: SpecError. No writer exists, so no round trip; a parsed file's `where` must name a line
/// for every key it gave.
Outcome check_spec(std::string_view input);

/// A check function, as taken by run_fuzz_input.
using CheckFn = Outcome (*)(std::string_view);

/// libFuzzer glue: runs `check` on the input and aborts with the violation on stderr if the
/// contract is broken (libFuzzer then saves the input as a crash).
int run_fuzz_input(CheckFn check, const std::uint8_t* data, std::size_t size);

}  // namespace cgra::fuzz
