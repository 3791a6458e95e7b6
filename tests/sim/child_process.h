#pragma once
// A program run as a child process (posix_spawn), as a user would run it from a shell: its exit
// code and what it wrote on stdout and stderr, for the tests that must see the real terminal
// streams (SystemC writes to std::cout directly, which run_cli's streams do not catch).

#include <gtest/gtest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace cgra::test {

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct ChildResult {
  int code = -1;  // exit status; -1 if it did not exit normally
  std::string out, err;
};

/// Runs `argv` (argv[0] a path), stdout and stderr into files of `dir`; waits for it. The
/// environment is inherited (ctest sets ASAN_OPTIONS for the sanitized build).
inline ChildResult run_child(std::vector<std::string> argv_s, const std::filesystem::path& dir) {
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string out_path = (dir / "stdout.txt").string(), err_path = (dir / "stderr.txt").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ChildResult r;
  if (rc != 0) {
    ADD_FAILURE() << "cannot start " << argv[0] << ": " << std::strerror(rc);
    return r;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) r.code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) ADD_FAILURE() << argv_s[0] << " killed by signal " << WTERMSIG(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

}  // namespace cgra::test
