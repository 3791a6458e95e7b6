// docs/tutorial.md and README.md run as written: every ```console block's `$ ` commands run in order, in one
// empty folder with the source tree's examples/ beside them and the built cgrasim on the PATH,
// and each command's output (stdout and stderr) must match the lines the page shows after it. A
// line "..." stands for any lines (none included), "..." inside a line for any text. So a figure
// the page shows cannot drift from what the product prints: the test names the block and shows
// both outputs.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Command {
  std::size_t line = 0;  // of the `$ ` line in the page
  std::string text;
  std::vector<std::string> expected;
};

/// The commands of every ```console block of `page`, in order.
std::vector<Command> console_commands(const std::string& page) {
  std::vector<Command> out;
  std::istringstream in(page);
  bool inside = false;
  std::size_t n = 0;
  for (std::string l; std::getline(in, l);) {
    ++n;
    if (!inside) {
      inside = l == "```console";
    } else if (l.rfind("```", 0) == 0) {
      inside = false;
    } else if (l.rfind("$ ", 0) == 0) {
      out.push_back({n, l.substr(2), {}});
    } else if (!out.empty()) {
      out.back().expected.push_back(l);
    }
  }
  return out;
}

/// An expected line as a regex: "..." any text, everything else literal.
std::regex line_pattern(const std::string& e) {
  std::string re;
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (e.compare(i, 3, "...") == 0) {
      re += ".*";
      i += 2;
    } else {
      if (std::string("\\^$.|?*+()[]{}").find(e[i]) != std::string::npos) re += '\\';
      re += e[i];
    }
  }
  return std::regex(re);
}

/// Whether `got[g..]` matches `want[w..]` ("..." lines match any run of lines).
bool matches(const std::vector<std::string>& want, std::size_t w, const std::vector<std::string>& got, std::size_t g) {
  if (w == want.size()) return g == got.size();
  if (want[w] == "...") {
    for (std::size_t k = g; k <= got.size(); ++k)
      if (matches(want, w + 1, got, k)) return true;
    return false;
  }
  return g < got.size() && std::regex_match(got[g], line_pattern(want[w])) && matches(want, w + 1, got, g + 1);
}

std::vector<std::string> run(const fs::path& dir, const std::string& command) {
  const std::string bin_dir = fs::path(CGRASIM_BINARY).parent_path().string();
  const std::string shell = "cd '" + dir.string() + "' && PATH='" + bin_dir + "':\"$PATH\" sh -c '" + command + "' 2>&1";
  std::vector<std::string> lines;
  FILE* p = popen(shell.c_str(), "r");
  if (!p) return {"popen failed"};
  std::string all;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) all.append(buf, n);
  pclose(p);
  std::istringstream in(all);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& l : v) s += "    " + l + "\n";
  return s;
}

/// Runs every command of `page` (relative to the source tree) and matches its output.
void check_page(const std::string& page_name) {
  std::ifstream f(std::string(CGRA_SOURCE_DIR) + "/" + page_name);
  ASSERT_TRUE(f) << page_name;
  std::ostringstream page;
  page << f.rdbuf();
  const auto commands = console_commands(page.str());
  ASSERT_FALSE(commands.empty()) << page_name;
  const fs::path dir = fs::temp_directory_path() / ("cgrasim_doc_commands_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::create_directory_symlink(fs::path(CGRA_SOURCE_DIR) / "examples", dir / "examples");
  for (const auto& c : commands) {
    ASSERT_EQ(c.text.find('\''), std::string::npos) << page_name << ":" << c.line << ": no single quotes, please";
    const auto got = run(dir, c.text);
    EXPECT_TRUE(matches(c.expected, 0, got, 0))
        << page_name << ":" << c.line << ": $ " << c.text << "\n  the page shows:\n"
        << join(c.expected) << "  the command printed:\n"
        << join(got);
  }
  fs::remove_all(dir);
}

TEST(Tutorial, EveryCommandPrintsWhatThePageShows) {
  check_page("docs/tutorial.md");
}

// The README's example: the paper's 2D case (about 9 s).
TEST(Readme, TheExamplePrintsWhatThePageShows) {
  check_page("README.md");
}

TEST(Tutorial, TheMatcherTellsLinesApart) {
  // The matcher itself, on cases worked out by hand.
  const std::vector<std::string> got = {"a 1.2 s", "b", "c", "d"};
  EXPECT_TRUE(matches({"a ... s", "b", "c", "d"}, 0, got, 0));
  EXPECT_TRUE(matches({"a ...", "...", "d"}, 0, got, 0));
  EXPECT_TRUE(matches({"...", "b", "...", "d"}, 0, got, 0));
  EXPECT_TRUE(matches({"a 1.2 s", "b", "c", "d", "..."}, 0, got, 0));  // "..." may stand for no line
  EXPECT_FALSE(matches({"a 1.2 s", "b", "c"}, 0, got, 0));             // a line missing
  EXPECT_FALSE(matches({"a 1.3 s", "...", }, 0, got, 0));              // a figure changed
  EXPECT_FALSE(matches({"a 1.2 s", "c", "b", "d"}, 0, got, 0));        // lines swapped
  EXPECT_FALSE(matches({"a 1x2 s", "..."}, 0, got, 0));                // '.' is a dot, not any character
}

}  // namespace
