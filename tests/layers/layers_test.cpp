// The layers point one way (docs/architecture.md, "Layers"): every source under the layer
// folders includes only its own layer and the lower layers its row of layer_rules.h allows, and
// every top-level folder holding sources is a layer or beside the layers.
#include "tests/layers/layer_rules.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace cgra::layers {
namespace {

namespace fs = std::filesystem;

std::string joined(const std::vector<Violation>& vs) {
  std::string s;
  for (const Violation& v : vs) s += to_string(v) + "\n";
  return s;
}

std::string joined(const std::vector<std::string>& folders) {
  std::string s;
  for (const std::string& f : folders)
    s += f +
         "/ holds sources but is neither a row of the layer table nor "
         "beside the layers (tests/layers/layer_rules.h, docs/architecture.md)\n";
  return s;
}

TEST(Layers, TheSourceTreeIncludesOnlyDownward) {
  const TreeReport report = check_tree(CGRA_SOURCE_DIR);
  EXPECT_TRUE(report.violations.empty()) << joined(report.violations);
  EXPECT_TRUE(report.unplaced_folders.empty()) << joined(report.unplaced_folders);
  // Every folder beside the layers is there, so the list cannot keep a folder that went away.
  for (const std::string& f : beside())
    EXPECT_TRUE(fs::is_directory(fs::path(CGRA_SOURCE_DIR) / f))
        << f << "/ is listed beside the layers but missing";
  // Every row of the table holds sources, so a renamed folder cannot drop out of the check.
  std::set<std::string> seen;
  for (const std::string& s : report.sources) seen.insert(layer_of(s));
  for (const Layer& l : table()) EXPECT_TRUE(seen.contains(l.name)) << l.name << " holds no source";
  EXPECT_GT(report.sources.size(), 100u);
}

TEST(Layers, TheTablePointsDown) {
  std::set<std::string> names;
  for (const Layer& l : table()) {
    EXPECT_TRUE(names.insert(l.name).second) << l.name << " twice";
    for (const std::string& dep : l.may_include) {
      const Layer* d = find_layer(dep);
      ASSERT_NE(d, nullptr) << l.name << " lists " << dep;
      EXPECT_LT(d->rank, l.rank) << l.name << " may include " << dep;
    }
  }
}

// docs/architecture.md shows this table ("Layers"): each row's rank, folder and the other
// layers it includes, as backquoted names in the last column.
TEST(Layers, TheDocumentedTableIsThisTable) {
  std::ifstream in(std::string(CGRA_SOURCE_DIR) + "/docs/architecture.md");
  ASSERT_TRUE(in) << "docs/architecture.md";
  static const std::regex row(R"(^\| *(\d+) *\| *`([^`]+)` *\|.*\|([^|]*)\| *$)");
  static const std::regex name("`([^`]+)`");
  std::map<std::string, std::pair<int, std::set<std::string>>> documented;
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    std::string folder = m[2].str();
    if (folder.ends_with("/")) folder.pop_back();
    std::set<std::string> includes;
    const std::string cell = m[3].str();
    for (auto it = std::sregex_iterator(cell.begin(), cell.end(), name);
         it != std::sregex_iterator(); ++it) {
      std::string n = (*it)[1].str();
      if (n.ends_with("/")) n.pop_back();
      if (find_layer(n) && n != folder) includes.insert(n);
    }
    documented[folder] = {std::stoi(m[1].str()), includes};
  }
  ASSERT_EQ(documented.size(), table().size());
  for (const Layer& l : table()) {
    ASSERT_TRUE(documented.contains(l.name)) << l.name << " is not in the document's table";
    EXPECT_EQ(documented[l.name].first, l.rank) << l.name;
    EXPECT_EQ(documented[l.name].second,
              std::set<std::string>(l.may_include.begin(), l.may_include.end()))
        << l.name;
  }
}

// docs/architecture.md's second table ("Beside the layers") names these folders, as backquoted
// names in its first column, and none of them is a layer.
TEST(Layers, TheDocumentedBesideTableIsThisList) {
  std::ifstream in(std::string(CGRA_SOURCE_DIR) + "/docs/architecture.md");
  ASSERT_TRUE(in) << "docs/architecture.md";
  static const std::regex row(R"(^\|([^|]*)\|.*\|.*\| *$)");
  static const std::regex name("`([^`]+)/`");
  std::set<std::string> documented;
  std::string line;
  bool in_table = false, seen_table = false;
  while (std::getline(in, line)) {
    if (line.starts_with("Beside the layers")) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    std::smatch m;
    if (!std::regex_match(line, m, row)) {
      if (seen_table) break;  // the line after the table
      continue;
    }
    seen_table = true;
    const std::string cell = m[1].str();
    for (auto it = std::sregex_iterator(cell.begin(), cell.end(), name);
         it != std::sregex_iterator(); ++it)
      documented.insert((*it)[1].str());
  }
  EXPECT_EQ(documented, std::set<std::string>(beside().begin(), beside().end()));
  for (const std::string& f : beside())
    EXPECT_EQ(find_layer(f), nullptr) << f << " is a layer and beside them";
}

TEST(Layers, ALayerIsTheLongestFolderOrFileHoldingThePath) {
  EXPECT_EQ(layer_of("sim/cli.cpp"), "sim");
  EXPECT_EQ(layer_of("sim/main.cpp"), "sim/main.cpp");
  EXPECT_EQ(layer_of("sim/model/fabric.h"), "sim/model");
  EXPECT_EQ(layer_of("sim/study/plot.cpp"), "sim/study");
  EXPECT_EQ(layer_of("dfg/impl/asm_text.h"), "dfg");
  EXPECT_EQ(layer_of("common/word.h"), "common");
  EXPECT_EQ(layer_of("tests/pe/pe_harness.h"), "");
  EXPECT_EQ(layer_of("mapperx/a.h"), "");
  EXPECT_EQ(layer_of("pe"), "");
}

TEST(Layers, QuotedAndSystemCIncludesAreRead) {
  const auto incs = parse_includes(
      "#include \"pe/isa.h\"\n"
      "  #  include \"dfg/graph.h\"  // trailing\n"
      "#include <vector>\n"
      "#include <systemc>\n"
      "// #include \"mapper/placement.h\" (a comment, not an include)\n"
      "#define X 1\n");
  ASSERT_EQ(incs.size(), 3u);
  EXPECT_EQ(incs[0].target, "pe/isa.h");
  EXPECT_EQ(incs[0].line, 1);
  EXPECT_EQ(incs[1].target, "dfg/graph.h");
  EXPECT_EQ(incs[2].target, "<systemc>");
  EXPECT_EQ(incs[2].line, 4);
}

TEST(Layers, AngledIncludesOfAProjectFolderAreRead) {
  const std::string text =
      "#include <mapper/binding.h>\n"
      "#include <vector>\n"
      "#include <boost/graph/adjacency_list.hpp>\n"
      "  # include <tests/pe/pe_harness.h>\n"
      "#include <systemc>\n"
      "#include <newlib/x.h>\n"
      "#include <nlohmann/json.hpp>\n";
  // The known top-level folders: the layers' and those beside them.
  auto incs = parse_includes(text);
  ASSERT_EQ(incs.size(), 3u);
  EXPECT_EQ(incs[0].target, "mapper/binding.h");
  EXPECT_TRUE(incs[0].angled);
  EXPECT_EQ(incs[0].line, 1);
  EXPECT_EQ(incs[1].target, "tests/pe/pe_harness.h");
  EXPECT_TRUE(incs[1].angled);
  EXPECT_EQ(incs[1].line, 4);
  EXPECT_EQ(incs[2].target, "<systemc>");
  EXPECT_FALSE(incs[2].angled);
  // A tree's own top-level folder is a project folder too.
  incs = parse_includes(text, {"newlib"});
  ASSERT_EQ(incs.size(), 2u);
  EXPECT_EQ(incs[0].target, "<systemc>");
  EXPECT_EQ(incs[1].target, "newlib/x.h");
  EXPECT_EQ(incs[1].line, 6);
  EXPECT_EQ(spelled(incs[1]), "<newlib/x.h>");
}

TEST(Layers, AngledProjectIncludesAreCheckedLikeQuotedOnes) {
  // Up: a PE header reaching into the mapper through angle brackets.
  auto v = check_source("pe/isa.h", "#include <common/word.h>\n#include <mapper/binding.h>\n");
  ASSERT_EQ(v.size(), 1u) << joined(v);
  EXPECT_EQ(v[0].line, 2);
  EXPECT_EQ(v[0].target, "<mapper/binding.h>");
  EXPECT_EQ(v[0].why, "pe includes mapper, a higher layer");
  // Sideways, and outside every layer.
  v = check_source("network/network.cpp",
                   "#include <mem/dram.h>\n#include <tests/mapper/dfg_interpreter.h>\n");
  ASSERT_EQ(v.size(), 2u) << joined(v);
  EXPECT_EQ(v[0].why, "network includes mem, a layer beside it");
  EXPECT_EQ(v[1].why, "not a header of a layer folder");
  // Allowed the same way as quoted: own layer, listed lower layers; third-party headers unread.
  EXPECT_TRUE(
      check_source(
          "lowering/lowering.cpp",
          "#include <lowering/lowering.h>\n#include <mapper/binding.h>\n#include <fmt/format.h>\n")
          .empty());
}

TEST(Layers, UpwardSidewaysAndUnlistedIncludesAreViolations) {
  // Up: a PE header reaching into the mapper.
  auto v = check_source("pe/isa.h", "#include \"common/word.h\"\n#include \"mapper/binding.h\"\n");
  ASSERT_EQ(v.size(), 1u) << joined(v);
  EXPECT_EQ(v[0].line, 2);
  EXPECT_NE(v[0].why.find("higher"), std::string::npos) << v[0].why;
  // Sideways: the network reaching into the memory system.
  v = check_source("network/network.cpp", "#include \"mem/dram.h\"\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].why.find("beside"), std::string::npos) << v[0].why;
  // Down, but not in the row: the study reaching past sim/ into the model.
  v = check_source("sim/study/plot.cpp", "#include \"sim/model/fabric.h\"\n");
  ASSERT_EQ(v.size(), 1u);
  // Outside every layer: tests, bench, fuzz.
  v = check_source("mapper/predict.cpp", "#include \"tests/mapper/dfg_interpreter.h\"\n");
  ASSERT_EQ(v.size(), 1u);
  // SystemC outside the model.
  v = check_source("sim/report.h", "#include <systemc>\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(check_source("sim/model/channels.h", "#include <systemc>\n").empty());
  // Allowed: own layer, listed lower layers; unchecked: files outside the layers.
  EXPECT_TRUE(check_source("lowering/lowering.cpp",
                           "#include \"lowering/lowering.h\"\n#include \"mapper/binding.h\"\n")
                  .empty());
  EXPECT_TRUE(
      check_source("sim/main.cpp", "#include \"sim/cli.h\"\n#include \"sim/study/study_cli.h\"\n")
          .empty());
  EXPECT_TRUE(check_source("tests/pe/x.cpp", "#include \"sim/cli.h\"\n").empty());
}

TEST(Layers, ACheckOfASyntheticTreeFindsItsViolation) {
  std::random_device rd;
  const fs::path root = fs::temp_directory_path() / ("cgra_layers_" + std::to_string(rd()));
  fs::create_directories(root / "pe");
  fs::create_directories(root / "mapper");
  fs::create_directories(root / "tests");
  auto write = [&](const std::string& rel, const std::string& text) {
    std::ofstream(root / rel) << text;
  };
  write("pe/isa.h", "#pragma once\n#include \"common/word.h\"\n");
  write("pe/programs.cpp", "#include \"pe/isa.h\"\n\n#include \"mapper/placement.h\"\n");
  write("mapper/placement.h", "#include \"dfg/graph.h\"\n");
  write("tests/t.cpp", "#include \"sim/cli.h\"\n");
  write("pe/notes.txt", "#include \"sim/cli.h\"\n");
  const TreeReport report = check_tree(root);
  fs::remove_all(root);
  EXPECT_EQ(report.sources,
            (std::vector<std::string>{"mapper/placement.h", "pe/isa.h", "pe/programs.cpp"}));
  ASSERT_EQ(report.violations.size(), 1u) << joined(report.violations);
  EXPECT_EQ(report.violations[0].file, "pe/programs.cpp");
  EXPECT_EQ(report.violations[0].line, 3);
  EXPECT_EQ(report.violations[0].target, "\"mapper/placement.h\"");
}

TEST(Layers, EveryTopLevelFolderOfSourcesIsALayerOrBesideThem) {
  std::random_device rd;
  const fs::path root = fs::temp_directory_path() / ("cgra_layers_" + std::to_string(rd()));
  auto write = [&](const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  };
  write("pe/isa.h", "#pragma once\n#include \"common/word.h\"\n");
  // A new top-level folder of sources in no list, including upward: named, whatever it includes.
  write("newlib/x.cpp", "#include \"sim/cli.h\"\n");
  // A folder holding only a template (.in) is a folder of sources as well.
  write("templ/deep/version.h.in", "#define V 1\n");
  // Beside the layers, no sources, hidden, build trees: neither named nor read.
  write("tests/t.cpp", "#include \"sim/cli.h\"\n");
  write("bench/b.cpp", "#include \"sim/cli.h\"\n");
  write("docs/notes.md", "#include \"sim/cli.h\"\n");
  write(".cache/a.cpp", "#include \"sim/cli.h\"\n");
  write("build-asan/CMakeFiles/c.cpp", "#include \"sim/cli.h\"\n");
  write("mybuild/CMakeCache.txt", "\n");
  write("mybuild/gen/g.cpp", "#include \"sim/cli.h\"\n");
  const TreeReport report = check_tree(root);
  fs::remove_all(root);
  EXPECT_EQ(report.unplaced_folders, (std::vector<std::string>{"newlib", "templ"}));
  EXPECT_EQ(report.sources, (std::vector<std::string>{"pe/isa.h"}));
  EXPECT_TRUE(report.violations.empty()) << joined(report.violations);
}

TEST(Layers, AnAngledIncludeOfATopLevelFolderOfTheTreeIsAProjectInclude) {
  std::random_device rd;
  const fs::path root = fs::temp_directory_path() / ("cgra_layers_" + std::to_string(rd()));
  auto write = [&](const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  };
  write("pe/isa.h", "#pragma once\n#include <common/word.h>\n#include <vector>\n");
  write("pe/programs.cpp",
        "#include <pe/isa.h>\n#include <vendor/lib.h>\n#include <mapper/binding.h>\n");
  write("mapper/binding.h", "#pragma once\n#include <dfg/graph.h>\n#include <fmt/format.h>\n");
  // vendor/ is a top-level folder of this tree that no table knows (so it is named as well):
  // <vendor/lib.h> is read as a project include all the same, of no layer.
  write("vendor/lib.h", "#pragma once\n");
  const TreeReport report = check_tree(root);
  fs::remove_all(root);
  EXPECT_EQ(report.unplaced_folders, (std::vector<std::string>{"vendor"}));
  EXPECT_EQ(report.sources,
            (std::vector<std::string>{"mapper/binding.h", "pe/isa.h", "pe/programs.cpp"}));
  ASSERT_EQ(report.violations.size(), 2u) << joined(report.violations);
  EXPECT_EQ(to_string(report.violations[0]),
            "pe/programs.cpp:2: #include <vendor/lib.h>: not a header of a layer folder");
  EXPECT_EQ(to_string(report.violations[1]),
            "pe/programs.cpp:3: #include <mapper/binding.h>: pe includes mapper, a higher layer");
}

}  // namespace
}  // namespace cgra::layers
