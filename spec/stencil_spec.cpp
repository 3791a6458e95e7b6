#include "spec/stencil_spec.h"

#include <charconv>

namespace cgra {

unsigned StencilSpec::points() const {
  unsigned p = 1;
  for (unsigned d = 0; d < dims; ++d) p += 2 * radius[d];
  return p;
}

std::uint64_t StencilSpec::grid_points() const {
  std::uint64_t n = 1;
  for (unsigned d = 0; d < dims; ++d) n *= grid[d];
  return n;
}

std::uint64_t StencilSpec::outputs() const {
  std::uint64_t n = 1;
  for (unsigned d = 0; d < dims; ++d) n *= grid[d] - 2 * std::uint64_t(radius[d]);
  return n;
}

std::vector<double> StencilSpec::x_coefficients() const {
  if (!coeff_x.empty()) return coeff_x;
  return std::vector<double>(2 * radius[0] + 1, 1.0 / points());
}

std::vector<double> StencilSpec::y_coefficients() const {
  if (dims < 2) return {};
  if (!coeff_y.empty()) return coeff_y;
  return std::vector<double>(2 * radius[1], 1.0 / points());
}

std::vector<double> StencilSpec::z_coefficients() const {
  if (dims < 3) return {};
  if (!coeff_z.empty()) return coeff_z;
  return std::vector<double>(2 * radius[2], 1.0 / points());
}

void StencilSpec::validate() const {
  static const char* axis[] = {"x", "y", "z"};
  if (dims < 1 || dims > 3)
    throw SpecError("stencil dimensions must be 1, 2 or 3 (got " + std::to_string(dims) + ")");
  for (unsigned d = 0; d < dims; ++d) {
    // 3D stars may leave out y or z (radius 0); x is always there, and a 2D star has both.
    if (radius[d] == 0 && (d == 0 || dims == 2))
      throw SpecError(std::string("radius along ") + axis[d] + " must be at least 1");
    if (grid[d] == 0) throw SpecError(std::string("grid size along ") + axis[d] + " must be positive");
    if (grid[d] <= 2 * std::uint64_t(radius[d]))
      throw SpecError(std::string("grid size along ") + axis[d] + " (" + std::to_string(grid[d]) +
                      ") must exceed twice the radius (" + std::to_string(2 * radius[d]) +
                      ") to leave an interior");
  }
  if (!coeff_x.empty() && coeff_x.size() != 2 * radius[0] + 1)
    throw SpecError("coefficients.x has " + std::to_string(coeff_x.size()) + " values; radius " +
                    std::to_string(radius[0]) + " needs " + std::to_string(2 * radius[0] + 1) + " (offsets -rx..rx)");
  if (dims >= 2 && !coeff_y.empty() && coeff_y.size() != 2 * radius[1])
    throw SpecError("coefficients.y has " + std::to_string(coeff_y.size()) + " values; radius " +
                    std::to_string(radius[1]) + " needs " + std::to_string(2 * radius[1]) +
                    " (offsets -ry..-1, 1..ry)");
  if (dims < 2 && !coeff_y.empty()) throw SpecError("coefficients.y given for a 1d stencil");
  if (dims >= 3 && !coeff_z.empty() && coeff_z.size() != 2 * radius[2])
    throw SpecError("coefficients.z has " + std::to_string(coeff_z.size()) + " values; radius " +
                    std::to_string(radius[2]) + " needs " + std::to_string(2 * radius[2]) +
                    " (offsets -rz..-1, 1..rz)");
  if (dims < 3 && !coeff_z.empty())
    throw SpecError("coefficients.z given for a " + std::to_string(dims) + "d stencil");
  if (time_steps > kMaxTimeSteps)
    throw SpecError("time steps " + std::to_string(time_steps) + " exceed the limit of " +
                    std::to_string(kMaxTimeSteps));
  if (z_readers > 0 && (dims < 3 || radius[2] == 0))
    throw SpecError("z readers " + std::to_string(z_readers) + " given for a stencil without a z part (" +
                    std::to_string(dims) + "d" + (dims >= 3 ? ", rz=0" : "") + ")");
  if (z_readers > 2 * radius[2])
    throw SpecError("z readers " + std::to_string(z_readers) + " exceed the 2rz = " + std::to_string(2 * radius[2]) +
                    " z taps (at most one reader a tap)");
  if (z_readers > 0 && time_steps != 1)
    throw SpecError("z readers " + std::to_string(z_readers) + " given with " +
                    (time_steps == 0 ? std::string("auto") : std::to_string(time_steps)) +
                    " time steps: with T > 1 the z chains take the column stream and there are no z readers");
  constexpr std::uint64_t kMaxPoints = std::uint64_t(1) << 34;  // 128 GiB of doubles
  // The product is checked factor by factor: 4294967296x4294967296 must not wrap to 0 points.
  std::uint64_t points = 1;
  for (unsigned d = 0; d < dims; ++d) {
    if (grid[d] > kMaxPoints / points)
      throw SpecError("grid " + grid_text() + " has more than the supported " +
                      std::to_string(kMaxPoints) + " points");
    points *= grid[d];
  }
}

std::string StencilSpec::describe() const {
  std::string s = std::to_string(dims) + "d, ";
  static const char* axis[] = {"x", "y", "z"};
  for (unsigned d = 0; d < dims; ++d) s += (d ? " r" : "r") + std::string(axis[d]) + "=" + std::to_string(radius[d]);
  s += ", grid " + grid_text();
  if (time_steps != 1) s += ", T=" + (time_steps ? std::to_string(time_steps) : std::string("auto"));
  return s;
}

std::string StencilSpec::grid_text() const {
  std::string s;
  for (unsigned d = 0; d < dims; ++d) {
    if (d) s += 'x';  // appended separately: "x" + to_string(...) trips gcc 12's -Wrestrict at -O3
    s += std::to_string(grid[d]);
  }
  return s;
}

namespace {
bool parse_count(std::string_view t, std::uint64_t& v) {
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && p == t.data() + t.size() && !t.empty();
}
}  // namespace

void parse_grid(const std::string& text, StencilSpec& spec) {
  const auto bad = [&](const std::string& why) {
    return SpecError("bad grid '" + text + "': " + why);
  };
  std::vector<std::uint64_t> sizes;
  std::size_t from = 0;
  for (;;) {
    const auto x = text.find('x', from);
    std::uint64_t n = 0;
    if (!parse_count(std::string_view(text).substr(from, x == std::string::npos ? std::string::npos : x - from), n))
      throw bad("expected N, XxY or XxYxZ with positive integers, e.g. 960x449");
    if (n == 0) throw bad("sizes must be positive");
    sizes.push_back(n);
    if (x == std::string::npos) break;
    if (sizes.size() == 3) throw bad("more than three sizes");
    from = x + 1;
  }
  if (sizes.size() == 1) {
    for (unsigned d = 0; d < spec.dims; ++d) spec.grid[d] = sizes[0];
    return;
  }
  if (sizes.size() == 2 && spec.dims != 2)
    throw bad(std::string("XxY needs a 2d stencil") + (spec.dims == 3 ? " (a 3d grid is XxYxZ)" : ""));
  if (sizes.size() == 3 && spec.dims != 3)
    throw bad("XxYxZ needs a 3d stencil");
  for (std::size_t d = 0; d < sizes.size(); ++d) spec.grid[d] = sizes[d];
}

}  // namespace cgra
