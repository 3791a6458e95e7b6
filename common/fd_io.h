#pragma once
/// \file fd_io.h
/// Whole transfers on a pipe or a stream socket, across short reads and writes and signals: the
/// messages between the command and the processes it forks (sim/cli_slab_jobs.h,
/// sim/study/point_launcher.h).

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace cgra {

/// Writes all of `n` bytes; false when the other end is gone. `socket`: `fd` is a socket, written
/// with MSG_NOSIGNAL, so that a reader gone is this false and not SIGPIPE.
inline bool write_full(int fd, const void* data, std::size_t n, bool socket = false) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = socket ? ::send(fd, p, n, MSG_NOSIGNAL) : ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

/// Reads exactly `n` bytes; false at the end of the stream (or an error) before them.
inline bool read_full(int fd, void* data, std::size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

}  // namespace cgra
