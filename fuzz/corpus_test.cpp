// Every committed seed (fuzz/corpus/<target>/*) through the same contract check its libFuzzer
// target runs, in an ordinary build: the corpora stay valid, and an input that once broke a
// parser (added to the corpus with its fix) stays a regression test. Each seed is held to its
// name: a `bad_*` seed must be rejected with the documented error, with the message that says
// why it is bad (kWhyBad below); every other seed, and every project file used as one, must be
// accepted.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz/fuzz_checks.h"

namespace cgra::fuzz {
namespace {

struct Target {
  const char* name;  // fuzz/corpus/<name>/
  CheckFn check;
  // The project's own files of this kind (examples, configs) seed the target too, read where
  // they are rather than copied into the corpus: directories relative to the source tree, and the
  // file extension taken from them ("" = none).
  std::vector<const char*> examples = {};
  const char* ext = "";
};

/// The committed seeds of `t` and the project files named by t.examples.
std::vector<std::filesystem::path> seeds(const Target& t) {
  const std::filesystem::path src(CGRA_SOURCE_DIR);
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(src / "fuzz" / "corpus" / t.name))
    if (e.is_regular_file()) files.push_back(e.path());
  for (const char* d : t.examples)
    for (const auto& e : std::filesystem::directory_iterator(src / d))
      if (e.is_regular_file() && e.path().extension() == t.ext) files.push_back(e.path());
  return files;
}

std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// What each `bad_*` seed is bad for: a fragment of the message it must be rejected with, by
/// "<target>/<file>". A new bad seed needs a line here.
const std::map<std::string, std::string> kWhyBad = {
    {"arch_config/bad_malformed.yaml", "fuzz.yaml:3: malformed YAML"},
    {"arch_config/bad_set_strings.yaml", "--set fabric.rows: expected key=value"},
    {"arch_config/bad_sets_not_pow2.yaml", "'memory.l1.sets': 48 is not a power of two"},
    {"arch_config/bad_unknown_key.yaml", "unknown key 'fabric.rowz'"},
    {"asm/bad_duplicate_name.asm", "duplicate op name 'a'"},
    {"asm/bad_string.asm", "unterminated string"},
    {"asm/bad_values.asm", "malformed NaN"},
    {"listing/bad_operands.lst", "predicate out of range"},
    {"listing/bad_ops.lst", "unknown op at 'fmull'"},
    {"npy/bad_dtype_f4.npy", "dtype '<f4' is not supported"},
    {"npy/bad_fortran.npy", "Fortran-order arrays are not supported"},
    {"npy/bad_magic.npy", "not a .npy file (bad magic)"},
    {"npy/bad_trailing.npy", "3 bytes after the .npy data"},
    {"npy/bad_truncated.npy", "truncated .npy data"},
    {"spec/bad_coefficient_count.yaml", "coefficients.x has 2 values; radius 1 needs 3"},
    {"spec/bad_grid_overflow.yaml", "grid 4294967296x4294967296 has more than the supported"},
    {"spec/bad_kind.yaml", "'stencil': expected 1d, 2d or 3d, got '4d'"},
    {"spec/bad_malformed.yaml", "fuzz.yaml:3: malformed YAML"},
    {"spec/bad_time_steps.yaml", "fuzz.yaml:4: 'time_steps': expected a positive integer up to 64 or 'auto', got '65'"},
    {"spec/bad_unknown_key.yaml", "unknown key 'radiuss'"},
};

bool is_bad_seed(const std::filesystem::path& p) {
  return p.filename().string().rfind("bad_", 0) == 0;
}

// Names the parameter in test listings (ctest shows it) instead of dumping its bytes.
void PrintTo(const Target& t, std::ostream* os) { *os << t.name; }

class SeedCorpus : public ::testing::TestWithParam<Target> {};

TEST_P(SeedCorpus, EverySeedKeepsTheContract) {
  const auto dir = std::filesystem::path(CGRA_SOURCE_DIR) / "fuzz" / "corpus" / GetParam().name;
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  const std::vector<std::filesystem::path> files = seeds(GetParam());
  EXPECT_GE(files.size(), 3u) << "a seed corpus should hold a few valid and invalid inputs";
  unsigned bad = 0, good = 0;
  std::set<std::string> bad_seen;
  for (const auto& f : files) {
    const std::string bytes = read_bytes(f);
    const std::string key = std::string(GetParam().name) + "/" + f.filename().string();
    Outcome outcome;
    try {
      outcome = GetParam().check(bytes);
    } catch (const ContractViolation& e) {
      ADD_FAILURE() << f << ": " << e.what();
      continue;
    }
    if (is_bad_seed(f)) {
      ++bad;
      bad_seen.insert(key);
      EXPECT_TRUE(outcome.rejected) << f << ": named bad_*, but accepted";
      const auto why = kWhyBad.find(key);
      if (why == kWhyBad.end()) {
        ADD_FAILURE() << key << ": a bad seed without a line in kWhyBad; it is rejected with: " << outcome.error;
        continue;
      }
      EXPECT_NE(outcome.error.find(why->second), std::string::npos)
          << f << ": rejected with '" << outcome.error << "', not for '" << why->second << "'";
    } else {
      ++good;
      EXPECT_FALSE(outcome.rejected) << f << ": a valid seed, but rejected: " << outcome.error;
    }
  }
  // Both kinds in every corpus, and no line of kWhyBad for a seed that is gone.
  EXPECT_GE(bad, 2u);
  EXPECT_GE(good, 1u);
  for (const auto& [key, why] : kWhyBad) {
    if (key.rfind(std::string(GetParam().name) + "/", 0) == 0) {
      EXPECT_TRUE(bad_seen.count(key)) << key << " is in kWhyBad but not in the corpus";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fuzz, SeedCorpus,
                         ::testing::Values(Target{"arch_config", check_arch_config, {"configs", "examples/arch"}, ".yaml"},
                                           Target{"asm", check_asm, {"examples/asm"}, ".asm"},
                                           Target{"listing", check_listing}, Target{"npy", check_npy},
                                           Target{"spec", check_spec, {"examples/specs"}, ".yaml"}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace cgra::fuzz
