// The cycle prediction (mapper/predict.h, docs/stencil.md "Predicted cycles") on cases derived by
// hand: each expected value is written out here from the architecture's parameters and the plan's
// word counts, term by term, not read back from the predictor. The suite-level accuracy of the
// prediction against the simulator is tests/sim/prediction_accuracy_test.cpp.
#include "mapper/predict.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "config/arch_config.h"
#include "mapper/host_layout.h"
#include "mapper/map_stencil.h"
#include "mapper/stencil_dfg.h"
#include "mapper/stencil_plan.h"
#include "network/fabric_geometry.h"

namespace cgra {
namespace {

StencilSpec one_d(unsigned r, std::uint64_t n) {
  StencilSpec s;
  s.dims = 1;
  s.radius = {r, 0, 0};
  s.grid = {n, 1, 1};
  return s;
}

// A 1D plan of w workers, D segments each, and the words its reader 0 takes: (L + 2r) x D, L the
// outputs of a segment (docs/stencil.md, "1D").
struct Stream {
  StencilPlan plan;
  double words, outputs;
};

Stream stream(unsigned r, std::uint64_t n, unsigned w, unsigned d) {
  const StencilPlan plan = StencilPlan::streams(one_d(r, n), w, d);
  const double length = double(plan.segments().length);
  // The w x D segments of L outputs cover the interior (the last ones may overlap).
  EXPECT_GE(length * w * d, double(n - 2 * r));
  const double words = (length + 2.0 * r) * d;
  EXPECT_EQ(double(plan.reader_total(0)), words);
  return {plan, words, double(plan.writer_total(0))};
}

// The plan's graph as the stream prediction takes it (stream_chain, unplaced: one hop a channel),
// with the fill the test derives by hand.
StreamChain chain_of(const Stream& s, const ArchConfig& arch, double fill) {
  const StencilDfg sd = build_stencil_dfg(s.plan, default_host_layout(s.plan.spec()), arch.fabric.pe);
  StreamChain c = stream_chain(sd.dfg, sd.done_op, arch);
  c.pipeline = fill;
  return c;
}

// An L2 that streams writes (no write-back phase: nothing is absorbed on chip), so the DRAM
// carries every word read and every output written from the first cycle.
const std::vector<std::string> kStreamingL2 = {"memory.l2.write_policy=streaming"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

// 1D bound by the DRAM: 4 workers at 6 GB/s on a 1.2 GHz clock move 5 bytes a cycle, far below
// what their readers and MACs could take (a word a cycle each, 8 bytes read and ~8 written).
TEST(Predict, StreamBoundByDram) {
  const ArchConfig arch = load_default_arch(with(kStreamingL2, {"memory.dram.bandwidth_gbps=6"}));
  const Stream s = stream(2, 4000, 4, 8);
  const double bytes_per_cycle = 6.0 / 1.2;
  // Each worker moves 8 bytes per word read and 8 per output written; the four share the bus.
  const double steady = 4.0 * 8.0 * (s.words + s.outputs) / bytes_per_cycle;
  const double fill = 150.0;
  const CyclePrediction p = predict_streams(s.plan, arch, chain_of(s, arch, fill));
  EXPECT_EQ(p.bound, "DRAM bandwidth");
  EXPECT_EQ(p.absorbed_cycles, 0.0);
  EXPECT_EQ(p.fill_cycles, fill);
  EXPECT_EQ(p.cycles, static_cast<std::uint64_t>(std::ceil(steady + fill)));
}

// 1D bound by the MAC pipeline: a 2-entry output queue and a 4-cycle MAC. A result holds its slot
// from issue until its route takes it, 4 + 1 cycles, so a tap issues at most 2 / 5 results a cycle.
TEST(Predict, StreamBoundByTheMacPipeline) {
  const ArchConfig arch = load_default_arch({"fabric.pe.output_queue_depth=2"});
  const Stream s = stream(3, 3000, 2, 6);
  const double rate = 2.0 / 5.0;
  const double fill = 200.0;
  const CyclePrediction p = predict_streams(s.plan, arch, chain_of(s, arch, fill));
  EXPECT_EQ(p.bound, "MAC pipeline (output queue / FP latency)");
  EXPECT_DOUBLE_EQ(p.worker_rate, rate);
  EXPECT_EQ(p.cycles, static_cast<std::uint64_t>(std::ceil(s.words / rate + fill)));
}

// 1D bound by the readers: a LOAD PE keeps at most its reply queue's words in flight, 16 here, and
// its words return in order. 2 workers of D = 4 segments of L = 256 outputs (258 words with the
// halo): every segment starts a line (256 words = 32 lines of 8), so its words v = 8k .. 8k+7 share
// a line, and the reader's 32 loads of "period" k (steps 32k .. 32k+31) are the 4 lines' misses
// (steps 32k .. 32k+3) and 28 loads that merge into them. Load i issues when load i - 16 has left
// the queue; the loads of a period leave one a cycle from the first fill, at I_k + M + 0..31 (M
// the miss: L1 2 + L2 12 + DRAM 100 + a 64-byte line on 100 / 1.2 bytes a cycle). So period k+1
// starts when load 32k + 16 leaves, I_(k+1) = I_k + M + 16, not after 16 words x M / 16. The 33rd
// period (words 256, 257) leaves its 8 loads at I_32 + M + 0..7: from the first word out (cycle M)
// to the last, 32 (M + 16) + 8 cycles for the 4 x 258 words.
TEST(Predict, StreamBoundByTheReaders) {
  const ArchConfig arch = load_default_arch({"fabric.pe.memory_queue_depth=16"});
  const Stream s = stream(1, 2 + 8 * 256, 2, 4);
  ASSERT_EQ(s.plan.segments().length, 256u);
  ASSERT_EQ(s.plan.segments().stride, 256u);
  const double miss = 2.0 + 12.0 + 100.0 + 64.0 / (100.0 / 1.2);
  const double rate = 4.0 * 258.0 / (32.0 * (miss + 16.0) + 8.0);
  // Below a word a cycle and the MAC pipeline's 4 / 5; the DRAM carries 2 x 16 bytes a word.
  ASSERT_LT(rate, 0.8);
  ASSERT_LT(2.0 * rate * 16.0, 100.0 / 1.2);
  EXPECT_NEAR(stream_reader_rate(s.plan, arch), rate, 1e-12);
  const CyclePrediction p = predict_streams(s.plan, arch, chain_of(s, arch, 0.0));
  EXPECT_EQ(p.bound, "readers (loads in flight)");
  EXPECT_NEAR(p.worker_rate, rate, 1e-12);
  EXPECT_EQ(p.cycles, static_cast<std::uint64_t>(std::ceil(s.words / rate)));
}

// 2D bound by the scratchpad's ports: one port for every deep channel of the mapping, each a write
// and a read per reader word (docs/stencil.md, "Blocking"), so the readers run at 1 / 2 of a word
// a cycle. Reader 0 loads ceil(in_width / w) words a row plus one idle cycle, 3 more a block.
TEST(Predict, BlocksBoundByTheScratchpadPorts) {
  StencilSpec spec;
  spec.dims = 2;
  spec.radius = {2, 2, 0};
  spec.grid = {192, 32, 1};
  const unsigned w = 2;
  const ArchConfig base = load_default_arch({"fabric.pe.input_queue_depth=8"});
  const BufferEstimate b0 = estimate_buffering(spec, w, 1, false, base);
  ASSERT_GT(b0.deep_channels, 0u);
  ASSERT_LE(b0.deep_channels, 16u);  // one port each, fewer than the 16 banks
  const std::string ports = std::to_string(b0.deep_channels);
  const ArchConfig arch =
      load_default_arch({"fabric.pe.input_queue_depth=8", "memory.scratchpad.ports=" + ports});
  const BufferEstimate b = estimate_buffering(spec, w, 1, false, arch);
  ASSERT_EQ(b.deep_channels, b0.deep_channels);
  const double rate = double(b.deep_channels) / (2.0 * b.deep_channels);
  EXPECT_DOUBLE_EQ(b.scratchpad_rate, rate);
  const double in_width = 192.0, per_row = std::ceil(in_width / w);
  const double reader_words = 32.0 * (per_row + 1.0) + 3.0;
  EXPECT_DOUBLE_EQ(b.reader_cycles, reader_words / rate);
  // The MAC chain of worker 0 (its 94 output columns of 188, every row, at 4 / 5 a cycle) and the
  // DRAM (192 x 32 words read and 188 x 28 written at 100 / 1.2 bytes a cycle) are faster.
  const double macs = 32.0 * std::ceil(188.0 / w) / (4.0 / 5.0);
  const double dram = 8.0 * (192.0 * 32.0 + 188.0 * 28.0) / (100.0 / 1.2);
  ASSERT_LT(macs, b.reader_cycles);
  ASSERT_LT(dram, b.reader_cycles);
  const CyclePrediction p = predict_blocks(spec, w, b, arch);
  EXPECT_EQ(p.bound, "readers");
  EXPECT_EQ(p.fill_cycles, b.pipeline_cycles);
  EXPECT_EQ(p.cycles, static_cast<std::uint64_t>(std::ceil(reader_words / rate + b.pipeline_cycles)));
}

// 2D readers bound by their loads in flight: 16 reply entries over a miss of L1 2 + L2 12 + DRAM
// 100 cycles and a 64-byte line on a bus of 100 / 1.2 bytes a cycle (M = 114.768), slower than the
// scratchpad and the MACs. The 4 readers load columns k, k+4, ... of the 64-word rows: 16 loads a
// row each, loads 2j and 2j+1 of a row in one line, all 4 readers in step (equal loads). So the
// first load of a pair misses at issue + M, the second merges and leaves a cycle later; a batch of
// 16 loads issues one a cycle once the batch before has left: load i issues at (i / 16) M + i mod 16.
// The last of the 32 x 16 loads (batch 31) is back at 32 M + 15. The first miss (114 cycles) is in
// that time already, and the fill counts it too, so the readers' term is 114 cycles less.
TEST(Predict, BlocksBoundByLoadsInFlight) {
  StencilSpec spec;
  spec.dims = 2;
  spec.radius = {1, 1, 0};
  spec.grid = {64, 32, 1};
  const ArchConfig arch = load_default_arch({"fabric.pe.memory_queue_depth=16"});
  const BufferEstimate b = estimate_buffering(spec, 4, 1, false, arch);
  ASSERT_GT(b.scratchpad_rate, 16.0 / 114.0);  // the scratchpad is not what binds
  const double miss = 114.0 + 64.0 / (100.0 / 1.2);
  const StencilPlan plan(spec, 4, b.blocks, b.delay_stages);
  EXPECT_NEAR(block_reader_replay(plan, arch), 32.0 * miss + 15.0, 1e-9);
  const CyclePrediction p = predict_blocks(spec, 4, b, arch);
  EXPECT_EQ(p.bound, "readers");
  EXPECT_EQ(p.cycles, static_cast<std::uint64_t>(std::ceil(32.0 * miss + 15.0 - 114.0 + b.pipeline_cycles)));
}

// Unequal loads a row: 8 readers on 26-word rows (r = 1, one block), readers 0 and 1 load 4 words
// a row, the other 6 load 3; 4 reply entries over a miss of 2 + 12 + 400 cycles and the line's bus
// time (M = 414.768). Loaded at a full miss each, the heavy readers' 32 x 4 loads in batches of 4
// would be back at 32 M + 3. They fall behind the light readers and merge into the misses those
// issued earlier, so the replay ends sooner; it can end no sooner than Little's law allows the
// 104 lines of the image (26 x 32 words, 8 a line), each missed once by some load, with at most
// 8 x 4 loads in flight: 104 M / 32.
TEST(Predict, HeavierReadersMergeIntoTheLighterReadersMisses) {
  StencilSpec spec;
  spec.dims = 2;
  spec.radius = {1, 1, 0};
  spec.grid = {26, 32, 1};
  const ArchConfig arch = load_default_arch({"fabric.pe.memory_queue_depth=4", "memory.dram.latency=400"});
  const StencilPlan plan(spec, 8, StencilPlan::make_blocks(spec, 1));
  ASSERT_EQ(plan.read_width(), 26u);
  const double miss = 414.0 + 64.0 / (100.0 / 1.2);
  const double replay = block_reader_replay(plan, arch);
  EXPECT_LT(replay, 32.0 * miss + 3.0);
  EXPECT_GE(replay, 104.0 * miss / 32.0);
  // Equal loads (24-word rows, 3 a reader): load i of every reader is column k + 8 (i mod 3) of
  // row i / 3, so the 8 readers ask for the same line in the same cycle and each load waits a full
  // miss: batch b of 4 issues at b M + i mod 4, and the last load (batch 23) is back at 24 M + 3.
  StencilSpec even = spec;
  even.grid = {24, 32, 1};
  const StencilPlan even_plan(even, 8, StencilPlan::make_blocks(even, 1));
  EXPECT_NEAR(block_reader_replay(even_plan, arch), 24.0 * miss + 3.0, 1e-9);
}

// 3D with z readers and rz >= 2: the prediction is the 6-norm of its steady terms plus the fill
// (docs/stencil.md, "Predicted cycles"). With rz = 1 (the tests of three_d_r1 below) it is their max.
double six_norm(const CyclePrediction::SteadyTerms& t) {
  const double sum = std::pow(t.readers, 6) + std::pow(t.mshr, 6) + std::pow(t.dram, 6) + std::pow(t.compute, 6);
  return std::pow(sum, 1.0 / 6);
}

// The 3D prediction `p` of a mapping whose largest term is `largest` (derived by hand) and whose
// fill is `fill`: that term is the largest of p's, and the cycles are the 6-norm of p's terms
// plus the fill.
void expect_three_d_cycles(const CyclePrediction& p, double largest, double fill) {
  const double max = std::max({p.terms.readers, p.terms.mshr, p.terms.dram, p.terms.compute});
  EXPECT_NEAR(max, largest, 1e-6 * largest);
  EXPECT_EQ(p.cycles, static_cast<std::uint64_t>(std::ceil(six_norm(p.terms) + fill)));
}

// The share of the z re-reads the L2 holds (z_reread_l2_share), by the window in L2 sizes: all up
// to 2.2, 0.45 at 3.0, none from 4.5, linear in between (docs/stencil.md, "L2 reuse"). An L2 of
// 1 MiB (paper.yaml: 2048 sets x 8 ways x 64 B).
TEST(Predict, ZRereadL2ShareFallsFromAllAt2Point2ToNoneAt4Point5L2Sizes) {
  const CacheParams l2 = load_default_arch().memory.l2;
  ASSERT_EQ(l2.size_bytes(), 1u << 20);
  const auto share = [&](double windows) { return z_reread_l2_share(std::uint64_t(windows * (1 << 20)), l2); };
  EXPECT_DOUBLE_EQ(share(0.5), 1.0);
  EXPECT_DOUBLE_EQ(share(2.2), 1.0);
  EXPECT_NEAR(share(2.6), 1.0 - 0.55 / 2, 1e-6);  // halfway to the knee
  EXPECT_NEAR(share(3.0), 0.45, 1e-6);
  EXPECT_NEAR(share(3.75), 0.225, 1e-6);          // halfway from the knee to none
  EXPECT_DOUBLE_EQ(share(4.5), 0.0);
  EXPECT_DOUBLE_EQ(share(8.0), 0.0);
}

// 3D readers bound by their loads in flight, r = 2 on 24 x 12 x 10 with 2 workers and 8 reply
// entries over a miss of L1 2 + L2 12 + DRAM 400 cycles. Each worker has z readers (16 memory PEs
// each: one per tap), and the one of offset +2 loads every plane 2 planes before the main readers
// reach it. So the main readers' 12 rows x 24 words of a plane miss on the block's first 2 of its
// 6 planes (the 2 readers keep 2 x 8 loads in flight over 414 cycles) and hit the L2 on the other
// 4 (8 loads over 14 cycles each); the +2 z readers load the 8 interior rows x 20 output columns of
// every plane, all misses. Each plane takes the slower of the two; the first miss (414 cycles) is
// in that time and in the fill.
TEST(Predict, BlocksBoundByLoadsInFlightWithZReadersAhead) {
  StencilSpec spec;
  spec.dims = 3;
  spec.radius = {2, 2, 2};
  spec.grid = {24, 12, 10};
  const ArchConfig arch = load_default_arch({"fabric.pe.memory_queue_depth=8", "memory.dram.latency=400"});
  const BufferEstimate b = estimate_buffering(spec, 2, 1, false, arch);
  ASSERT_EQ(b.blocks.blocks, 1u);
  ASSERT_EQ(b.read_width, 24u);
  ASSERT_EQ(b.blocks.out_width, 20u);
  ASSERT_GT(b.z_streams, 0u);
  const double miss = 2.0 * 8.0 / 414.0, hit = 2.0 * 8.0 / 14.0;
  const double main_loads = 12.0 * 24.0, z_loads = 8.0 * 20.0;
  const double first = 2.0 * std::max(main_loads / miss, z_loads / miss);  // both miss: 14904
  const double later = 4.0 * std::max(main_loads / hit, z_loads / miss);   // the z readers': 4 x 4140
  ASSERT_LT(b.predicted_reader_cycles, first + later);
  ASSERT_LT(b.dram_cycles, first + later);
  ASSERT_LT(b.compute_cycles, first + later);
  const CyclePrediction p = predict_blocks(spec, 2, b, arch);
  EXPECT_EQ(p.bound, "readers");
  EXPECT_DOUBLE_EQ(p.terms.readers, first + later - 414.0);
  expect_three_d_cycles(p, first + later - 414.0, b.pipeline_cycles);
}

// How far a 1D reader runs ahead of its writer (stream_chain): the words between its reply queue
// and its writer's port, the queues on the path from the LOAD to the STORE that has no initial
// tokens (the chain links carry the interleave's: the words reach the STORE through the last tap).
// Each slot is claimed when a word is sent: the LOAD's output queue, the last tap's input and
// output queues, the FILTER's input and output queues, the STORE's data queue (a memory PE's:
// memory_queue_depth deep), its memory-request queue (output_queue_depth deep) and the port's
// register: 4 x 4 + 2 x 16 + 128 + 1 = 177 words with the queues below, and 32 of the STORE's
// 128 taken away leave 81. With memory_queue_depth 0 a memory PE's queues are input_queue_depth
// deep: 4 x 4 + 3 x 16 + 1 = 65.
TEST(Predict, StreamChainHoldsTheQueuesFromTheReaderToTheWriter) {
  const std::vector<std::string> queues = {"fabric.pe.input_queue_depth=16", "fabric.pe.output_queue_depth=4"};
  const Stream s = stream(2, 3000, 2, 4);
  EXPECT_EQ(chain_of(s, load_default_arch(with(queues, {"fabric.pe.memory_queue_depth=128"})), 0.0).buffer, 177u);
  EXPECT_EQ(chain_of(s, load_default_arch(with(queues, {"fabric.pe.memory_queue_depth=32"})), 0.0).buffer, 81u);
  EXPECT_EQ(chain_of(s, load_default_arch(with(queues, {"fabric.pe.memory_queue_depth=0"})), 0.0).buffer, 65u);
}

// The miss latency the MSHRs are held for: L1 2 + L2 12 + DRAM 100 cycles and a 64-byte line on a
// bus of 100 / 1.2 bytes a cycle.
constexpr double kMissLatency = 2.0 + 12.0 + 100.0 + 64.0 / (100.0 / 1.2);

// 1D bound by the L1's MSHRs: 8 of them for 2 workers of D = 8 segments, replayed load by load and
// store by store over the one MSHR file (replay_stream). The reads alone could keep at most 8 lines
// in flight over a miss (Little's law): 8 x 64 / 114.77 bytes a cycle for 2 readers of 8 bytes a
// word (0.28 words a cycle each), below the MAC pipeline (4 / 5), the readers (128 / 114 > 1) and
// the DRAM (83.3 bytes a cycle for 16 bytes a word); so the run takes longer than the words at that
// rate. The writers store into a line of each of their 2 x 8 segments at once, more lines than the
// 8 MSHRs: a line gets a store every 8 of its writer's stores, and the lines are written down
// partly (each store then holds an MSHR of its own), so the run takes longer still. Each segment
// fetches every line it touches once (a line serves its 8 loads D steps apart, well within the
// L1's 256 lines), so a line two neighbouring segments share is fetched twice at most.
TEST(Predict, StreamBoundByTheL1Mshrs) {
  const ArchConfig arch = load_default_arch(with(kStreamingL2, {"memory.l1.mshrs=8"}));
  EXPECT_DOUBLE_EQ(l1_miss_latency(arch), kMissLatency);
  const Stream s = stream(2, 4000, 2, 8);
  const SegmentPlan& seg = s.plan.segments();
  const std::uint64_t per = s.plan.stage_words(0);
  ASSERT_EQ(per, seg.length + 4);
  std::uint64_t touched = 0;  // lines each segment touches, summed over the 16
  for (std::uint64_t k = 0; k < seg.segments; ++k) touched += (k * seg.stride + per - 1) / 8 - k * seg.stride / 8 + 1;
  const std::uint64_t distinct = ((seg.segments - 1) * seg.stride + per - 1) / 8 + 1;
  const double reads_only = 8.0 * 64.0 / kMissLatency / (2.0 * 8.0);
  const StreamReplay r = replay_stream(s.plan, arch, chain_of(s, arch, 100.0));
  EXPECT_TRUE(r.mshr_bound);
  EXPECT_GE(r.fetches, distinct);
  EXPECT_LE(r.fetches, touched);
  EXPECT_GT(r.partial_flushes, 0u);
  const CyclePrediction p = predict_streams(s.plan, arch, chain_of(s, arch, 100.0));
  EXPECT_EQ(p.bound, "L1 MSHRs (lines in flight)");
  EXPECT_GT(double(p.cycles), s.words / reads_only + 100.0);
}

// 2D bound by the L1's MSHRs: 8 of them, of which the 4 writers write-combine 4 x 8 / 64 lines and
// the one across, 1.5; the reads keep 6.5 lines in flight over a miss, 6.5 x 64 / 114.77 bytes a
// cycle, for the 32 rows of 64 words. The last batch of lines returns with its miss, which the fill
// counts too: the MSHR term is one miss shorter.
TEST(Predict, BlocksBoundByTheL1Mshrs) {
  StencilSpec spec;
  spec.dims = 2;
  spec.radius = {1, 1, 0};
  spec.grid = {64, 32, 1};
  const ArchConfig arch = load_default_arch({"memory.l1.mshrs=8"});
  const BufferEstimate b = estimate_buffering(spec, 4, 1, false, arch);
  const double bytes_per_cycle = 6.5 * 64.0 / kMissLatency;
  const double mshr = 32.0 * 64.0 * 8.0 / bytes_per_cycle;
  ASSERT_LT(b.reader_cycles, mshr - kMissLatency);
  ASSERT_LT(b.dram_cycles, mshr - kMissLatency);
  const CyclePrediction p = predict_blocks(spec, 4, b, arch);
  EXPECT_EQ(p.bound, "L1 MSHRs (lines in flight)");
  EXPECT_EQ(p.cycles, static_cast<std::uint64_t>(std::ceil(mshr - kMissLatency + b.pipeline_cycles)));
}

// 3D r = 1 on 24 x 12 x 10, 2 workers, one block: the lines each stream fetches through the L1.
// A row of W words spans (W + 7) / 8 lines, and r rows 24 words apart no more than the words from
// the first to the last, / 8, + 1: a plane's 12 rows of 24 words span 37 lines, the 10 interior
// rows of the 22 output columns 30.75. The grid's lines loaded once: 8 streamed planes x 37 and
// the 2 outer planes' interior rows, 2 x 30.75. Each output row leaves one line partly written
// (its 2 boundary words and the next row's share a line).
constexpr double kPlaneLines = 37.0, kOutLines = 30.75, kFirst = 8.0 * kPlaneLines + 2.0 * kOutLines;

StencilSpec three_d_r1() {
  StencilSpec spec;
  spec.dims = 3;
  spec.radius = {1, 1, 1};
  spec.grid = {24, 12, 10};
  return spec;
}

// Bound by the L1's 8 MSHRs: the first loads hold theirs a miss, the 80 partial lines 32 idle
// cycles (combine_idle_cycles). The z readers of offsets +1 and -1 lead the main reader by +1 and
// -1 planes: one plane (37 + 30.75 lines, and a plane more) between two loads of a line fits 3/4 of
// the 16 KiB L1 (192 lines), so nothing is fetched again.
TEST(Predict, BlocksWithZReadersBoundByTheL1MshrsOverTheirLines) {
  const ArchConfig arch = load_default_arch({"memory.l1.mshrs=8"});
  const BufferEstimate b = estimate_buffering(three_d_r1(), 2, 1, false, arch);
  ASSERT_EQ(b.blocks.blocks, 1u);
  ASSERT_EQ(b.blocks.out_width, 22u);
  ASSERT_EQ(b.z_streams, 2u);
  const double mshr = (kFirst * kMissLatency + 80.0 * 32.0) / 8.0;
  const CyclePrediction p = predict_blocks(three_d_r1(), 2, b, arch);
  EXPECT_EQ(p.bound, "L1 MSHRs (lines in flight)");
  EXPECT_NEAR(p.terms.mshr, mshr - kMissLatency, 1e-6 * mshr);
  EXPECT_EQ(p.cycles, static_cast<std::uint64_t>(std::ceil(mshr - kMissLatency + b.pipeline_cycles)));
  // A 1 KiB L1 (12 lines in 3/4 of it) holds no plane: the main reader fetches its 8 x 30.75 lines
  // of output rows again and the -1 z reader its 8, from the L2 (L1 2 + L2 12 cycles each); the +1
  // z reader's and the main reader's other lines are the first loads.
  const ArchConfig small = load_default_arch({"memory.l1.mshrs=8", "memory.l1.sets=4"});
  const BufferEstimate bs = estimate_buffering(three_d_r1(), 2, 1, false, small);
  ASSERT_EQ(bs.z_streams, 2u);
  const double fetched = 8.0 * (kPlaneLines - kOutLines) + 3.0 * 8.0 * kOutLines;
  const double mshr_small = (kFirst * kMissLatency + (fetched - kFirst) * 14.0 + 80.0 * 32.0) / 8.0;
  const CyclePrediction ps = predict_blocks(three_d_r1(), 2, bs, small);
  EXPECT_EQ(ps.bound, "L1 MSHRs (lines in flight)");
  EXPECT_EQ(ps.cycles, static_cast<std::uint64_t>(std::ceil(mshr_small - kMissLatency + bs.pipeline_cycles)));
}

// Bound by the DRAM at 5 GB/s (5 / 1.2 bytes a cycle): whole lines, the grid's once and the 80
// partial lines the L2 fetches to merge them; the 246 written lines stay in the 1 MiB L2.
TEST(Predict, BlocksWithZReadersBoundByTheDramOverWholeLines) {
  const ArchConfig arch = load_default_arch({"memory.dram.bandwidth_gbps=5"});
  const BufferEstimate b = estimate_buffering(three_d_r1(), 2, 1, false, arch);
  ASSERT_EQ(b.z_streams, 2u);
  const double dram = (kFirst + 80.0) * 64.0 / (5.0 / 1.2);
  const CyclePrediction p = predict_blocks(three_d_r1(), 2, b, arch);
  EXPECT_EQ(p.bound, "DRAM bandwidth");
  EXPECT_NEAR(p.terms.dram, dram, 1e-6 * dram);
  EXPECT_EQ(p.cycles, static_cast<std::uint64_t>(std::ceil(dram + b.pipeline_cycles)));
}

// An op of `kind` named `name` added to `g` (the hand-made graphs below).
dfg::Vertex named_op(dfg::Dfg& g, const char* name, dfg::OpKind kind) {
  dfg::Op o;
  o.name = name;
  o.kind = kind;
  return g.add_op(o);
}

// The writers' stores' groups in time on a hand-made graph (hop latency 2: an unrouted channel
// is one hop, 2 + injection 1 + ejection 1 = 4 cycles): store `a` gets the load's word after one
// hop (4), `b` after a MUL (4 + 5 + 4 = 13), `c` after the MUL, a 3-hop route (8) and a MAC (7),
// one hop on (4 + 5 + 8 + 7 + 4 = 28). A channel with an initial token (a delay line) is not on a
// word's path: the 20-hop detour from `a` into `c` through it does not count.
TEST(Predict, StoreGroupsCutWhereStoresLieMoreThanTheCombineIdleTimeApart) {
  dfg::Dfg g;
  const auto load = named_op(g, "load", dfg::OpKind::Load), mul = named_op(g, "mul", dfg::OpKind::Mul),
             mac = named_op(g, "mac", dfg::OpKind::Mac), a = named_op(g, "a", dfg::OpKind::Store),
             b = named_op(g, "b", dfg::OpKind::Store), c = named_op(g, "c", dfg::OpKind::Store);
  g.add_channel(load, "out", a, "value");
  g.add_channel(load, "out", mul, "in");
  g.add_channel(mul, "out", b, "value");
  const auto routed = g.add_channel(mul, "out", mac, "in");
  g.channel(routed).route = {{0, 0}, {0, 1}, {0, 2}, {0, 3}};
  g.add_channel(mac, "out", c, "value");
  const auto delay = g.add_channel(a, "done", c, "addr");
  g.channel(delay).initial = {0.0};
  for (unsigned hop = 0; hop <= 20; ++hop) g.channel(delay).route.push_back({1, hop});
  const auto groups = [&](unsigned idle) {
    return store_groups(g, load_default_arch({"fabric.latency.fp_mul=5", "fabric.latency.fp_mac=7",
                                              "network.hop_latency=2",
                                              "memory.l1.combine_idle_cycles=" + std::to_string(idle)}));
  };
  EXPECT_EQ(groups(32), 1u);  // 4, 13, 28: 9 and 15 apart
  EXPECT_EQ(groups(15), 1u);
  EXPECT_EQ(groups(14), 2u);  // 4 and 13 | 28
  EXPECT_EQ(groups(8), 3u);
  // Without its initial token the detour is a path: 4 + 20 hops (42) = 46, 33 after `b`.
  g.channel(delay).initial.clear();
  EXPECT_EQ(groups(32), 2u);
}

// The L1s the placed stores reach: a memory PE's port is its rank among the fabric's memory PEs
// in row-major order, `memory.l1.ports_per_cache` ports to an L1. On paper.yaml's 32 memory PEs,
// stores on the first, second and last of them reach one L1 (32 ports a cache), two (16: ports
// 0 and 1 share the first, 31 is in the second) or three (one port a cache); an unplaced store
// counts for none, and a graph without placed stores has one L1.
TEST(Predict, StoreL1sCountTheCachesTheWritersReach) {
  dfg::Dfg g;
  const auto a = named_op(g, "a", dfg::OpKind::Store), b = named_op(g, "b", dfg::OpKind::Store),
             c = named_op(g, "c", dfg::OpKind::Store);
  named_op(g, "unplaced", dfg::OpKind::Store);
  const auto l1s = [&](unsigned per) {
    return store_l1s(g, load_default_arch({"memory.l1.ports_per_cache=" + std::to_string(per)}));
  };
  EXPECT_EQ(l1s(1), 1u);  // nothing placed yet
  const ArchConfig arch = load_default_arch({});
  const FabricGeometry geo(arch.fabric);
  const std::vector<PePos>& m = geo.positions(PeKind::Memory);
  ASSERT_EQ(m.size(), 32u);
  g.place(a, {m[0].row, m[0].col});
  g.place(b, {m[1].row, m[1].col});
  g.place(c, {m[31].row, m[31].col});
  EXPECT_EQ(l1s(32), 1u);
  EXPECT_EQ(l1s(16), 2u);
  EXPECT_EQ(l1s(1), 3u);
  g.place(c, {m[1].row, m[1].col});  // two stores on one port
  EXPECT_EQ(l1s(1), 2u);
}

// The pipeline's latency on a hand-made graph: LOAD -> MUL -> MAC -> STORE -> SYNC -> JOIN, with
// one channel routed over 3 hops, and a second MAC whose accumulator channel starts with an
// initial token (a delay line: not on the last word's path).
TEST(Predict, PipelineLatencyIsTheLongestPathWithoutDelayLines) {
  dfg::Dfg g;
  const auto load = named_op(g, "load", dfg::OpKind::Load), mul = named_op(g, "mul", dfg::OpKind::Mul),
             mac = named_op(g, "mac", dfg::OpKind::Mac), late = named_op(g, "late", dfg::OpKind::Mac),
             store = named_op(g, "store", dfg::OpKind::Store),
             sync = named_op(g, "sync", dfg::OpKind::Sync), join = named_op(g, "join", dfg::OpKind::Join);
  g.add_channel(load, "out", mul, "in");
  const auto routed = g.add_channel(mul, "out", mac, "acc");
  g.channel(routed).route = {{0, 0}, {0, 1}, {0, 2}, {0, 3}};
  g.add_channel(load, "out", mac, "in");
  g.add_channel(mac, "out", store, "value");
  g.add_channel(store, "done", sync, "in");
  g.add_channel(sync, "out", join, "in0");
  // A long detour through `late`, cut by the initial token on its way back into the chain.
  g.add_channel(load, "out", late, "in");
  const auto delay = g.add_channel(mul, "out", late, "acc");
  g.channel(delay).initial = {0.0};
  const auto back = g.add_channel(late, "out", store, "value");
  g.channel(back).initial = {0.0};
  g.channel(back).route = {{1, 0}, {1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}};
  const ArchConfig arch = load_default_arch({"fabric.latency.fp_mul=5", "fabric.latency.fp_mac=7",
                                             "network.hop_latency=2"});
  // paper.yaml: injection 1, ejection 1, L1 hit 2, L2 hit 12, DRAM 100.
  const double one_hop = 1 * 2 + 1 + 1, three_hops = 3 * 2 + 1 + 1, five_hops = 5 * 2 + 1 + 1;
  const double load_latency = 2 + 12 + 100;
  const double path = one_hop + 5      // load -> mul (unrouted: one hop), MUL
                      + three_hops + 7  // mul -> mac over 3 hops, MAC
                      + one_hop + 2     // mac -> store, a STORE's L1 hit
                      + one_hop + 1     // store -> sync
                      + one_hop + 1;    // sync -> join (the done op)
  EXPECT_DOUBLE_EQ(pipeline_latency(g, "join", arch), load_latency + path);
  // Without the initial tokens the detour through `late` (a one-hop link, its MAC, a 5-hop link)
  // is longer than the 3-hop link into `mac`, and the path takes it.
  g.channel(back).initial.clear();
  g.channel(delay).initial.clear();
  const double detour = one_hop + 5 + one_hop + 7 + five_hops + 2 + one_hop + 1 + one_hop + 1;
  ASSERT_GT(detour, path);
  EXPECT_DOUBLE_EQ(pipeline_latency(g, "join", arch), load_latency + detour);
}

}  // namespace
}  // namespace cgra
