// The bad-input suite (docs/robustness.md): one table of bad command lines, stencil specs,
// architecture files, assembly programs, .npy inputs and output paths, each run in-process
// through run_cli. For every case: the exact exit code, exactly one line on stderr starting
// with "cgrasim: error: " that contains a needle naming the culprit, and nothing left behind in
// the case's temporary directory (no output file, no temporary file of the atomic writer).
//
// The table is in two parts by theme: bad_input_command_line_cases.cpp (command lines, stencil
// specs) and bad_input_file_cases.cpp (architecture files, assembly programs, .npy inputs, output
// paths); bad_input_cases.h declares them.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/cli.h"
#include "sim/exit_codes.h"
#include "tests/sim/bad_input_cases.h"

namespace cgra::bad_input {
namespace {

namespace fs = std::filesystem;

std::vector<Case> cases() {
  std::vector<Case> t = command_line_and_spec_cases();
  std::vector<Case> files = file_cases();
  t.insert(t.end(), std::make_move_iterator(files.begin()), std::make_move_iterator(files.end()));
  return t;
}

std::string substitute(std::string s, const std::string& tmp) {
  for (std::size_t at = s.find("{tmp}"); at != std::string::npos;
       at = s.find("{tmp}", at + tmp.size()))
    s.replace(at, 5, tmp);
  return s;
}

/// 64-bit FNV-1a of a file's bytes.
std::uint64_t content_hash(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::uint64_t h = 0xcbf29ce484222325ull;
  char buf[4096];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    for (std::streamsize i = 0; i < in.gcount(); ++i) {
      h ^= static_cast<unsigned char>(buf[i]);
      h *= 0x100000001b3ull;
    }
  }
  return h;
}

/// Every path under `root`, relative, with what it is: "dir", or a regular file's size and the
/// hash of its bytes (an input replaced by an output shows, even under the same name).
std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const std::string rel = fs::relative(e.path(), root).string();
    if (e.is_directory())
      out[rel] = "dir";
    else if (e.is_regular_file())
      out[rel] = "file of " + std::to_string(e.file_size()) + " bytes, hash " + std::to_string(content_hash(e.path()));
    else
      out[rel] = "other";
  }
  return out;
}

class BadInput : public ::testing::TestWithParam<Case> {};

TEST_P(BadInput, OneLineNamingTheCulpritAndNothingLeftBehind) {
  const Case& c = GetParam();
  const fs::path tmp = fs::temp_directory_path() /
                       ("cgrasim_bad_input_" + c.name + "_" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  for (const InputFile& f : c.files) {
    if (f.directory) {
      fs::create_directories(tmp / f.name);
    } else {
      std::ofstream(tmp / f.name, std::ios::binary) << f.content;
    }
  }
  const std::map<std::string, std::string> before = snapshot(tmp);
  std::vector<std::string> args;
  for (const std::string& a : c.args) args.push_back(substitute(a, tmp.string()));
  const std::string needle = substitute(c.needle, tmp.string());

  std::ostringstream out, err;
  const int code = run_cli(args, out, err);
  const std::string e = err.str();

  EXPECT_EQ(code, c.code) << e;
  EXPECT_NE(code, kExitInternal) << e;
  EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 1) << e;
  EXPECT_TRUE(!e.empty() && e.back() == '\n') << e;
  EXPECT_EQ(e.rfind("cgrasim: error: ", 0), 0u) << e;
  EXPECT_NE(e.find(needle), std::string::npos) << "needle: " << needle << "\nstderr: " << e;
  // Nothing written: no output, no temporary file of the atomic writer, no directory created, and
  // every file the case wrote (an input that an output flag names too) has its bytes unchanged.
  EXPECT_EQ(snapshot(tmp), before);
  fs::remove_all(tmp);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Table, BadInput, ::testing::ValuesIn(cases()), case_name);

TEST(BadInputTable, HasAtLeast45CasesWithUniqueNames) {
  const std::vector<Case> t = cases();
  EXPECT_GE(t.size(), 45u);
  std::set<std::string> names;
  for (const Case& c : t) EXPECT_TRUE(names.insert(c.name).second) << c.name;
}

// docs/robustness.md's table of the cases by group ("| group | cases | what |") counts them as the
// table here holds them: its first two rows (command line, stencil spec) the first part of the
// table, the other rows the second part (bad_input_cases.h).
TEST(BadInputTable, DocsRobustnessCountsEveryCase) {
  std::ifstream f(std::string(CGRA_SOURCE_DIR) + "/docs/robustness.md");
  ASSERT_TRUE(f) << "docs/robustness.md is missing";
  std::vector<std::size_t> counts;
  bool in_table = false;
  for (std::string line; std::getline(f, line);) {
    if (line.rfind("| group | cases | what |", 0) == 0) {
      in_table = true;
      continue;
    }
    if (!in_table || line.rfind("|---", 0) == 0) continue;
    if (line.empty() || line[0] != '|') break;
    const std::size_t a = line.find('|', 1), b = line.find('|', a + 1);
    ASSERT_NE(b, std::string::npos) << line;
    counts.push_back(std::stoul(line.substr(a + 1, b - a - 1)));
  }
  ASSERT_EQ(counts.size(), 6u) << "docs/robustness.md: the table '| group | cases | what |' should have six groups";
  EXPECT_EQ(counts[0] + counts[1], command_line_and_spec_cases().size())
      << "docs/robustness.md: the command-line and spec rows do not count the table's first part";
  EXPECT_EQ(counts[2] + counts[3] + counts[4] + counts[5], file_cases().size())
      << "docs/robustness.md: the architecture, assembly, .npy and output rows do not count the table's second part";
}

// An unwritable output path fails before the simulation starts: the run also asks for a VCD trace
// in a writable place, which SystemC would create the moment the simulation began. The same
// stencil without the bad path does simulate (the trace appears), so the probe can tell. (The
// good run comes last: under ASan a throw after a SystemC run in the same process can raise a
// false stack-use-after-scope, docs/robustness.md.)
TEST(BadInputOutputs, UnwritablePathFailsBeforeSimulating) {
  const fs::path tmp =
      fs::temp_directory_path() / ("cgrasim_bad_input_early_" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  std::ofstream(tmp / "afile") << "x";
  const std::vector<std::string> base = {"--stencil",
                                         "2d",
                                         "--radius",
                                         "2",
                                         "--grid",
                                         "64x32",
                                         "--workers",
                                         "2",
                                         "--quiet",
                                         "--vcd",
                                         (tmp / "probe.vcd").string()};
  for (const char* flag : {"--output", "--json", "--dot", "--asm"}) {
    std::vector<std::string> args = base;
    args.push_back(flag);
    args.push_back((tmp / "afile" / "x").string());
    std::ostringstream out, err;
    EXPECT_EQ(run_cli(args, out, err), kExitError) << flag << ": " << err.str();
    EXPECT_NE(err.str().find(std::string(flag) + ": cannot write"), std::string::npos) << err.str();
    EXPECT_FALSE(fs::exists(tmp / "probe.vcd"))
        << flag << ": the simulation started before the path was checked";
    EXPECT_TRUE(out.str().empty()) << out.str();
  }
  std::ostringstream out, err;
  EXPECT_EQ(run_cli(base, out, err), kExitOk) << err.str();
  EXPECT_TRUE(fs::exists(tmp / "probe.vcd"));
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace cgra::bad_input