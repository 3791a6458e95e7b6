#pragma once
/// \file dot_cgraph.h
/// Internal to the DOT pictures (dot.cpp, dot_logical.cpp): small helpers over Graphviz's cgraph
/// and the builders of the two views. Not part of the public API.

#include <graphviz/cgraph.h>

#include <cstdio>
#include <memory>
#include <string>

#include "dfg/dot.h"

namespace cgra::dfg::dot_detail {

struct AgraphCloser {
  void operator()(Agraph_t* g) const { agclose(g); }
};
using AgraphPtr = std::unique_ptr<Agraph_t, AgraphCloser>;

// cgraph's API takes `char*` for strings it only reads (it copies them into its string pool).
inline char* c(const std::string& s) { return const_cast<char*>(s.c_str()); }
inline char* c(const char* s) { return const_cast<char*>(s); }

inline void set(void* obj, const char* attr, const std::string& value) { agsafeset(obj, c(attr), c(value), c("")); }

/// Sets `attr` of `obj` to an HTML-like label text (written as <...> by agwrite).
inline void set_html(Agraph_t* g, void* obj, const char* attr, const std::string& html) {
  char* s = agstrdup_html(g, c(html));
  agsafeset(obj, c(attr), s, c(""));
  agstrfree(g, s);
}

/// `text` with the characters HTML-like labels treat specially escaped.
inline std::string html_escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

/// A number for a DOT attribute: an integer without a decimal point ("300"), else with at most
/// three decimals ("-0.35").
inline std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

/// A coefficient to 4 significant digits ("0.05882").
inline std::string coef_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

/// The constant operand of an FDIV, FMIN or FMAX, as its label shows it ("rhs=3", "lhs=1"), or
/// "" when both operands are streams (or the op takes no constant).
inline std::string const_operand_text(const Op& op) {
  for (const char* side : {"lhs", "rhs"})
    if ((op.kind == OpKind::Fdiv || op.kind == OpKind::Fmin || op.kind == OpKind::Fmax) && op.find_imm(side) != nullptr)
      return std::string(side) + "=" + coef_text(op.f64(side));
  return "";
}

/// The logical view (dot_logical.cpp). `disc` must outlive the returned graph.
AgraphPtr build_logical(const Dfg& dfg, const DotOptions& options, Agdisc_t* disc);

}  // namespace cgra::dfg::dot_detail
