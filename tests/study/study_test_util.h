#pragma once
// What the study suites' end-to-end tests share: a temporary folder per test, a shell line run in
// it with its output kept, a SQLite query read back as text, and the processes left in a folder.

#include <gtest/gtest.h>

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "io/output_file.h"

namespace cgra::study_test {

/// A fresh folder named after the running test (`prefix` + test name + pid), removed afterwards.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix) {
    path = std::filesystem::temp_directory_path() /
           (prefix + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string operator/(const std::string& f) const { return (path / f).string(); }
};

struct Proc {
  int code;
  std::string out, err;
};

/// Runs `command` (a shell line) in `dir`; stdout and stderr kept.
inline Proc shell(const TempDir& dir, const std::string& command) {
  const std::string line = "cd '" + dir.path.string() + "' && " + command + " > stdout.txt 2> stderr.txt";
  const int status = std::system(line.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(dir / "stdout.txt"), read_file(dir / "stderr.txt")};
}

/// Rows of a query, every column as text ("NULL" for null).
inline std::vector<std::vector<std::string>> query(const std::string& db, const std::string& sql) {
  sqlite3* h = nullptr;
  EXPECT_EQ(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  std::vector<std::vector<std::string>> rows;
  if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << sqlite3_errmsg(h) << " in " << sql;
  } else {
    while (sqlite3_step(st) == SQLITE_ROW) {
      std::vector<std::string> r;
      for (int i = 0; i < sqlite3_column_count(st); ++i)
        r.push_back(sqlite3_column_type(st, i) == SQLITE_NULL ? "NULL"
                                                               : reinterpret_cast<const char*>(sqlite3_column_text(st, i)));
      rows.push_back(r);
    }
  }
  sqlite3_finalize(st);
  sqlite3_close(h);
  return rows;
}

/// The processes (their pids) whose working directory is `dir`.
inline std::vector<std::string> processes_in(const std::filesystem::path& dir) {
  std::vector<std::string> pids;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code ec2;
    const auto cwd = std::filesystem::read_symlink(e.path() / "cwd", ec2);
    if (!ec2 && cwd == dir) pids.push_back(name);
  }
  return pids;
}

}  // namespace cgra::study_test
