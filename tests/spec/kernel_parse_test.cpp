// The kernel language's front end: the trees the parser makes (precedence, the contraction),
// flops, tap rows, interiors, boundary sources, and every error with its exact message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spec/kernel.h"
#include "spec/kernel_yaml.h"

namespace cgra {
namespace {

/// The tree as an S-expression, written independently of expr_text: taps as NAME[dx,dy].
std::string shape(const Expr& e, const std::vector<std::string>& names) {
  static const char* op[] = {"", "", "neg", "add", "sub", "mul", "div", "fma", "fms", "min", "max", "abs", "sqrt"};
  if (e.op == ExprOp::Const) {
    std::string s = std::to_string(e.value);
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
    return s;
  }
  if (e.op == ExprOp::Tap)
    return names[e.source] + "[" + std::to_string(e.offset[0]) + "," + std::to_string(e.offset[1]) + "]";
  std::string s = std::string(op[static_cast<int>(e.op)]) + "(";
  for (std::size_t i = 0; i < e.args.size(); ++i) s += (i ? "," : "") + shape(e.args[i], names);
  return s + ")";
}

Kernel kernel2d(const std::vector<std::pair<std::string, std::string>>& stages,
                std::vector<std::string> inputs = {"a", "b", "c"}, std::uint64_t nx = 8, std::uint64_t ny = 6) {
  KernelSource src;
  src.name = "t";
  src.dims = 2;
  src.grid = {nx, ny, 1};
  src.grid_sizes = 2;
  src.inputs = std::move(inputs);
  for (const auto& [n, e] : stages) src.stages.push_back({n, e, "", ""});
  return build_kernel(src);
}

std::string tree(const std::string& expr) {
  const Kernel k = kernel2d({{"out", expr}});
  return shape(k.stages[0].expr, k.grid_names());
}

TEST(KernelParse, PrecedenceAndContraction) {
  EXPECT_EQ(tree("a(0,0) + b(0,0) * c(0,0)"), "fma(b[0,0],c[0,0],a[0,0])");
  EXPECT_EQ(tree("a(0,0) - b(0,0) * c(0,0)"), "fms(b[0,0],c[0,0],a[0,0])");
  EXPECT_EQ(tree("a(0,0) * b(0,0) + c(0,0)"), "add(mul(a[0,0],b[0,0]),c[0,0])");
  EXPECT_EQ(tree("2*a(0,0) + 3*b(0,0) + 4*c(0,0)"), "fma(4,c[0,0],fma(3,b[0,0],mul(2,a[0,0])))");
  // Parentheses group only: a parenthesised product on the right still contracts.
  EXPECT_EQ(tree("a(0,0) + (b(0,0) * c(0,0))"), "fma(b[0,0],c[0,0],a[0,0])");
  EXPECT_EQ(tree("a(0,0) + (b(0,0) + c(0,0))"), "add(a[0,0],add(b[0,0],c[0,0]))");
  // Unary minus binds tighter than * and /; on a literal it is part of the number.
  EXPECT_EQ(tree("-a(0,0) * b(0,0)"), "mul(neg(a[0,0]),b[0,0])");
  EXPECT_EQ(tree("a(0,0) + -2 * b(0,0)"), "fma(-2,b[0,0],a[0,0])");
  EXPECT_EQ(tree("a(0,0) - -b(0,0)"), "sub(a[0,0],neg(b[0,0]))");
  EXPECT_EQ(tree("-(a(0,0) * b(0,0))"), "neg(mul(a[0,0],b[0,0]))");
  EXPECT_EQ(tree("a(0,0) - b(0,0) - c(0,0)"), "sub(sub(a[0,0],b[0,0]),c[0,0])");
  EXPECT_EQ(tree("a(0,0) / b(0,0) / 2"), "div(div(a[0,0],b[0,0]),2)");
  EXPECT_EQ(tree("a(0,0) / b(0,0) * 2"), "mul(div(a[0,0],b[0,0]),2)");
  EXPECT_EQ(tree("(a(0,0) + b(0,0)) * c(0,0)"), "mul(add(a[0,0],b[0,0]),c[0,0])");
  EXPECT_EQ(tree("a(0,0) + b(0,0) / c(0,0)"), "add(a[0,0],div(b[0,0],c[0,0]))");
  EXPECT_EQ(tree("min(a(1,0), max(b(0,0), 0.5)) + abs(sqrt(c(0,0)))"),
            "add(min(a[1,0],max(b[0,0],0.5)),abs(sqrt(c[0,0])))");
  EXPECT_EQ(tree("1.5e2 + .25 + 5. + 2E-1"), "add(add(add(150,0.25),5),0.2)");
}

TEST(KernelParse, Flops) {
  // One per operation, two per fused multiply-add, none for taps and constants.
  EXPECT_EQ(kernel2d({{"o", "a(0,0) + b(0,0) * c(0,0)"}}).flops_per_point(), 2u);
  EXPECT_EQ(kernel2d({{"o", "a(0,0) * b(0,0) + c(0,0)"}}).flops_per_point(), 2u);
  EXPECT_EQ(kernel2d({{"o", "(a(-1,0) + a(0,0) + a(1,0)) / 3"}}).flops_per_point(), 3u);
  EXPECT_EQ(kernel2d({{"o", "-a(0,0)"}}).flops_per_point(), 1u);
  EXPECT_EQ(kernel2d({{"o", "-2"}}).flops_per_point(), 0u);
  EXPECT_EQ(kernel2d({{"o", "min(a(0,0), sqrt(abs(b(0,0))))"}}).flops_per_point(), 3u);
  // Two stages add up: 2*a + 3*b is mul + fma (3), then s - c*c is fms (2).
  EXPECT_EQ(kernel2d({{"s", "2*a(0,0) + 3*b(0,0)"}, {"o", "s(0,0) - c(0,0)*c(0,0)"}}).flops_per_point(), 5u);
}

TEST(KernelParse, TapRowsInteriorsAndBoundary) {
  const Kernel k = kernel2d({{"s", "a(1,-1) + a(-1,-1) + b(0,1) + a(0,-1) + a(1,-1) + a(0,0)"},
                             {"o", "s(0,2) + s(-1,0)"}});
  const auto& rows = k.stages[0].rows;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].source, 0u);  // a, dy -1: dx -1, 0, 1 (the repeated tap once)
  EXPECT_EQ(rows[0].dy, -1);
  EXPECT_EQ(rows[0].dx, (std::vector<int>{-1, 0, 1}));
  EXPECT_EQ(rows[1].dy, 0);
  EXPECT_EQ(rows[1].dx, (std::vector<int>{0}));
  EXPECT_EQ(rows[2].source, 1u);  // b, dy 1
  EXPECT_EQ(rows[2].dy, 1);
  // On 8x6: x from 1 (a(-1,.)) to 7 (a(1,.)); y from 1 (dy -1) to 5 (b's dy +1).
  EXPECT_EQ(k.stages[0].interior.lo, (std::array<std::int64_t, 3>{1, 1, 0}));
  EXPECT_EQ(k.stages[0].interior.hi, (std::array<std::int64_t, 3>{7, 5, 1}));
  // o reads s at (0,2): y + 2 in [1,5) gives y in [-1,3) -> [1,3); at (-1,0): x in [2,8) -> [2,7).
  EXPECT_EQ(k.stages[1].interior.lo, (std::array<std::int64_t, 3>{2, 1, 0}));
  EXPECT_EQ(k.stages[1].interior.hi, (std::array<std::int64_t, 3>{7, 3, 1}));
  EXPECT_EQ(k.stages[0].boundary_source, 0u);  // reads inputs: the first input
  EXPECT_EQ(k.stages[1].boundary_source, 3u);  // reads only s (a, b, c, then s)
  // A stage reading only b (not the first input) still takes the first input's value outside.
  EXPECT_EQ(kernel2d({{"o", "b(1,0)"}}).stages[0].boundary_source, 0u);
  // Taps in the order of the text, though the tree puts the fused product first.
  const Kernel f = kernel2d({{"o", "c(0,0) + a(1,0) * b(0,1)"}});
  ASSERT_EQ(f.stages[0].taps.size(), 3u);
  EXPECT_EQ(f.stages[0].taps[0].source, 2u);
  EXPECT_EQ(f.stages[0].taps[1].source, 0u);
}

TEST(KernelParse, TextRoundTrip) {
  for (const std::string e :
       {"a(0,0) + b(0,0) * c(0,0)", "a(0,0) * b(0,0) + c(0,0)", "-a(0,0) * (b(0,0) - c(1,0) * 0.1)",
        "(a(0,0) + b(0,0)) / (c(0,0) - -1e-300) - min(a(0,1), max(-b(0,0), abs(c(0,-1))))",
        "a(0,0) - (b(0,0) + c(0,0)) + sqrt(a(0,0) / 3 / b(0,0)) * -0.1"}) {
    const Kernel k = kernel2d({{"o", e}});
    const std::string text = expr_text(k.stages[0].expr, k.grid_names(), 2);
    const Kernel back = kernel2d({{"o", text}});
    EXPECT_EQ(shape(back.stages[0].expr, k.grid_names()), shape(k.stages[0].expr, k.grid_names())) << e << " -> " << text;
  }
}

std::string error_of(const std::string& yaml) {
  try {
    parse_kernel_yaml(yaml, "k.yaml");
  } catch (const SpecError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string one_stage(const std::string& expr, const std::string& grid = "8x8") {
  return "kernel: k\ndims: 2\ngrid: " + grid + "\ninputs: [img]\nstages:\n  - name: out\n    expr: \"" + expr + "\"\n";
}

TEST(KernelParse, ErrorsNameFileLineAndColumn) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {one_stage("img(0,0) + imgg(1,0)"), "k.yaml:7: stage 'out': expr column 12: unknown grid 'imgg' (grids: img)"},
      {one_stage("im + 1"), "k.yaml:7: stage 'out': expr column 1: unknown grid 'im' (grids: img)"},
      {one_stage("img(1)"), "k.yaml:7: stage 'out': expr column 1: tap img(1) has 1 offset; a 2d kernel needs 2"},
      {one_stage("img(1,0,0)"), "k.yaml:7: stage 'out': expr column 1: tap img(1,0,0) has 3 offsets; a 2d kernel needs 2"},
      {one_stage("img"), "k.yaml:7: stage 'out': expr column 1: tap 'img' needs offsets: img(dx, dy)"},
      {one_stage("img(0.5,0)"), "k.yaml:7: stage 'out': expr column 4: a tap's offsets are integers: img(dx, dy)"},
      {one_stage("img(0,0) + img(8,0)"), "k.yaml:7: stage 'out': expr column 12: tap img(8, 0) leaves the stage no interior on the 8x8 grid"},
      {one_stage("img(0,-4) + img(0,4)"), "k.yaml:7: stage 'out': expr column 13: tap img(0, 4) leaves the stage no interior on the 8x8 grid"},
      {one_stage("out(0,0) + 1"), "k.yaml:7: stage 'out': expr column 1: stage 'out' reads itself"},
      {one_stage("exp(img(0,0))"), "k.yaml:7: stage 'out': expr column 1: unknown function 'exp' (functions: min, max, abs, sqrt)"},
      {one_stage("1 + min(img(0,0))"), "k.yaml:7: stage 'out': expr column 5: min takes 2 arguments, got 1"},
      {one_stage("sqrt(1, 2)"), "k.yaml:7: stage 'out': expr column 1: sqrt takes 1 argument, got 2"},
      {one_stage("abs"), "k.yaml:7: stage 'out': expr column 1: function 'abs' needs arguments: abs(...)"},
      {one_stage("img(0,0) + * 2"), "k.yaml:7: stage 'out': expr column 12: expected a number, a tap or '(', got '*'"},
      {one_stage("(img(0,0) + 1"), "k.yaml:7: stage 'out': expr column 14: expected ')', got the end"},
      {one_stage("img(0,0) 2"), "k.yaml:7: stage 'out': expr column 10: unexpected '2'"},
      {one_stage("5.7f * img(0,0)"), "k.yaml:7: stage 'out': expr column 1: malformed number '5.7f'"},
      {one_stage("1e999"), "k.yaml:7: stage 'out': expr column 1: number '1e999' is out of the range of a double"},
      {one_stage("   "), "k.yaml:7: stage 'out': expr column 4: empty expression"},
      {one_stage("img(0,0)", "8x8x8"), "k.yaml:3: 'grid' has 3 sizes; dims is 2"},
      {"kernel: k\ndims: 2\ngrid: 8x8\ninputs: [img]\nstages:\n  - name: a\n    expr: \"b(0,0)\"\n  - name: b\n    expr: \"img(0,0)\"\n",
       "k.yaml:7: stage 'a': expr column 1: stage 'b' is used before it is defined (stages are evaluated in order)"},
      {"kernel: k\ndims: 2\ngrid: 8x8\ninputs: [img]\nstages:\n  - name: a\n    expr: \"img(-1,0) + img(1,0)\"\n  - name: b\n    expr: \"a(3,0) + a(-3,0)\"\n",
       "k.yaml:9: stage 'b': expr column 10: tap a(-3, 0) leaves the stage no interior on the 8x8 grid"},
      {"kernel: k\ndims: 2\ngrid: 8x8\ninputs: [img, img]\nstages:\n  - name: o\n    expr: \"img(0,0)\"\n", "k.yaml:4: duplicate name 'img'"},
      {"kernel: k\ndims: 2\ngrid: 8x8\ninputs: [img]\nstages:\n  - name: img\n    expr: \"1\"\n", "k.yaml:6: duplicate name 'img'"},
      {"kernel: k\ndims: 2\ngrid: 8x8\ninputs: [img]\nstages:\n  - {name: o, expr: \"1\"}\n  - {name: o, expr: \"2\"}\n", "k.yaml:7: duplicate name 'o'"},
      {"kernel: k\ndims: 2\ngrid: 8x8\ninputs: [max]\nstages:\n  - {name: o, expr: \"1\"}\n", "k.yaml:4: input name 'max' is a function (min, max, abs, sqrt)"},
      {"kernel: k\ndims: 2\ngrid: 8x8\ninputs: [2d]\nstages:\n  - {name: o, expr: \"1\"}\n", "k.yaml:4: input name '2d' is not a name (letters, digits, _; not starting with a digit)"},
      {"kernel: k\ndims: 2\ngrid: 8x8\ninputs: [img]\nstagse: []\n",
       "k.yaml:5: unknown key 'stagse' (did you mean 'stages'? expected kernel, dims, grid, inputs, stages, time_steps)"},
      {"kernel: k\ncolour: red\n", "k.yaml:2: unknown key 'colour' (expected kernel, dims, grid, inputs, stages, time_steps)"},
      {"kernel: k\ndims: 2\ngrid: 8x8\ninputs: [img]\nstages:\n  - {name: o, exp: \"1\"}\n",
       "k.yaml:6: unknown key 'exp' (did you mean 'expr'? expected name, expr)"},
      {"kernel: k\ndims: 2\ngrid: 8x8\ninputs: [img]\nstages: []\n", "k.yaml:5: 'stages' is empty: a kernel needs at least one stage"},
      {"kernel: k\ndims: 2\ngrid: 8x8\ninputs: []\nstages: []\n", "k.yaml:4: 'inputs' is empty: a kernel reads at least one grid"},
      {"kernel: k\ndims: 2\ngrid: 8x8\ninputs: [img]\n", "k.yaml: 'stages' is missing (a kernel file gives kernel, dims, grid, inputs and stages)"},
      {"kernel: k\ndims: 4\n", "k.yaml:2: 'dims': expected 1, 2 or 3, got '4'"},
      {"kernel: k\ndims: 2\ngrid: 8x0\n", "k.yaml:3: 'grid': expected positive integer sizes (N, XxY, XxYxZ or a list), got '0'"},
      {one_stage("img(0,0)") + "time_steps: 65\n", "k.yaml:8: 'time_steps': expected a positive integer up to 64, got '65'"},
      {one_stage("img(0,0)") + "time_steps: 0\n", "k.yaml:8: 'time_steps': expected a positive integer up to 64, got '0'"},
      {"kernel: k\nkernel: j\n", "k.yaml:2: duplicate key 'kernel'"},
      {"kernel: [k\n", "k.yaml:2: malformed YAML: end of sequence flow not found"},
  };
  for (const auto& [yaml, msg] : cases) EXPECT_EQ(error_of(yaml), msg) << yaml;
}

TEST(KernelParse, NestingIsBounded) {
  // Deep parentheses end in an error, not a stack overflow.
  const std::string deep = std::string(300, '(') + "1" + std::string(300, ')');
  EXPECT_EQ(error_of(one_stage(deep)), "k.yaml:7: stage 'out': expr column 257: expression nests deeper than 256 levels");
}

TEST(KernelParse, IsKernelYaml) {
  EXPECT_TRUE(is_kernel_yaml(one_stage("img(0,0)")));
  EXPECT_FALSE(is_kernel_yaml("stencil: 2d\nradius: 1\n"));
  EXPECT_FALSE(is_kernel_yaml("kernel: [\n"));
}

}  // namespace
}  // namespace cgra
