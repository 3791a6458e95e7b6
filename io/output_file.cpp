#include "io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace cgra {

void write_file_atomic(const std::string& path, std::string_view content) {
  if (path.empty()) throw FileError("cannot write '': empty output path");
  std::string tmpl = path + ".tmp.XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw FileError("cannot write '" + path + "': " + std::strerror(errno));
  const auto fail = [&](int err) {
    ::close(fd);
    ::unlink(name.data());
    throw FileError("cannot write '" + path + "': " + std::strerror(err));
  };
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, 0644) != 0) fail(errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(name.data());
    throw FileError("cannot write '" + path + "': " + std::strerror(err));
  }
  if (std::rename(name.data(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(name.data());
    throw FileError("cannot write '" + path + "': " + std::strerror(err));
  }
}

void check_output_path(const std::string& path, const std::string& flag) {
  const auto fail = [&](const std::string& why) {
    throw FileError(flag + ": cannot write '" + path + "': " + why);
  };
  if (path.empty()) fail("empty output path");
  struct stat st {};
  if ((::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) || path.back() == '/')
    fail(std::strerror(EISDIR));
  // The temporary file write_file_atomic will create: proves the directory exists and is writable.
  std::string tmpl = path + ".tmp.XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(std::strerror(errno));
  ::close(fd);
  ::unlink(name.data());
}

std::string read_file(const std::string& path) {
  // A directory opens as a stream that reads nothing; say what it is instead of "bad magic".
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw FileError("cannot read '" + path + "': " + std::strerror(EISDIR));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileError("cannot open '" + path + "': " + std::strerror(errno));
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw FileError("cannot read '" + path + "'");
  return s.str();
}

}  // namespace cgra
