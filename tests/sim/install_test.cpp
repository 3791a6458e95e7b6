// `cmake --install` puts a cgrasim on the PATH that works on its own: the cgrasim component
// installed into a temporary prefix, then that binary run from a folder outside the source and
// build trees, on a small stencil (mapped, simulated, its output checked against the host
// reference) and on the built-in architecture's include of the technology tables.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/sim/child_process.h"

namespace {

namespace fs = std::filesystem;

TEST(Install, TheInstalledBinaryRunsWithoutTheSourceOrBuildTree) {
  const fs::path root = fs::temp_directory_path() / ("cgrasim_install_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "logs");
  const fs::path prefix = root / "prefix";
  const cgra::test::ChildResult inst = cgra::test::run_child(
      {CGRA_CMAKE_COMMAND, "--install", CGRA_BUILD_DIR, "--component", "cgrasim", "--prefix", prefix.string()},
      root / "logs");
  ASSERT_EQ(inst.code, 0) << inst.out << inst.err;
  const fs::path bin = prefix / "bin" / "cgrasim";
  ASSERT_TRUE(fs::is_regular_file(bin)) << bin;
  struct stat st{};
  ASSERT_EQ(::stat(bin.c_str(), &st), 0);
  EXPECT_TRUE(st.st_mode & S_IXUSR) << bin << " is not executable";
  // The installed copy, not the build tree's: a different file with the same bytes.
  EXPECT_FALSE(fs::equivalent(bin, CGRASIM_BINARY));
  EXPECT_EQ(fs::file_size(bin), fs::file_size(CGRASIM_BINARY));

  // Run from an empty folder: nothing relative to the source or build tree can be found from here.
  const fs::path work = root / "work";
  fs::create_directories(work);
  const fs::path old = fs::current_path();
  fs::current_path(work);
  const cgra::test::ChildResult run = cgra::test::run_child(
      {bin.string(), "--stencil", "1d", "--radius", "2", "--grid", "256", "--json", (work / "r.json").string()},
      root / "logs");
  fs::current_path(old);
  ASSERT_EQ(run.code, 0) << run.err;
  const nlohmann::json r = nlohmann::json::parse(cgra::test::slurp(work / "r.json"));
  EXPECT_EQ(r.at("output_check"), "pass");
  EXPECT_EQ(r.at("mismatches"), 0);
  EXPECT_GT(r.at("cycles").get<long>(), 0);
  // The area comes from the technology tables that the built-in paper.yaml includes.
  EXPECT_GT(r.at("cost").at("area_mm2").get<double>(), 0.0);
  fs::remove_all(root);
}

}  // namespace
