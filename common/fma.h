#pragma once
/// \file fma.h
/// fused_multiply_add(a, b, c) = std::fma(a, b, c), a * b + c rounded once, issued inline where
/// the host has the FMA instructions.
///
/// A build for baseline x86-64 (no FMA instructions assumed, as Debian's packages are built)
/// compiles std::fma to a call into libm, and a call in a hot loop costs far more than the
/// instruction (the fabric's stepping loop saves everything it keeps in registers around it). So
/// where the host has FMA the instruction is issued inline: the same single rounding, the same
/// result (tests/pe/pe_core_test.cpp checks it against std::fma).

#include <cmath>

namespace cgra {

#if !defined(__FMA__) && defined(__x86_64__) && defined(__GNUC__)
// Whether the host has the FMA instructions (read once, before main; a call during static
// initialisation, before this is set, takes the std::fma path, which gives the same result).
inline const bool host_has_fma = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma") != 0;
}();
#endif

[[gnu::always_inline]] inline double fused_multiply_add(double a, double b, double c) {
#if !defined(__FMA__) && defined(__x86_64__) && defined(__GNUC__)
  if (host_has_fma) [[likely]] {
    asm("vfmadd231sd %2, %1, %0" : "+x"(c) : "x"(a), "x"(b));
    return c;
  }
#endif
  return std::fma(a, b, c);
}

}  // namespace cgra
