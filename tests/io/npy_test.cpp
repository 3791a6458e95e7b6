// .npy reading and writing against bytes laid out by hand as NumPy writes them, and the
// all-or-nothing output file.
#include "io/npy.h"

#include <gtest/gtest.h>

#include "tests/sim/numpy_bytes.h"
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "io/output_file.h"

namespace cgra {
namespace {

using test::numpy_bytes;

TEST(Npy, ReadsWhatNumpyWrites) {
  const NpyArray a = parse_npy(numpy_bytes("(2, 3)", {1, 2, 3, 4, 5, 6.5}), "in.npy");
  EXPECT_EQ(a.shape, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(a.data, (std::vector<double>{1, 2, 3, 4, 5, 6.5}));
  const NpyArray b = parse_npy(numpy_bytes("(3,)", {-1, 0, 1}), "in.npy");
  EXPECT_EQ(b.shape, (std::vector<std::uint64_t>{3}));
}

TEST(Npy, WritesWhatNumpyWrites) {
  NpyArray a{{3}, {-1, 0, 1}};
  EXPECT_EQ(encode_npy(a), numpy_bytes("(3,)", {-1, 0, 1}));
  NpyArray b{{2, 3}, {1, 2, 3, 4, 5, 6.5}};
  EXPECT_EQ(encode_npy(b), numpy_bytes("(2, 3)", {1, 2, 3, 4, 5, 6.5}));
  EXPECT_EQ(encode_npy(b).size() % 8, 0u);
}

TEST(Npy, Version2HeaderIsRead) {
  std::string v1 = numpy_bytes("(2,)", {7, 8});
  std::string dict = v1.substr(10, v1.size() - 10 - 16);
  std::string v2 = "\x93NUMPY";
  v2 += '\x02';
  v2 += '\x00';
  const std::uint32_t n = static_cast<std::uint32_t>(dict.size());
  for (int i = 0; i < 4; ++i) v2 += char((n >> (8 * i)) & 0xff);
  v2 += dict + v1.substr(v1.size() - 16);
  EXPECT_EQ(parse_npy(v2, "v2.npy").data, (std::vector<double>{7, 8}));
}

// Review finding (docs/robustness.md): a header longer than 65535 bytes (here 30000 dimensions)
// was written as version 1.0 with its 16-bit length truncated, so the file did not read back.
TEST(Npy, HeaderTooLongForVersion1IsWrittenAsVersion2) {
  NpyArray a{std::vector<std::uint64_t>(30000, 1), {2.5}};
  const std::string bytes = encode_npy(a);
  EXPECT_EQ(bytes[6], '\x02');
  EXPECT_EQ(bytes.size() % 64, 8u);  // header padded to 64 bytes, then one double
  const NpyArray b = parse_npy(bytes, "long.npy");
  EXPECT_EQ(b.shape, a.shape);
  EXPECT_EQ(b.data, a.data);
  EXPECT_EQ(encode_npy(NpyArray{{2}, {1, 2}})[6], '\x01');
}

TEST(Npy, BadFilesAreErrorsNamingTheFile) {
  const std::string good = numpy_bytes("(4,)", {1, 2, 3, 4});
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"hello", "x.npy: not a .npy file (bad magic)"},
      {good.substr(0, good.size() - 3), "x.npy: truncated .npy data (29 bytes, shape needs 32)"},
      {good + "xx", "x.npy: 2 bytes after the .npy data"},
      {numpy_bytes("(4,)", {1, 2}, "<f4"), "x.npy: bad .npy header: dtype '<f4' is not supported (expected little-endian float64 '<f8')"},
      {numpy_bytes("(2, 2)", {1, 2, 3, 4}, "<f8", true), "x.npy: bad .npy header: Fortran-order arrays are not supported (expected C order)"},
      {good.substr(0, 40), "x.npy: truncated .npy header"},
  };
  for (const auto& [bytes, msg] : cases) {
    try {
      parse_npy(bytes, "x.npy");
      ADD_FAILURE() << "no error for " << msg;
    } catch (const FileError& e) {
      EXPECT_EQ(std::string(e.what()), msg);
    }
  }
}

TEST(OutputFile, AtomicWriteAndRoundTrip) {
  const auto dir = std::filesystem::temp_directory_path() / ("cgrasim_npy_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "grid.npy").string();
  NpyArray a{{2, 2}, {1.5, -2.25, 3, 4}};
  write_npy(path, a);
  const NpyArray b = read_npy(path);
  EXPECT_EQ(b.shape, a.shape);
  EXPECT_EQ(b.data, a.data);
  // Nothing but the target is left behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 1);
  std::filesystem::remove_all(dir);
}

TEST(OutputFile, UnwritablePathIsAnErrorAndLeavesNothing) {
  try {
    write_file_atomic("/nonexistent-dir/out.npy", "data");
    FAIL();
  } catch (const FileError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write '/nonexistent-dir/out.npy': No such file or directory");
  }
  EXPECT_FALSE(std::filesystem::exists("/nonexistent-dir/out.npy"));
  EXPECT_THROW(read_npy("/nonexistent-dir/in.npy"), FileError);
}

}  // namespace
}  // namespace cgra
