#include "mapper/host_layout.h"

#include <algorithm>
#include <cstddef>

namespace cgra {

HostLayout default_host_layout(const StencilSpec& spec, std::uint64_t cache_way_bytes, std::uint64_t line_bytes) {
  HostLayout l;
  l.plane_points = spec.plane_points();
  l.planes = spec.dims >= 3 ? spec.grid[2] : 1;
  l.plane_pitch = l.plane_points;
  if (spec.dims >= 3 && l.planes > 1 && cache_way_bytes >= 2 * line_bytes && line_bytes >= 8) {
    const std::uint64_t lines = cache_way_bytes / line_bytes;
    const std::uint64_t target = (static_cast<std::uint64_t>(0.618 * double(lines)) | 1) * line_bytes;
    const std::uint64_t shift = (8 * l.plane_points) % cache_way_bytes;
    const std::uint64_t pad = (target + cache_way_bytes - shift) % cache_way_bytes;
    l.plane_pitch += (pad + 7) / 8;
  }
  if (spec.time_steps > 1) l.margin = std::uint64_t{spec.radius[0]} * (spec.time_steps - 1);
  l.grid_bytes = l.words() * 8;
  l.input_base = 64 * 1024;
  const std::uint64_t end = l.input_base + l.grid_bytes;
  l.output_base = (end + 4095) / 4096 * 4096 + 4096;
  return l;
}

std::vector<double> HostLayout::to_memory(const std::vector<double>& grid) const {
  if (!padded()) return grid;
  std::vector<double> image(words(), 0.0);
  for (std::uint64_t z = 0; z < planes; ++z)
    std::copy_n(grid.begin() + static_cast<std::ptrdiff_t>(z * plane_points), plane_points,
                image.begin() + static_cast<std::ptrdiff_t>(margin + z * plane_pitch));
  return image;
}

std::vector<double> HostLayout::from_memory(const std::vector<double>& image) const {
  if (!padded()) return image;
  std::vector<double> grid(planes * plane_points);
  for (std::uint64_t z = 0; z < planes; ++z)
    std::copy_n(image.begin() + static_cast<std::ptrdiff_t>(margin + z * plane_pitch), plane_points,
                grid.begin() + static_cast<std::ptrdiff_t>(z * plane_points));
  return grid;
}

}  // namespace cgra
