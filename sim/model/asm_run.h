#pragma once
/// \file asm_run.h
/// Running a hand-written DFG assembly program: the program (.asm) plus a sidecar YAML (same
/// stem, .yaml) naming the input arrays the host writes, the output arrays it reads back and the
/// host reference each output is checked against. Format in docs/model.md.
///
///   inputs:  {NAME: {addr: A, values: [..]} | {addr: A, ramp: {count: N, start: S, step: D}}}
///   outputs: {NAME: {addr: A, count: N}}
///   check:   {OUTPUT: {scale: {input: X, coef: C}}            y[i] = C * x[i]
///                    | {fir: {input: X, coefs: [c0, c1, ...]}} y[i] = fma(c_k, x[i+k], ...(c0 *
///                    x[i])) | {values: [..]}}                          literal expected values

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.h"
#include "dfg/graph.h"
#include "sim/model/modules.h"

namespace cgra {

/// A bad sidecar file or a sidecar that does not match the program; what() names file and key.
class AsmRunError : public Error {
 public:
  explicit AsmRunError(const std::string& what) : Error(ErrorKind::BadInput, what) {}
};

/// An output and the values the host reference says it must hold.
struct OutputCheck {
  std::string output;
  std::vector<double> expected;
};

/// Everything needed to run and check one assembly program.
struct AsmRun {
  std::string asm_path;
  std::string sidecar_path;  ///< empty when there is none (then nothing is written or checked)
  dfg::Dfg program;
  std::vector<HostArray> inputs;
  std::vector<OutputArray> outputs;
  std::vector<OutputCheck> checks;
};

/// Reads `asm_path` and its sidecar (`<stem>.yaml` next to it, if it exists). Throws
/// dfg::AsmParseError for the program, AsmRunError for the sidecar, FileError when unreadable.
AsmRun load_asm_run(const std::string& asm_path);

/// Compares outputs (in AsmRun::outputs order) with the checks, bit for bit (NaNs by bits too).
/// Returns one line per mismatching output naming the first differing index, both values and
/// the number of mismatches; empty when everything matches.
std::vector<std::string> check_outputs(const AsmRun& run,
                                       const std::vector<std::vector<double>>& outputs);

}  // namespace cgra
