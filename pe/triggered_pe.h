#pragma once
/// \file triggered_pe.h
/// The triggered-instruction processing element, stepped by the two-phase contract of
/// docs/architecture.md, "The timing contract".
///
/// Per cycle t the owner calls, for every component, evaluate(t) and then, for every component,
/// commit(). evaluate reads only state committed at the end of t-1 (predicates, registers, the
/// committed contents of the PE's queues) and stages effects; commit applies them and commits the
/// PE's own queues (input, output, memory-request). Writers into the input queues (routes, the
/// memory system) and readers of the output queues (routes) act in their own evaluate; only this
/// PE ever calls commit() on its queues. The result never depends on the order PEs are stepped.
///
/// Timing: an instruction issued in cycle t whose op has latency L (from PeParams::latency) has
/// its result visible at t+L: in an output queue (readable by the consumer in t+L), in a register
/// or predicate (readable by triggers and operands in t+L). Dequeues and the instruction's
/// predicate set/clear take effect at the end of t (visible at t+1). Destination space is claimed
/// at issue (queue reserve()), so nothing ever overflows.
///
/// Register/predicate hazard rule: an instruction whose operands, destination or predicate
/// updates name a register or predicate with a result still in flight does not fire (it stalls,
/// counted as StallReason::Hazard). Results into one output queue enter it in issue order: an
/// instruction that would land before an earlier result bound for the same queue waits too.

#include <array>
#include <cstdint>
#include <limits>
#include <memory_resource>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "common/mem_request.h"
#include "common/queue.h"
#include "common/queue_mask.h"
#include "config/pe_params.h"
#include "pe/isa.h"

namespace cgra {

/// A PE configuration or program error (bad parameters, invalid or oversized program); the
/// message names the PE and, where relevant, the instruction.
class PeError : public Error {
 public:
  explicit PeError(const std::string& what) : Error(ErrorKind::Internal, what) {}
};

/// Why a PE issued nothing in a cycle. When several instructions are blocked for different
/// reasons, the cycle is charged to the highest-ranked reason:
/// OutputFull > Memory > Hazard > NoInput > NoTrigger (see docs/pe.md).
enum class StallReason : std::uint8_t {
  None,        ///< an instruction issued
  NoTrigger,   ///< no instruction's predicate pattern holds
  NoInput,     ///< predicates hold, but an input queue is empty or its head has the wrong tag
  Hazard,      ///< waiting for an own function-unit result (register/predicate/queue order)
  Memory,      ///< a load reply is pending on an empty reply queue, or the request or reply queue is full
  OutputFull,  ///< a destination output queue has no free slot
};
inline constexpr unsigned kStallReasonCount = 6;
/// Name of a stall reason ("output_full").
std::string_view stall_reason_name(StallReason r);

/// Per-PE statistics (plain counters; derived figures at report time). The stall counters are
/// accumulated in evaluate; `cycles`, `issued` and `issued_per_op` are derived by
/// TriggeredPe::stats() from the first and last cycles evaluated and the instructions' own issue
/// counters, so that a cycle in which the PE issues writes no statistics line.
struct PeStats {
  std::uint64_t cycles = 0;   ///< cycles evaluated (including skipped idle cycles)
  std::uint64_t issued = 0;   ///< instructions issued
  std::array<std::uint64_t, kStallReasonCount> stalls{};       ///< index: StallReason (None unused)
  std::array<std::uint64_t, kOpcodeCount> issued_per_op{};     ///< index: Opcode
  std::uint64_t loads = 0;    ///< load requests sent
  std::uint64_t stores = 0;   ///< store requests sent
};

/// What blocked the PE in the last evaluated cycle (for deadlock reports).
struct StallInfo {
  StallReason reason = StallReason::None;
  int instruction = -1;  ///< program index of the instruction charged, or -1
  int queue = -1;        ///< the queue involved (input for NoInput/Memory, output for OutputFull), or -1
};

/// PE construction options not covered by PeParams.
struct PeOptions {
  unsigned mem_request_depth = 0;  ///< memory-request queue depth; 0 = output_queue_depth
  bool fp_units = true;            ///< may execute FMUL/FMAC/FADD/FSUB
  bool memory_port = true;         ///< may execute LOAD/STORE
  /// Where the PE's arrays (queues and their first rings, program, in-flight results, registers)
  /// are allocated; nullptr = the heap. A fabric passes one monotonic arena for all its PEs, so
  /// that each PE's state lies in one stretch of memory, PE after PE in the order they are built
  /// and loaded, instead of scattered over the heap: the fabric steps its PEs in that order every
  /// cycle. The arena must outlive the PE and is never asked to give memory back.
  std::pmr::memory_resource* arena = nullptr;
  /// Entries added to input queue q's depth (index q; missing = 0): the words a route's pipeline
  /// stages hold in flight towards that queue (network.stage_buffer_words), which the model keeps
  /// in the queue itself. The PE reads only a queue's head, so this changes nothing but credit.
  std::vector<unsigned> input_extra;
};

/// One triggered-instruction PE (see the file comment for the phase contract).
class alignas(64) TriggeredPe {
 public:
  /// "No cycle" answer of next_result_cycle().
  static constexpr std::uint64_t kNoCycle = std::numeric_limits<std::uint64_t>::max();

  /// Builds a PE with the queues, predicates and registers of `params`; throws PeError naming
  /// `name` if a count is zero or beyond the model's limits (64 predicates/registers, 32 queues).
  TriggeredPe(std::string name, const PeParams& params, PeOptions options = {});
  /// Not copyable (the per-cycle steps keep plain pointers to the PE's arrays); a move keeps the
  /// arrays where they are, so queue addresses bound into a network stay valid.
  TriggeredPe(const TriggeredPe&) = delete;
  TriggeredPe& operator=(const TriggeredPe&) = delete;
  TriggeredPe(TriggeredPe&&) noexcept = default;
  TriggeredPe& operator=(TriggeredPe&&) = delete;
  ~TriggeredPe() = default;

  /// Name used in every message about this PE.
  const std::string& name() const { return name_; }
  /// Parameters the PE was built with.
  const PeParams& params() const { return params_; }

  /// Validates and decodes `program`, then resets predicates, registers, in-flight results and
  /// statistics to the program's initial state. Throws PeError naming the PE and instruction.
  /// Call before the first cycle; queues are kept (their addresses stay valid for routes).
  void load_program(const Program& program);
  /// The program last loaded (source form, for listings and messages).
  const Program& program() const { return program_; }

  /// Evaluate phase of `cycle`: issues at most one instruction (the first ready in program
  /// order) and stages its effects. Cycles must increase; a gap (skip-ahead) is allowed only while
  /// quiescent() and is charged to the last stall reason.
  void evaluate(std::uint64_t cycle);
  /// Commit phase: applies predicate updates and landing results, then commits the PE's queues.
  void commit();

  /// Input queue i: routes and the memory system push into it in their evaluate phase; keep the
  /// reference (stable for the PE's lifetime) rather than looking it up per cycle.
  TwoPhaseQueue& input(unsigned i) { return inputs_.at(i); }
  const TwoPhaseQueue& input(unsigned i) const { return inputs_.at(i); }
  /// Output queue i: routes pop it in their evaluate phase.
  TwoPhaseQueue& output(unsigned i) { return outputs_.at(i); }
  const TwoPhaseQueue& output(unsigned i) const { return outputs_.at(i); }
  /// Number of input / output queues.
  unsigned input_count() const { return static_cast<unsigned>(inputs_.size()); }
  unsigned output_count() const { return static_cast<unsigned>(outputs_.size()); }
  /// Outbound memory requests (pushed in evaluate; the fabric/memory side pops them).
  BasicTwoPhaseQueue<MemRequest>& mem_requests() { return mem_requests_; }
  const BasicTwoPhaseQueue<MemRequest>& mem_requests() const { return mem_requests_; }

  /// Committed value of register i.
  Word reg(unsigned i) const { return regs_.at(i); }
  /// Committed value of predicate i.
  bool pred(unsigned i) const { return (preds_ >> i) & 1u; }
  /// All committed predicates (bit i = predicate i).
  std::uint64_t preds() const { return preds_; }

  /// True if the loaded program is a stream program (no predicates, registers, loads or stores;
  /// results land in issue order), which the scheduler steps without the tests that cannot fail
  /// for it. Results are the same either way.
  bool stream_program() const { return stream_; }
  /// True if the program is a single stream instruction with no tag test (the mapper's MAC, MUL,
  /// ADD and forwarding PEs), which step() runs without the loop over instructions.
  bool single_program() const { return single_; }
  /// True if the program is not a stream program but every result it writes has latency 1 and
  /// it has no LOAD or STORE (the mapper's address and bit generators and its sync PEs on
  /// the default latencies): step() lands each result at its issue, without the in-flight wheel,
  /// and leaves out the hazard, memory and order tests, which cannot fail for it. Results are the
  /// same either way.
  bool direct_program() const { return direct_; }
  /// True if the program is compiled at load for its queues: a single program whose one
  /// instruction reads one to three input queues and writes one output queue (the mapper's MAC,
  /// MUL, ADD and forwarding PEs), or a filter (filter_program()). step() then runs it without
  /// walking queue sets. Results are the same either way.
  bool compiled_program() const { return kernel_ != 0; }
  /// True if the program is a data filter compiled at load: two stream instructions that read and
  /// pop the same one to three input queues, the first a MOV of latency 1 into one output queue
  /// when the head of one of them has tag T, the second one that writes nothing (a DROP) when it
  /// has not (pe/programs.h, filter_by_bits_program).
  bool filter_program() const { return filter_; }
  /// How step() runs the program, chosen at load (one dispatch instead of a chain of tests): by its
  /// shape (General, Stream: stream_program(), Direct: direct_program(), Single: single_program()
  /// not compiled), compiled for its 1 to 3 queues (Compiled1..3, compiled_program()), or compiled
  /// with its instruction computed directly: Mac, an FMAC of an immediate and two input queues
  /// with a constant tag (the mapper's MAC PEs), and Move1 / Move2, a MOV of an input queue's head
  /// with its own tag reading one queue (the mapper's copies) or two (its data filters). Results
  /// are the same whichever it is.
  enum class StepKind : std::uint8_t {
    General, Stream, Direct, Single, Compiled1, Compiled2, Compiled3, Mac, Move1, Move2
  };
  StepKind step_kind() const { return step_kind_; }
  /// A compiled program's queues (compiled_program()): the output queue it writes and the input
  /// queues its instruction pops (a filter's two pop the same). Whatever step() reports for such a
  /// PE is one of these or none: pushed is {output} or empty, popped is `pops` or empty.
  struct CompiledQueues {
    unsigned output = 0;
    QueueMask pops;
  };
  CompiledQueues compiled_queues() const { return {k_out_, dec_[0].dequeues}; }
  /// What step() reports: whether the PE was quiescent() after its evaluate phase, and the queues
  /// it pushed into and popped at its commit (outputs_pushed() / inputs_popped()).
  struct StepResult {
    bool quiescent = false;
    QueueMask pushed, popped;
  };
  /// evaluate(cycle) followed by commit() in one pass, for a caller that knows which queues others
  /// touched this cycle (the fabric's stepping loop): `inputs_touched` / `outputs_touched` must
  /// include every input queue others pushed into and every output queue others popped since the
  /// last commit (a superset is fine). The PE adds the queues it touched itself, so only those are
  /// committed instead of every queue scanned, and what the evaluate phase stages for the commit
  /// stays in registers instead of members. The effect is identical to evaluate() then commit()
  /// whenever the masks are complete. The memory-request queue is always checked.
  StepResult step(std::uint64_t cycle, QueueMask inputs_touched, QueueMask outputs_touched);
  /// True if the last evaluated cycle issued an instruction.
  bool issued_last_cycle() const { return issued_; }
  /// Idle and nothing in flight: the last cycle issued nothing and no function-unit result is
  /// pending. Pending load replies are the memory system's in-flight work (awaiting_memory()).
  bool quiescent() const { return !issued_ && inflight_count_ == 0; }
  /// True if state visible to triggers (predicates, registers, queue contents or space) changed at
  /// the last commit. A PE that is quiescent() and not state_changed() stalls again in the next
  /// cycle unless something outside (a route, the memory system) writes into or pops its queues:
  /// the fabric's skip-ahead test.
  bool state_changed() const { return changed_; }
  /// Output queues into which results were pushed at the last commit: the only
  /// way a word enters an output queue, so a route that found its source empty needs to look
  /// again only after such a push.
  QueueMask outputs_pushed() const { return outputs_pushed_; }
  /// Input queues this PE popped at the last commit: the only way a slot of an
  /// input queue is freed, so a route's credit changes only then.
  QueueMask inputs_popped() const { return inputs_popped_; }
  /// True if some load reply is still owed to an input queue of this PE.
  bool awaiting_memory() const;
  /// Earliest cycle at which an in-flight function-unit result becomes visible, or kNoCycle.
  std::uint64_t next_result_cycle() const;

  /// Issue and stall counters (always up to date).
  const PeStats& stats() const;
  /// Brings the statistics of the PE's queues up to date. Queues are committed only in cycles in
  /// which they change and idle cycles are accounted lazily, so call this before reading
  /// input(i).stats() / output(i).stats() / mem_requests().stats().
  void settle_statistics();
  /// What blocked the last evaluated cycle (reason None: it issued; `instruction` = the issued one).
  const StallInfo& last_stall() const { return last_stall_; }
  /// Human-readable cause of the last stall, e.g. "pe 'mac0': instruction 0 (fmac) waits on
  /// input queue 1 (empty)". Not for hot paths.
  std::string describe_stall() const;

 private:
  // An instruction decoded into the masks the scheduler tests each cycle (built at load).
  struct Decoded {
    // What the scheduler tests, in the first cache line.
    std::uint64_t pred_true = 0, pred_false = 0;
    std::uint64_t pred_hazard = 0;  // predicates read or written (blocked while a result is pending)
    std::uint64_t reg_hazard = 0;   // registers read or written
    QueueMask inputs_needed;        // input queues that must be non-empty
    QueueMask outputs_needed;       // output queues that must have a free slot (its destinations)
    std::array<TagTest, kMaxTagTests> tags{};
    std::uint8_t tag_count = 0;
    Opcode op = Opcode::Mov;
    std::uint8_t latency = 1;
    std::int8_t reply = -1;
    bool has_result = false;        // produces a value for `dest`
    bool writes = false;            // has_result and a non-empty destination
    // The iterative (not pipelined) unit it occupies from issue until its result lands, as a bit of
    // busy_units_ (kUnitDiv, kUnitSqrt), or 0: a pipelined unit, or a latency of 1.
    std::uint8_t unit = 0;
    // What issue() reads.
    QueueMask dequeues;             // input queues popped at issue
    std::uint64_t pred_set = 0, pred_clear = 0;
    std::array<Operand, 3> src{};
    std::int8_t reg = -1;
    std::int8_t pred = -1;
    PredCompare pred_cmp = PredCompare::NotEqual;
    TagMode tag_mode = TagMode::Const;
    std::uint8_t tag = 0;
    std::uint8_t reply_tag = 0;
    Operand pred_ref;
    std::uint64_t issued = 0;       // times issued (summed per opcode by stats())
  };
  // The predicate pattern of each instruction, apart from the rest of Decoded: the scheduler
  // tests it for every instruction each cycle, the rest only for those whose pattern holds.
  struct PredPattern {
    std::uint64_t pred_true = 0, pred_false = 0;
  };
  // A function-unit result on its way; filed in the wheel bucket of the commit cycle at which it
  // is written (issue + L - 1).
  struct InFlight {
    Word value;
    QueueMask outputs;  // the output queues it lands in
    std::int8_t reg = -1;
    std::int8_t pred = -1;
    bool pred_value = false;
    std::uint8_t unit = 0;  // Decoded::unit: the iterative unit it frees when it lands
  };
  // Bits of Decoded::unit and busy_units_.
  static constexpr std::uint8_t kUnitDiv = 1, kUnitSqrt = 2;

  void decode(const Program& program);
  [[noreturn, gnu::cold, gnu::noinline]] void fail_cycle(std::uint64_t cycle) const;
  // cycle_ before the first cycle evaluated (so that cycle 0 first is "the next cycle").
  static constexpr std::uint64_t kNotStarted = std::numeric_limits<std::uint64_t>::max();
  bool started() const { return cycle_ != kNotStarted; }
  // evaluate's entry when `cycle` is not the one after the last: the first cycle, a skip-ahead
  // gap, or a misuse (which throws).
  [[gnu::cold, gnu::noinline]] void enter_cycle(std::uint64_t cycle);
  void bind_arrays();
  void refresh_masks();
  // The per-cycle steps of evaluate(), commit() and step(), defined in triggered_pe_step.h and
  // always inlined into them: each runs for nearly every PE every cycle, and a call costs about as
  // much as their common case (saving and restoring the registers they use). The shape of the
  // program picks the variant: General, Stream (stream_) or Single (single_, a stream program).
  // Direct (direct_): a general program whose results all have latency 1 and that has no LOAD or
  // STORE; step() lands its result at the issue (see issue()).
  enum class Shape : std::uint8_t { General, Stream, Single, Direct };
  // The shapes of a stream program (Single is one too).
  static constexpr bool stream_shape(Shape s) { return s == Shape::Stream || s == Shape::Single; }
  // What the evaluate phase stages for the commit: the queues this PE pops, pushes into and
  // reserves a slot in this cycle, and the predicates its issue sets and clears. evaluate() and
  // commit() keep it in staged_; step() in a local.
  struct Staged {
    QueueMask popping, pushing, reserving;
    std::uint64_t set = 0, clear = 0;
  };
  template <Shape S>
  [[gnu::always_inline]] inline void evaluate_as(std::uint64_t cycle, Staged& s);
  template <Shape S>
  [[gnu::always_inline]] inline void issue(const Decoded& d, unsigned index, Staged& s);
  template <Shape S>
  [[gnu::always_inline]] inline bool land_results(Staged& s);
  template <Shape S>
  [[gnu::always_inline]] inline void commit_touched(QueueMask inputs_touched, QueueMask outputs_touched, Staged& s);
  [[gnu::always_inline]] inline void commit_queues(QueueMask cand_in, QueueMask cand_out, bool changed, Staged& s);
  template <Shape S>
  [[gnu::always_inline]] inline StepResult step_as(std::uint64_t cycle, QueueMask inputs_touched,
                                                   QueueMask outputs_touched);
  // What step_compiled computes: any instruction (result_of), or one of two it computes directly.
  enum class Kernel : std::uint8_t { Any, Mac, Move };
  template <unsigned N, Kernel K = Kernel::Any>
  [[gnu::always_inline]] inline StepResult step_compiled(std::uint64_t cycle, QueueMask inputs_touched,
                                                         QueueMask outputs_touched);
  // step_as<Shape::Stream> out of line: a compiled filter's rare cycle in which others touched a
  // queue outside its program's (inlined, it would cost the common steps registers).
  [[gnu::noinline]] StepResult step_stream_out_of_line(std::uint64_t cycle, QueueMask inputs_touched,
                                                       QueueMask outputs_touched);
  void compile_single();  // sets kernel_ and the k_ fields (load_program)
  void compile_filter();  // sets filter_ and the k_ fields (load_program)
  bool set_kernel(QueueMask in, QueueMask out);  // the k_ fields and kernel_ of either
  void choose_step_kind();  // sets step_kind_ (load_program, after the two above)
  template <bool kStream>
  [[gnu::always_inline]] inline Word fetch(const Operand& o) const;
  [[gnu::always_inline]] static inline Word result_of(const Decoded& d, Word a, Word b, Word c);
  bool reply_owed(unsigned q) const;
  unsigned latency_of(OpClass c) const;

  // Hot state first: what evaluate() and commit() read or write every stepped cycle, kept in a
  // few adjacent cache lines (the fabric steps hundreds of PEs per cycle).
  std::uint64_t cycle_ = kNotStarted;
  std::uint64_t commits_ = 0;        // cycles committed (incl. skipped); queue stats catch up to it
  std::uint64_t preds_ = 0;
  std::uint64_t pending_regs_ = 0;   // registers with a result in flight
  std::uint64_t pending_preds_ = 0;  // predicates with a result in flight
  std::uint8_t busy_units_ = 0;      // iterative units (Decoded::unit bits) with an op in flight
  // Queue sets (common/queue_mask.h). The committed queue status, recomputed at commit so that
  // triggers are pure bit tests:
  QueueMask inputs_nonempty_;      // input queues holding a committed word
  QueueMask outputs_free_;         // output queues with a free slot
  // What evaluate() staged for commit() in the cycle under way (step() keeps it in a local) ...
  Staged staged_;
  // ... and what this PE did to its queues at the last commit (for the fabric's reports to the
  // network):
  QueueMask outputs_pushed_;       // Staged::pushing of the last commit (outputs_pushed())
  QueueMask inputs_popped_;        // Staged::popping of the last commit (inputs_popped())
  // Fixed by the parameters or the program:
  QueueMask reply_inputs_;         // input queues some LOAD names as its reply queue
  QueueMask all_inputs_;           // every input queue
  QueueMask all_outputs_;          // every output queue
  bool issued_ = false;
  bool changed_ = true;            // state visible to triggers changed at the last commit
  bool memory_port_ = false;       // options_.memory_port: only then can mem_requests_ change
  // Some output queue is written by instructions of different latencies, so a result could land
  // before an earlier one bound for the same queue (the in-order test of evaluate); else results
  // land in issue order by themselves and out_last_land_ is not kept.
  bool order_check_ = false;
  // A stream program: no instruction tests, sets, clears or writes a predicate, reads or writes a
  // register, or is a LOAD or STORE, and results land in issue order (not order_check_). The
  // mapper's MAC, MUL, ADD and data-filter PEs (most of a stencil's fabric) run one; the scheduler
  // then skips the tests that cannot fail for it (Shape::Stream).
  bool stream_ = false;
  bool single_ = false;  // single_program()
  // Not a stream program, but every result has latency 1, no instruction is a LOAD or STORE and
  // results land in issue order: step() runs it as Shape::Direct. Its results land at the commit
  // of their issue cycle, so nothing is pending or in flight when it evaluates.
  bool direct_ = false;
  // A single program or a filter compiled at load into step_compiled<N> (see there): N = kernel_,
  // the number of input queues its instructions read (1..3); 0 = not compiled (neither, or one that
  // reads no queue or more than three, or writes other than one output queue). k_in_ lists those
  // queues, k_out_ is its output queue, k_used_in_ / k_used_out_ the same as sets.
  std::uint8_t kernel_ = 0;
  StepKind step_kind_ = StepKind::General;  // step_kind()
  // A filter compiled at load into step_compiled<N> as well (filter_program(); kernel_ = N, the
  // k_ fields likewise): it passes a word when the head of input queue k_tag_queue_ has tag k_tag_.
  bool filter_ = false;
  std::uint8_t k_tag_queue_ = 0;
  std::uint8_t k_tag_ = 0;
  std::uint8_t k_out_ = 0;
  std::array<std::uint8_t, 3> k_in_{};
  QueueMask k_used_in_, k_used_out_;
  StallInfo last_stall_;
  std::uint32_t inflight_count_ = 0;  // results in all buckets of the wheel
  std::uint32_t n_instr_ = 0;         // decoded_.size()
  std::uint32_t wheel_slots_ = 1;
  // The arrays the per-cycle steps use, as plain pointers in one cache line (the vectors below own
  // them; bind_arrays() sets these after every allocation; a move keeps the arrays, and the PE is
  // not copyable).
  const PredPattern* pat_ = nullptr;
  Decoded* dec_ = nullptr;
  TwoPhaseQueue* in_ = nullptr;
  TwoPhaseQueue* out_ = nullptr;
  InFlight* wheel_p_ = nullptr;
  std::uint32_t* wcount_ = nullptr;
  Word* regs_p_ = nullptr;
  std::uint64_t wheel_mask_ = 0;
  // The stall counters, written in stalled cycles only, in a line of their own (stats() fills in
  // cycles, issued and issued_per_op).
  alignas(64) mutable PeStats stats_;
  std::pmr::memory_resource* mem_;  // PeOptions::arena, or the heap; every array below comes from it
  std::pmr::vector<PredPattern> patterns_{mem_};  // parallel to decoded_
  std::pmr::vector<Decoded> decoded_{mem_};
  // Results in flight, in a timing wheel indexed by land cycle: bucket b holds the results that
  // land at the commit of a cycle c with (c & wheel_mask_) == b, in issue order, in
  // wheel_[b * wheel_slots_ ...] (wheel_count_[b] of them). Sized at load (see load_program), so
  // landing costs only the results due, with no per-cycle allocation or compaction.
  std::pmr::vector<InFlight> wheel_{mem_};
  std::pmr::vector<std::uint32_t> wheel_count_{mem_};
  std::pmr::vector<TwoPhaseQueue> inputs_{mem_};
  std::pmr::vector<TwoPhaseQueue> outputs_{mem_};
  std::pmr::vector<Word> regs_{mem_};
  std::pmr::vector<std::uint64_t> out_last_land_{mem_};  // per output queue: land cycle of the youngest result
  // Load replies owed per input queue = loads issued to it minus words committed into it since the
  // program was loaded (reply queues receive only replies). Uses committed counts only, so the
  // answer does not depend on whether the memory side was stepped before this PE.
  std::pmr::vector<std::uint64_t> loads_to_{mem_};
  std::pmr::vector<std::uint64_t> pushes_base_{mem_};
  BasicTwoPhaseQueue<MemRequest> mem_requests_;
  // Cold: names and parameters, read when the PE is built and in messages.
  std::string name_;
  PeParams params_;
  PeOptions options_;
  Program program_;
  std::uint64_t first_cycle_ = 0;  // the first cycle evaluated (stats().cycles counts from it)
};

}  // namespace cgra

#include "pe/triggered_pe_step.h"  // IWYU pragma: export
