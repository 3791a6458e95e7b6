#include "spec/spec_yaml.h"

#include <gtest/gtest.h>

namespace cgra {
namespace {

TEST(SpecYaml, FullSpec) {
  const SpecFile f = parse_spec_yaml(
      "stencil: 2d\nradius_x: 1\nradius_y: 2\ngrid: [64, 32]\nworkers: auto\n"
      "coefficients:\n  x: [0.25, 0.5, 0.25]\n  y: [1, 2, 3, 4]\n", "s.yaml");
  EXPECT_EQ(f.dims, 2u);
  EXPECT_EQ(f.radius_x, 1u);
  EXPECT_EQ(f.radius_y, 2u);
  EXPECT_FALSE(f.radius);
  EXPECT_EQ(f.grid, "64x32");
  EXPECT_EQ(f.workers, "auto");
  EXPECT_EQ(f.coeff_x, (std::vector<double>{0.25, 0.5, 0.25}));
  EXPECT_EQ(f.coeff_y, (std::vector<double>{1, 2, 3, 4}));
}

TEST(SpecYaml, SubsetAndEmpty) {
  const SpecFile f = parse_spec_yaml("coefficients:\n  x: [1, 2, 3]\n", "s.yaml");
  EXPECT_FALSE(f.dims);
  EXPECT_EQ(f.coeff_x.size(), 3u);
  EXPECT_FALSE(parse_spec_yaml("", "s.yaml").dims);
}

TEST(SpecYaml, ErrorsNameFileLineAndKey) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"stencil: 3d\n", "s.yaml:1: 'stencil': expected 1d or 2d, got '3d'"},
      {"radius: 0\n", "s.yaml:1: 'radius': expected a positive integer, got '0'"},
      {"stencil: 1d\nradius: two\n", "s.yaml:2: 'radius': expected a positive integer, got 'two'"},
      {"radious: 3\n", "s.yaml:1: unknown key 'radious' (expected stencil, radius, radius_x, radius_y, grid, workers, coefficients)"},
      {"workers: -1\n", "s.yaml:1: 'workers': expected a positive integer, got '-1'"},
      {"coefficients:\n  z: [1]\n", "s.yaml:2: unknown key 'coefficients.z' (expected x or y)"},
      {"coefficients:\n  x: [1, b]\n", "s.yaml:2: 'coefficients.x': expected a number, got 'b'"},
      {"grid: [1, 2, 3]\n", "s.yaml:1: 'grid': a list needs two sizes [X, Y]"},
      {"radius: 1\nradius: 2\n", "s.yaml:2: duplicate key 'radius'"},
  };
  for (const auto& [yaml, msg] : cases) {
    try {
      parse_spec_yaml(yaml, "s.yaml");
      ADD_FAILURE() << "no error for " << yaml;
    } catch (const SpecError& e) {
      EXPECT_EQ(std::string(e.what()), msg);
    }
  }
  EXPECT_THROW(parse_spec_yaml("stencil: [2d\n", "s.yaml"), SpecError);
  EXPECT_THROW(load_spec_file("/nonexistent/spec.yaml"), SpecError);
}

}  // namespace
}  // namespace cgra
