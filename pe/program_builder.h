#pragma once
/// \file program_builder.h
/// The small instruction builder the program generators share (programs.cpp, addr_programs.cpp),
/// so that a generator reads like its listing. Internal to pe/; not for use elsewhere.

#include <cstdint>
#include <initializer_list>
#include <string>

#include "pe/isa.h"

namespace cgra::pe_build {

inline std::uint64_t bit(unsigned i) { return std::uint64_t{1} << i; }
inline std::uint32_t qbit(unsigned i) { return std::uint32_t{1} << i; }

// Small builder so the generators read like their listings.
struct Ins {
  Instruction in;
  explicit Ins(Opcode op) { in.op = op; }
  Ins& when(std::uint64_t t, std::uint64_t f = 0) {
    in.trigger.pred_true |= t;
    in.trigger.pred_false |= f;
    return *this;
  }
  Ins& tag_test(unsigned q, std::uint8_t tag, bool equal) {
    in.trigger.tag_tests.push_back({static_cast<std::uint8_t>(q), tag, equal});
    return *this;
  }
  Ins& src(Operand a, Operand b = {}, Operand c = {}) {
    in.src = {a, b, c};
    return *this;
  }
  Ins& out(unsigned q) {
    in.dest.out_mask |= qbit(q);
    return *this;
  }
  Ins& reg(unsigned r) {
    in.dest.reg = static_cast<int>(r);
    return *this;
  }
  Ins& pred(unsigned p, PredCompare cmp = PredCompare::NotEqual, Operand ref = Operand::imm(std::int64_t{0})) {
    in.dest.pred = static_cast<int>(p);
    in.dest.pred_cmp = cmp;
    in.dest.pred_ref = ref;
    return *this;
  }
  Ins& tag(std::uint8_t t) {
    in.dest.tag = t;
    return *this;
  }
  Ins& tag_mode(TagMode m) {
    in.dest.tag_mode = m;
    return *this;
  }
  Ins& deq(unsigned q) {
    in.deq |= qbit(q);
    return *this;
  }
  Ins& set(std::uint64_t m) {
    in.pred_set |= m;
    return *this;
  }
  Ins& clr(std::uint64_t m) {
    in.pred_clear |= m;
    return *this;
  }
  Ins& reply(unsigned q, std::uint8_t t) {
    in.reply_queue = static_cast<int>(q);
    in.reply_tag = t;
    return *this;
  }
};

inline Program make(std::string name, std::initializer_list<Ins> ins) {
  Program p;
  p.name = std::move(name);
  for (const Ins& i : ins) p.instructions.push_back(i.in);
  return p;
}

inline Operand q(unsigned i) { return Operand::queue(i); }
inline Operand r(unsigned i) { return Operand::reg(i); }
inline Operand imm(std::int64_t v) { return Operand::imm(v); }

// Wrapping signed arithmetic for immediates computed at generation time.
inline std::int64_t wrap(std::uint64_t v) { return static_cast<std::int64_t>(v); }

}  // namespace cgra::pe_build
