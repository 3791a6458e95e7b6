// Every committed seed (fuzz/corpus/<target>/*) through the same contract check its libFuzzer
// target runs, in an ordinary build: the corpora stay valid, and an input that once broke a
// parser (added to the corpus with its fix) stays a regression test.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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

// Names the parameter in test listings (ctest shows it) instead of dumping its bytes.
void PrintTo(const Target& t, std::ostream* os) { *os << t.name; }

class SeedCorpus : public ::testing::TestWithParam<Target> {};

TEST_P(SeedCorpus, EverySeedKeepsTheContract) {
  const auto dir = std::filesystem::path(CGRA_SOURCE_DIR) / "fuzz" / "corpus" / GetParam().name;
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  const std::vector<std::filesystem::path> files = seeds(GetParam());
  EXPECT_GE(files.size(), 3u) << "a seed corpus should hold a few valid and invalid inputs";
  for (const auto& f : files) {
    const std::string bytes = read_bytes(f);
    try {
      GetParam().check(bytes);
    } catch (const ContractViolation& e) {
      ADD_FAILURE() << f.filename() << ": " << e.what();
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
