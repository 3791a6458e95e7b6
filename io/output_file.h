#pragma once
/// \file output_file.h
/// Writing output files all or nothing: the content goes to a temporary file beside the target,
/// which is renamed over the target only when complete, so a failed run never leaves a partial file.

#include <stdexcept>
#include <string>
#include <string_view>

#include "common/error.h"

namespace cgra {

/// An input or output file that cannot be read, written or understood, naming the file.
class FileError : public Error {
 public:
  explicit FileError(const std::string& what) : Error(ErrorKind::BadInput, what) {}
};

/// Writes `content` to `path` atomically (temporary file + rename). Throws FileError naming the
/// path and the reason when it cannot; the target is then left as it was.
void write_file_atomic(const std::string& path, std::string_view content);

/// Checks, before any work is done, that write_file_atomic(path, ...) can create its temporary
/// file beside `path` and that `path` is not a directory; leaves nothing behind. Throws
/// FileError "<flag>: cannot write '<path>': <reason>" otherwise. A run calls it for every output
/// file first, so an unwritable path fails in milliseconds instead of after a long simulation.
void check_output_path(const std::string& path, const std::string& flag);

/// Reads a whole file; throws FileError naming the path when it cannot (a directory included).
std::string read_file(const std::string& path);

}  // namespace cgra
