#include "spec/spec_yaml.h"

#include <gtest/gtest.h>

#include <array>

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

TEST(SpecYaml, ZReadersAreANumberOrAuto) {
  EXPECT_EQ(parse_spec_yaml("z_readers: 3\n", "s.yaml").z_readers, std::optional<unsigned>(3));
  EXPECT_EQ(parse_spec_yaml("z_readers: auto\n", "s.yaml").z_readers, std::optional<unsigned>(0));
  EXPECT_FALSE(parse_spec_yaml("stencil: 3d\n", "s.yaml").z_readers);
}

TEST(SpecYaml, ErrorsNameFileLineAndKey) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"stencil: 4d\n", "s.yaml:1: 'stencil': expected 1d, 2d or 3d, got '4d'"},
      {"radius: 0\n", "s.yaml:1: 'radius': expected a positive integer, got '0'"},
      {"stencil: 1d\nradius: two\n", "s.yaml:2: 'radius': expected a positive integer, got 'two'"},
      {"radious: 3\n", "s.yaml:1: unknown key 'radious' (did you mean 'radius'? expected stencil, radius, radius_x, radius_y, radius_z, grid, workers, time_steps, z_readers, coefficients)"},
      {"workers: -1\n", "s.yaml:1: 'workers': expected a positive integer, got '-1'"},
      {"coefficients:\n  w: [1]\n", "s.yaml:2: unknown key 'coefficients.w' (expected x, y or z)"},
      {"coefficients:\n  z: [1, c]\n", "s.yaml:2: 'coefficients.z': expected a number, got 'c'"},
      {"coefficients: [1, 2]\n", "s.yaml:1: 'coefficients': expected a map with x, y and/or z lists"},
      {"coefficients:\n  x: [1, b]\n", "s.yaml:2: 'coefficients.x': expected a number, got 'b'"},
      {"grid: [1, 2, 3, 4]\n", "s.yaml:1: 'grid': a list needs two sizes [X, Y] or three [X, Y, Z]"},
      {"grid: [7]\n", "s.yaml:1: 'grid': a list needs two sizes [X, Y] or three [X, Y, Z]"},
      {"grid: [7, 0, 3]\n", "s.yaml:1: 'grid': expected a positive integer, got '0'"},
      {"radius_x: 0\n", "s.yaml:1: 'radius_x': expected a positive integer, got '0'"},
      {"radius_y: -1\n", "s.yaml:1: 'radius_y': expected a non-negative integer, got '-1'"},
      {"stencil: 3d\nradius_z: z\n", "s.yaml:2: 'radius_z': expected a non-negative integer, got 'z'"},
      {"radius_z: 1\nradius_z: 2\n", "s.yaml:2: duplicate key 'radius_z'"},
      {"radius: 1\nradius: 2\n", "s.yaml:2: duplicate key 'radius'"},
      {"stencil: 1d\ntime_steps: 0\n", "s.yaml:2: 'time_steps': expected a positive integer up to 64 or 'auto', got '0'"},
      {"time_steps: 65\n", "s.yaml:1: 'time_steps': expected a positive integer up to 64 or 'auto', got '65'"},
      {"time_steps: -1\n", "s.yaml:1: 'time_steps': expected a positive integer up to 64 or 'auto', got '-1'"},
      {"time_steps: 1.5\n", "s.yaml:1: 'time_steps': expected a positive integer up to 64 or 'auto', got '1.5'"},
      {"time_steps: x\n", "s.yaml:1: 'time_steps': expected a positive integer up to 64 or 'auto', got 'x'"},
      {"time_steps: [2]\n", "s.yaml:1: 'time_steps': expected a single value"},
      {"time_steps: 2\ntime_steps: 3\n", "s.yaml:2: duplicate key 'time_steps'"},
      {"z_readers: 0\n", "s.yaml:1: 'z_readers': expected a positive integer, got '0'"},
      {"z_readers: two\n", "s.yaml:1: 'z_readers': expected a positive integer, got 'two'"},
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


TEST(SpecYaml, ThreeDimensional) {
  const SpecFile f = parse_spec_yaml(
      "stencil: 3d\nradius_x: 2\nradius_y: 0\nradius_z: 1\ngrid: [16, 12, 10]\n"
      "coefficients:\n  x: [1, 2, 3, 4, 5]\n  z: [0.5, -0.5]\n", "s.yaml");
  EXPECT_EQ(f.dims, 3u);
  EXPECT_EQ(f.radius_x, 2u);
  EXPECT_EQ(f.radius_y, 0u);  // kept: 0 is given, not absent (whether 3d allows it: cli_spec)
  EXPECT_EQ(f.radius_z, 1u);
  EXPECT_EQ(f.grid, "16x12x10");
  EXPECT_EQ(f.coeff_z, (std::vector<double>{0.5, -0.5}));
  EXPECT_TRUE(f.coeff_y.empty());
  EXPECT_EQ(f.where.at("radius_z"), "s.yaml:4");
  EXPECT_EQ(f.where.at("coefficients.z"), "s.yaml:8");
  EXPECT_EQ(parse_spec_yaml("grid: 64x32x16\n", "s.yaml").grid, "64x32x16");
  EXPECT_EQ(parse_spec_yaml("grid: [64, 32]\n", "s.yaml").grid, "64x32");
  EXPECT_EQ(parse_spec_yaml("radius_z: 0\n", "s.yaml").radius_z, 0u);
}

TEST(SpecYaml, TimeSteps) {
  const SpecFile f = parse_spec_yaml("stencil: 1d\nradius: 2\ntime_steps: 4\n", "s.yaml");
  EXPECT_EQ(f.time_steps, 4u);
  EXPECT_EQ(f.where.at("time_steps"), "s.yaml:3");
  EXPECT_EQ(parse_spec_yaml("time_steps: auto\n", "s.yaml").time_steps, 0u);
  EXPECT_EQ(parse_spec_yaml("time_steps: 64\n", "s.yaml").time_steps, 64u);
  EXPECT_FALSE(parse_spec_yaml("stencil: 2d\n", "s.yaml").time_steps);
}

TEST(StencilSpecTimeSteps, ValidationAndDescription) {
  StencilSpec s;
  s.dims = 2;
  s.radius = {2, 1, 0};
  s.grid = {64, 32, 1};
  EXPECT_EQ(s.time_steps, 1u);
  EXPECT_EQ(s.describe(), "2d, rx=2 ry=1, grid 64x32");  // T=1: the text of before
  for (unsigned t : {0u, 2u, 64u}) {
    s.time_steps = t;
    EXPECT_NO_THROW(s.validate()) << t;
  }
  s.time_steps = 4;
  EXPECT_EQ(s.describe(), "2d, rx=2 ry=1, grid 64x32, T=4");
  s.time_steps = 0;
  EXPECT_EQ(s.describe(), "2d, rx=2 ry=1, grid 64x32, T=auto");
  s.time_steps = 65;
  try {
    s.validate();
    ADD_FAILURE() << "no error for 65 time steps";
  } catch (const SpecError& e) {
    EXPECT_EQ(std::string(e.what()), "time steps 65 exceed the limit of 64");
  }
}

// parse_grid and validate for 3D stencils (the 1D/2D cases: tests/mapper/roofline_test.cpp).
TEST(StencilSpec3d, GridParsing) {
  StencilSpec s;
  s.dims = 3;
  parse_grid("64x32x16", s);
  EXPECT_EQ(s.grid, (std::array<std::uint64_t, 3>{64, 32, 16}));
  EXPECT_EQ(s.grid_text(), "64x32x16");
  EXPECT_EQ(s.plane_points(), 64u * 32u);
  EXPECT_EQ(s.grid_points(), 64u * 32u * 16u);
  parse_grid("20", s);
  EXPECT_EQ(s.grid, (std::array<std::uint64_t, 3>{20, 20, 20}));
  const std::vector<std::pair<std::string, std::string>> bad3 = {
      {"64x32", "bad grid '64x32': XxY needs a 2d stencil (a 3d grid is XxYxZ)"},
      {"4x4x4x4", "bad grid '4x4x4x4': more than three sizes"},
      {"4x0x4", "bad grid '4x0x4': sizes must be positive"},
      {"4x4x", "bad grid '4x4x': expected N, XxY or XxYxZ"},
      {"4xx4", "bad grid '4xx4': expected N, XxY or XxYxZ"},
  };
  for (const auto& [text, msg] : bad3) {
    try {
      parse_grid(text, s);
      ADD_FAILURE() << "no error for " << text;
    } catch (const SpecError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(msg, 0), 0u) << e.what();
    }
  }
  for (unsigned dims : {1u, 2u}) {
    StencilSpec t;
    t.dims = dims;
    try {
      parse_grid("8x8x8", t);
      ADD_FAILURE() << "no error in " << dims << "d";
    } catch (const SpecError& e) {
      EXPECT_EQ(std::string(e.what()), "bad grid '8x8x8': XxYxZ needs a 3d stencil");
    }
  }
}

TEST(StencilSpec3d, Validation) {
  StencilSpec s;
  s.dims = 3;
  s.radius = {2, 1, 3};
  s.grid = {5, 3, 7};
  EXPECT_NO_THROW(s.validate());
  EXPECT_EQ(s.points(), 13u);
  EXPECT_EQ(s.outputs(), 1u * 1u * 1u);
  EXPECT_EQ(s.describe(), "3d, rx=2 ry=1 rz=3, grid 5x3x7");
  const auto error = [](const StencilSpec& t) -> std::string {
    try {
      t.validate();
    } catch (const SpecError& e) {
      return e.what();
    }
    return "no error";
  };
  StencilSpec t = s;
  t.grid[2] = 6;
  EXPECT_EQ(error(t), "grid size along z (6) must exceed twice the radius (6) to leave an interior");
  t = s;
  t.radius = {1, 0, 0};  // y and z may be left out in 3D
  EXPECT_NO_THROW(t.validate());
  EXPECT_EQ(t.points(), 3u);
  t.radius = {0, 1, 1};
  EXPECT_EQ(error(t), "radius along x must be at least 1");
  StencilSpec two;
  two.dims = 2;
  two.radius = {1, 0, 0};
  two.grid = {8, 8, 1};
  EXPECT_EQ(error(two), "radius along y must be at least 1");
  t = s;
  t.coeff_z = {1, 2, 3, 4, 5};
  EXPECT_EQ(error(t), "coefficients.z has 5 values; radius 3 needs 6 (offsets -rz..-1, 1..rz)");
  t.radius[2] = 0;
  t.coeff_z = {1, 2};
  EXPECT_EQ(error(t), "coefficients.z has 2 values; radius 0 needs 0 (offsets -rz..-1, 1..rz)");
  two.radius = {1, 1, 0};
  two.coeff_z = {1, 2};
  EXPECT_EQ(error(two), "coefficients.z given for a 2d stencil");
  t = s;
  t.grid = {4096, 4096, 4096};
  EXPECT_EQ(error(t), "grid 4096x4096x4096 has more than the supported 17179869184 points");
}

}  // namespace
}  // namespace cgra
