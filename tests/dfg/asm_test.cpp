// Assembly text: exact canonical output, writer -> parser -> writer byte identity (including a
// generated graph of more than 3000 ops and doubles of every class), and parse errors that
// report line and column.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <fstream>
#include <sstream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "dfg/asm.h"
#include "dfg/builder.h"
#include "dfg/subgraphs.h"
#include "dfg/validate.h"

namespace cgra::dfg {
namespace {

void expect_round_trip(const Dfg& g) {
  const std::string first = write_asm(g);
  Dfg parsed = parse_asm(first, "first");
  EXPECT_TRUE(same_graph(g, parsed));
  const std::string second = write_asm(parsed);
  EXPECT_EQ(first, second);
}

const char* const kSmall =
    "# cgrasim DFG assembly (docs/asm.md)\n"
    "program tiny\n"
    "op r0.addr ADDR_GEN base=0 stride=24 count=10 role=control worker=0 at=(0,0)\n"
    "op r0.load LOAD role=reader worker=0 at=(0,1)\n"
    "op w0.mul0 MUL coef=0.1 role=compute worker=0 at=(1,1)\n"
    "op w0.mac1 MAC coef=-2.0 role=compute worker=0 at=(2,1)\n"
    "op w0.f FILTER mode=pattern m=0 n=8 p=2 role=filter worker=0\n"
    "op k RAW program=\"in a -> out x\\n\\\"quoted\\\"\\ttab\" ins=[a] outs=[x,y]\n"
    "op c CONST value=3 count=5\n"
    "edge r0.addr.addr -> r0.load.addr route=[(0,0),(0,1)]\n"
    "edge r0.load.data -> w0.f.in\n"
    "edge r0.load.data -> w0.mac1.in\n"
    "edge w0.mul0.out -> w0.mac1.acc init=[0.0,-1.5e-300] route=[(1,1),(2,1)]\n"
    "edge w0.f.out -> w0.mul0.in\n"
    "edge c.out -> k.a init=[7]\n";

TEST(DfgAsm, CanonicalTextReadsBackUnchanged) {
  Dfg g = parse_asm(kSmall);
  EXPECT_EQ(g.name(), "tiny");
  EXPECT_EQ(g.num_ops(), 7u);
  EXPECT_EQ(g.num_channels(), 6u);
  EXPECT_EQ(g.op("w0.mul0").f64("coef"), 0.1);
  EXPECT_EQ(g.op("r0.addr").i64("stride"), 24);
  EXPECT_EQ(g.op("r0.addr").i64("rows"), 1);  // default
  EXPECT_EQ(g.op("w0.mac1").place, (Coord{2, 1}));
  EXPECT_EQ(g.op("k").sym("program"), "in a -> out x\n\"quoted\"\ttab");
  EXPECT_EQ(g.op("k").names("outs"), (std::vector<std::string>{"x", "y"}));
  EXPECT_TRUE(std::holds_alternative<std::int64_t>(*g.op("c").find_imm("value")));
  Edge e = *boost::out_edges(g.at("w0.mul0"), g.graph()).first;
  EXPECT_EQ(g.channel(e).initial, (std::vector<Literal>{0.0, -1.5e-300}));
  EXPECT_EQ(g.channel(e).route, (std::vector<Coord>{{1, 1}, {2, 1}}));
  EXPECT_EQ(write_asm(g), kSmall);
}

TEST(DfgAsm, HandWrittenTextIsCanonicalised) {
  // Forward references, comments, blank lines, any attribute order, ints for f64, '+' signs.
  const char* text =
      "\n"
      "edge a.out -> b.acc   # defined below\n"
      "op b MAC at=(1,2) coef=+2 worker=3 role=compute\n"
      "  op a   MUL   coef=1e3\n"
      "edge q.out -> b.in\n"
      "op q COPY\n";
  Dfg g = parse_asm(text);
  EXPECT_EQ(write_asm(g),
            "# cgrasim DFG assembly (docs/asm.md)\n"
            "op b MAC coef=2.0 role=compute worker=3 at=(1,2)\n"
            "op a MUL coef=1000.0\n"
            "op q COPY\n"
            "edge a.out -> b.acc\n"
            "edge q.out -> b.in\n");
}

TEST(DfgAsm, DoublesRoundTripBitExactly) {
  const std::vector<double> values{
      0.0, -0.0, 0.1, 1.0 / 3.0, -2.5, 1e300, -1e-300, 5e-324, std::numeric_limits<double>::denorm_min(),
      std::numeric_limits<double>::max(), std::numeric_limits<double>::min(), 123456789012345678.0,
      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
      std::numeric_limits<double>::quiet_NaN(), std::bit_cast<double>(0xfff8000000000001ULL),
      std::bit_cast<double>(0x7ff0000000000001ULL),  // signalling NaN payload
      std::nextafter(1.0, 2.0), 100.0, 1e22, 9007199254740993.0};
  Dfg g;
  Builder b(g);
  for (std::size_t k = 0; k < values.size(); ++k) {
    auto c = b.add(OpKind::Const, "c" + std::to_string(k)).imm("value", values[k]);
    auto m = b.add(OpKind::Mul, "m" + std::to_string(k)).imm("coef", values[k]);
    Edge e = b.connect(c.port("out"), m.port("in"));
    g.channel(e).initial = {values[k], std::int64_t{-9223372036854775807LL - 1}};
  }
  const std::string text = write_asm(g);
  Dfg parsed = parse_asm(text);
  for (std::size_t k = 0; k < values.size(); ++k) {
    const double got = parsed.op("m" + std::to_string(k)).f64("coef");
    EXPECT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(values[k])) << text;
  }
  EXPECT_TRUE(same_graph(g, parsed));
  EXPECT_EQ(write_asm(parsed), text);
  EXPECT_NE(text.find("coef=-0.0\n"), std::string::npos);
  EXPECT_NE(text.find("coef=nan(0xfff8000000000001)"), std::string::npos);
  EXPECT_NE(text.find("coef=100.0"), std::string::npos);
  EXPECT_NE(text.find("coef=5e-324"), std::string::npos);
}

// Every op kind with every immediate type, roles, placement, routes and initial tokens.
Dfg every_kind_graph() {
  Dfg g;
  g.set_name("kinds");
  Builder b(g);
  b.add(OpKind::Const, "c").imm("value", 2.5).imm("count", 0);
  b.add(OpKind::Mul, "mul").imm("coef", 3.0);
  b.add(OpKind::Mac, "mac").imm("coef", -1.0).at(4, 5);
  b.add(OpKind::Add, "add");
  b.add(OpKind::Sub, "sub").imm("type", "i64");
  b.add(OpKind::Mux, "mux").role(Role::Other, 4);
  b.add(OpKind::Demux, "demux");
  b.add(OpKind::Cmp, "cmp").imm("cond", "ge").imm("rhs", -3);
  b.add(OpKind::And, "and");
  b.add(OpKind::Or, "or");
  b.add(OpKind::Xor, "xor");
  b.add(OpKind::Not, "not");
  b.add(OpKind::Shift, "shift").imm("amount", 3).imm("dir", "right");
  b.add(OpKind::Copy, "copy");
  b.add(OpKind::Filter, "f1").imm("mode", "period").imm("period", 6).imm("phase", 2).role(Role::Filter, 1);
  b.add(OpKind::Filter, "f2").imm("mode", "rowid").imm("lo", 1).imm("hi", 28).role(Role::Filter, 2);
  b.add(OpKind::Counter, "ctr").imm("start", 5).imm("step", -1).imm("count", 6).imm("repeat", 0);
  b.add(OpKind::AddrGen, "ag").imm("base", 4096).imm("count", 3).imm("rows", 2).imm("row_stride", 800);
  b.add(OpKind::Load, "ld").role(Role::Reader, 0);
  b.add(OpKind::Store, "st").role(Role::Writer, 0);
  b.add(OpKind::Sync, "sy").imm("expected", 100).role(Role::Sync, 0);
  b.add(OpKind::Join, "jn").imm("n", 2).role(Role::Sync, 0);
  b.add(OpKind::Raw, "raw").imm("program", "# comment \\ \x01 end").imm("ins", std::vector<std::string>{});
  b.connect("ag.addr", "ld.addr");
  b.connect("ld.data", "mul.in");
  b.connect("ld.data", "mac.in");
  Edge e = b.connect("mul.out", "mac.acc");
  g.channel(e).route = {{0, 0}, {0, 1}, {1, 1}};
  g.channel(b.connect("mac.out", "add.a")).initial = {1.0, 2.0};
  b.connect("ctr.out", "cmp.a");
  b.connect("cmp.out", "demux.sel");
  b.connect("add.out", "demux.in");
  b.connect("demux.out1", "f2.in");
  b.connect("ctr.out", "f2.id");
  b.connect("f2.out", "st.data");
  b.connect("st.done", "sy.in");
  b.connect("sy.done", "jn.in0");
  b.connect("sy.done", "jn.in1");
  return g;
}

TEST(DfgAsm, WriterParserWriterIsByteIdenticalOnEveryKind) { expect_round_trip(every_kind_graph()); }

// BITS with every/phase and MUX mode=bits read back and are written as given; without them (the
// defaults) nothing is written, so existing texts stay as they are.
TEST(DfgAsm, StridedBitsAndMuxByBitsRoundTrip) {
  const std::string text =
      "# cgrasim DFG assembly (docs/asm.md)\n"
      "op bits BITS m=18 n=12 p=6 every=6 phase=0\n"
      "op plain BITS m=1 n=2 p=3\n"
      "op mux MUX mode=bits\n"
      "op old MUX\n"
      "op keep FILTER mode=bits\n"
      "edge bits.out -> mux.sel\n"
      "edge bits.out -> keep.bits\n"
      "edge plain.out -> old.sel\n"
      "edge keep.out -> mux.b\n";
  const Dfg g = parse_asm(text);
  EXPECT_EQ(g.op("bits").i64("every"), 6);
  EXPECT_EQ(g.op("bits").i64("phase"), 0);
  EXPECT_EQ(g.op("plain").i64("every"), 1);
  EXPECT_EQ(g.op("mux").sym("mode"), "bits");
  EXPECT_EQ(g.op("old").sym("mode"), "value");
  EXPECT_EQ(write_asm(g), text);
  expect_round_trip(g);
  Dfg built;
  Builder b(built);
  b.add(OpKind::Bits, "b").imm("m", 1).imm("n", 2).imm("p", 3);
  b.add(OpKind::Mux, "x");
  EXPECT_EQ(write_asm(built), "# cgrasim DFG assembly (docs/asm.md)\nop b BITS m=1 n=2 p=3\nop x MUX\n");
  b.add(OpKind::Bits, "s").imm("m", 0).imm("n", 9).imm("p", 0).imm("phase", 2).imm("every", 3);
  EXPECT_NE(write_asm(built).find("op s BITS m=0 n=9 p=0 every=3 phase=2\n"), std::string::npos)
      << "immediates in declaration order";
}

// Row-first then column-first chain of mesh hops from `a` to `b`, both included.
std::vector<Coord> mesh_path(Coord a, Coord b) {
  std::vector<Coord> path{a};
  while (a != b) {
    unsigned& step = a.row != b.row ? a.row : a.col;
    const unsigned goal = a.row != b.row ? b.row : b.col;
    step < goal ? ++step : --step;
    path.push_back(a);
  }
  return path;
}

// A generated graph of > 3000 ops: 17-point workers with random coefficient bit patterns,
// placements, routes and initial tokens.
TEST(DfgAsm, WriterParserWriterIsByteIdenticalOnLargeGeneratedGraph) {
  std::mt19937_64 rng(20261122);
  Dfg g;
  g.set_name("large");
  Builder b(g);
  constexpr int kWorkers = 180;
  constexpr int kTaps = 17;
  std::vector<PortRef> readers;
  for (int r = 0; r < kTaps; ++r)
    readers.push_back(add_reader(b, "r" + std::to_string(r), r, AddrPattern{8 * r, 8 * kTaps, 1000, 2, 8000}));
  std::vector<std::int64_t> expected;
  std::vector<PortRef> done;
  for (int w = 0; w < kWorkers; ++w) {
    ComputeWorker1dSpec spec;
    spec.prefix = "w" + std::to_string(w) + ".x";
    spec.worker = w;
    for (int k = 0; k < kTaps; ++k) spec.coefs.push_back(std::bit_cast<double>(rng()));
    ComputeWorker1d cw = add_compute_worker_1d(b, spec);
    for (Vertex v : cw.chain.ops)
      if (rng() % 2 == 0) g.place(v, Coord{unsigned(rng() % 64), unsigned(rng() % 64)});
    for (int k = 0; k < kTaps; ++k) {
      Edge e = b.connect(readers[(w + k) % kTaps], cw.inputs[k]);
      const std::optional<Coord> to = g.op(cw.chain.ops[k]).place;
      if (to && rng() % 3 == 0) g.channel(e).route = mesh_path(Coord{unsigned(rng() % 64), unsigned(rng() % 64)}, *to);
      if (rng() % 7 == 0) g.channel(e).initial = {std::bit_cast<double>(rng()), static_cast<std::int64_t>(rng())};
    }
    Writer wr = add_writer(b, "o" + std::to_string(w), w, AddrPattern{1 << 20, 8, 50, 1, 0});
    b.connect(cw.out, wr.data);
    done.push_back(wr.done);
    expected.push_back(50);
  }
  SyncStage sync = add_sync_stage(b, "sync", expected);
  for (int w = 0; w < kWorkers; ++w) b.connect(done[w], sync.inputs[w]);
  ASSERT_GE(g.num_ops(), 3000u);
  std::size_t routed = 0, with_tokens = 0, placed = 0;
  for (auto [it, end] = boost::edges(g.graph()); it != end; ++it) {
    routed += !g.channel(*it).route.empty();
    with_tokens += !g.channel(*it).initial.empty();
  }
  for (Vertex v = 0; v < g.num_ops(); ++v) placed += g.op(v).place.has_value();
  EXPECT_GT(routed, 100u);
  EXPECT_GT(with_tokens, 100u);
  EXPECT_GT(placed, 1000u);
  EXPECT_TRUE(find_problems(g).empty());
  expect_round_trip(g);
}

// The example in docs/asm.md is canonical text of a valid program.
TEST(DfgAsm, DocumentationExampleIsCanonicalAndValid) {
  std::ifstream file(std::string(CGRA_SOURCE_DIR) + "/docs/asm.md");
  ASSERT_TRUE(file) << "docs/asm.md not found";
  std::stringstream text;
  text << file.rdbuf();
  const std::string md = text.str();
  const std::size_t begin = md.find("```\n# cgrasim DFG assembly");
  ASSERT_NE(begin, std::string::npos);
  const std::size_t end = md.find("```", begin + 3);
  const std::string example = md.substr(begin + 4, end - begin - 4);
  Dfg g = parse_asm(example, "docs/asm.md");
  EXPECT_EQ(write_asm(g), example);
  EXPECT_TRUE(find_problems(g).empty());
  EXPECT_EQ(g.num_ops(), 5u);
  EXPECT_EQ(g.num_channels(), 5u);
}

struct BadText {
  const char* text;
  unsigned line;
  unsigned column;
  const char* message;
};

TEST(DfgAsm, ParseErrorsReportLineAndColumn) {
  const std::vector<BadText> cases{
      {"op a MUL coef=1\nop b FOO\n", 2, 6, "unknown op kind 'FOO' for op 'b'"},
      {"op a MUL coef=zz\n", 1, 15, "immediate 'coef' of MUL 'a' must be an f64, got 'zz'"},
      {"op a MUL coef=1 coef=2\n", 1, 17, "'coef' given twice for op 'a'"},
      {"op a MUL scale=1\n", 1, 10, "MUL 'a' has no immediate 'scale' (immediates: coef; also role, worker, at)"},
      {"op a MUL coef=1.5x\n", 1, 18, "unexpected character 'x' after number"},
      {"op a COUNTER count=99999999999999999999\n", 1, 20, "number '99999999999999999999' is out of range"},
      {"op a CMP cond=less\n", 1, 15, "CMP 'a' immediate 'cond' must be one of lt|le|eq|ne|ge|gt"},
      {"op a RAW program=\"abc\n", 1, 18, "unterminated string"},
      {"op a RAW program=\"a\\qb\"\n", 1, 21, "unknown escape in string (use \\\\ \\\" \\n \\t \\r \\xHH)"},
      {"op a MUL coef 1\n", 1, 15, "expected '=' after 'coef', got '1'"},
      {"# header\n\nop a COPY\nop a COPY\n", 4, 4, "duplicate op name 'a' (COPY; first defined as COPY)"},
      {"op a COPY role=boss\n", 1, 16, "unknown role 'boss' (control, reader, compute, filter, writer, sync, other)"},
      {"op a COPY at=(1;2)\n", 1, 16, "unexpected character ';' after number"},
      {"op a COPY at=(1,-2)\n", 1, 17, "coordinate out of range: -2"},
      {"op a COPY\nedge a.out b.in\n", 2, 12, "expected '->', got 'b.in'"},
      {"op a COPY\nedge a.out -> nowhere.in\n", 2, 15, "no op named 'nowhere'"},
      {"op a COPY\nop bb MAC coef=1\nedge a.out -> bb.acx\n", 3, 18, "MAC 'bb' has no input port 'acx' (inputs: in, acc)"},
      {"op a COPY\nedge a.in -> a.in\n", 2, 8, "COPY 'a' has no output port 'in' (outputs: out)"},
      {"op a COPY\nedge a.out -> a.in init=[1,x]\n", 2, 28, "expected a number as initial token, got 'x'"},
      {"op a COPY\nedge a.out -> a.in colour=red\n", 2, 20, "unknown edge attribute 'colour' (init, route, capacity)"},
      {"op a COPY\nmove a\n", 2, 1, "expected 'op', 'edge' or 'program', got 'move'"},
      {"op a COPY x\n", 1, 12, "expected '=' after 'x', got end of line"},
      {"program p\nprogram q\n", 2, 1, "second 'program' line (a file holds one program)"},
      {"op a CONST value=nan(0x1234)\n", 1, 18, "malformed NaN: expected nan(0x<16 hex digits of a NaN>)"},
      {"op a COPY @\n", 1, 11, "unexpected character '@'"},
      {"op a MUX mode=foo\n", 1, 15, "MUX 'a' immediate 'mode' must be one of value|bits"},
  };
  for (const BadText& c : cases) {
    try {
      parse_asm(c.text, "t.asm");
      ADD_FAILURE() << "no error for: " << c.text;
    } catch (const AsmParseError& e) {
      EXPECT_EQ(e.line(), c.line) << c.text;
      EXPECT_EQ(e.column(), c.column) << c.text;
      EXPECT_EQ(std::string(e.what()),
                "t.asm:" + std::to_string(c.line) + ":" + std::to_string(c.column) + ": " + c.message)
          << c.text;
    }
  }
}

}  // namespace
}  // namespace cgra::dfg
