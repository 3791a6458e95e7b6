#include "io/npy.h"

#include <bit>
#include <cctype>
#include <charconv>
#include <cstring>

#include "io/output_file.h"

namespace cgra {
namespace {

static_assert(std::endian::native == std::endian::little, "the .npy reader assumes a little-endian host");

constexpr std::string_view kMagic = "\x93NUMPY";

/// Minimal parser of the header dict: {'descr': '<f8', 'fortran_order': False, 'shape': (a, b), }
class HeaderParser {
 public:
  HeaderParser(std::string_view h, const std::string& source) : h_(h), source_(source) {}

  void parse(NpyArray& out) {
    bool have_descr = false, have_order = false, have_shape = false;
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') break;
      const std::string key = quoted();
      expect(':');
      skip_space();
      if (key == "descr") {
        const std::string d = quoted();
        if (d != "<f8" && d != "=f8" && d != "f8")
          fail("dtype '" + d + "' is not supported (expected little-endian float64 '<f8')");
        have_descr = true;
      } else if (key == "fortran_order") {
        if (h_.substr(pos_, 5) == "False") pos_ += 5;
        else if (h_.substr(pos_, 4) == "True") fail("Fortran-order arrays are not supported (expected C order)");
        else fail("bad fortran_order value");
        have_order = true;
      } else if (key == "shape") {
        out.shape = shape();
        have_shape = true;
      } else {
        fail("unknown header key '" + key + "'");
      }
      skip_space();
      if (peek() == ',') ++pos_;
    }
    if (!have_descr || !have_order || !have_shape) fail("header lacks descr, fortran_order or shape");
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw FileError(source_ + ": bad .npy header: " + what); }
  char peek() const { return pos_ < h_.size() ? h_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < h_.size() && std::isspace(static_cast<unsigned char>(h_[pos_]))) ++pos_;
  }
  void expect(char c) {
    skip_space();
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string quoted() {
    skip_space();
    const char q = peek();
    if (q != '\'' && q != '"') fail("expected a quoted name");
    const auto end = h_.find(q, pos_ + 1);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string s(h_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return s;
  }
  std::vector<std::uint64_t> shape() {
    expect('(');
    std::vector<std::uint64_t> dims;
    while (true) {
      skip_space();
      if (peek() == ')') {
        ++pos_;
        return dims;
      }
      std::uint64_t v = 0;
      auto [p, ec] = std::from_chars(h_.data() + pos_, h_.data() + h_.size(), v);
      if (ec != std::errc()) fail("bad shape");
      pos_ = static_cast<std::size_t>(p - h_.data());
      dims.push_back(v);
      skip_space();
      if (peek() == ',') ++pos_;
      else if (peek() != ')') fail("bad shape");
    }
  }

  std::string_view h_;
  const std::string& source_;
  std::size_t pos_ = 0;
};

}  // namespace

NpyArray parse_npy(std::string_view bytes, const std::string& source) {
  if (bytes.size() < 10 || bytes.substr(0, 6) != kMagic) throw FileError(source + ": not a .npy file (bad magic)");
  const unsigned major = static_cast<unsigned char>(bytes[6]);
  std::size_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw FileError(source + ": truncated .npy header");
    header_len = 0;
    for (int i = 3; i >= 0; --i) header_len = (header_len << 8) | static_cast<unsigned char>(bytes[8 + i]);
    offset = 12;
  } else {
    throw FileError(source + ": unsupported .npy version " + std::to_string(major));
  }
  if (bytes.size() < offset + header_len) throw FileError(source + ": truncated .npy header");
  NpyArray a;
  HeaderParser(bytes.substr(offset, header_len), source).parse(a);
  std::uint64_t count = 1;
  for (std::uint64_t d : a.shape) {
    if (d != 0 && count > (std::uint64_t(1) << 40) / d) throw FileError(source + ": .npy shape too large");
    count *= d;
  }
  const std::size_t data_at = offset + header_len;
  const std::uint64_t have = bytes.size() - data_at;
  if (have < count * 8)
    throw FileError(source + ": truncated .npy data (" + std::to_string(have) + " bytes, shape needs " +
                    std::to_string(count * 8) + ")");
  if (have > count * 8) throw FileError(source + ": " + std::to_string(have - count * 8) + " bytes after the .npy data");
  a.data.resize(count);
  if (count) std::memcpy(a.data.data(), bytes.data() + data_at, count * 8);
  return a;
}

NpyArray read_npy(const std::string& path) { return parse_npy(read_file(path), path); }

std::string encode_npy(const NpyArray& a) {
  std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (";
  for (std::size_t i = 0; i < a.shape.size(); ++i) dict += (i ? ", " : "") + std::to_string(a.shape[i]);
  if (a.shape.size() == 1) dict += ',';  // a Python 1-tuple
  dict += "), }";
  // Version 1.0 stores the header length in 16 bits; a longer header (thousands of dimensions)
  // needs 2.0 and its 32-bit length, as numpy.save does.
  const bool v2 = dict.size() + 1 + 63 > 0xffff;  // newline + up to 63 padding spaces
  const std::size_t prefix = v2 ? 12 : 10;
  // Pad with spaces and end with a newline so that magic + length + header is a multiple of 64.
  std::size_t total = prefix + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::string out(kMagic);
  out += v2 ? '\x02' : '\x01';
  out += '\x00';
  for (std::size_t i = 0; i < prefix - 8; ++i) out += static_cast<char>((dict.size() >> (8 * i)) & 0xff);
  out += dict;
  out.append(reinterpret_cast<const char*>(a.data.data()), a.data.size() * 8);
  return out;
}

void write_npy(const std::string& path, const NpyArray& a) { write_file_atomic(path, encode_npy(a)); }

}  // namespace cgra
