#pragma once
/// \file cli_spec.h
/// The cgrasim command's stencil and architecture: the spec file merged under the flags, the
/// stencil spec and worker count they give, and the architecture loaded with every --set.
/// Internal to the command.

#include <iosfwd>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/arch_config.h"
#include "mapper/roofline.h"
#include "sim/cli_options.h"
#include "sim/model/simulation.h"
#include "spec/kernel.h"
#include "spec/stencil_spec.h"

namespace cgra {

/// The kernel of a --spec kernel file (docs/kernels.md), nullopt for a star spec or none.
/// UsageError naming the flag when a star stencil's flag (--stencil, --radius*, --grid,
/// --time-steps) is given with a kernel file: the kernel file says those.
std::optional<Kernel> kernel_of(const Options& o);
/// --workers for a kernel: the number given, 0 for auto or none.
unsigned kernel_workers_of(const Options& o);
/// The simulator's options a run takes from the flags: skipping ahead unless --no-skip, --vcd.
SimOptions sim_options_of(const Options& o);
/// Merges the spec file (if any) under the command-line flags: a flag given wins.
Options with_spec_file(Options o);
/// Names a stencil value by where it came from: "--grid", or "spec.yaml:3: 'grid'".
std::string origin(const Options& o, const std::string& key, const std::string& flag);
/// The stencil the merged options describe; SpecError (bad input) or UsageError (bad command
/// line) naming the flag or file line that gave a bad value.
StencilSpec spec_of(const Options& o);
/// --workers (a number, checked to fit) or the roofline's choice.
unsigned workers_of(const Options& o, const StencilSpec& spec, const RooflineMachine& m);
/// The architecture's name in reports: the --arch file or the built-in.
std::string arch_name_of(const Options& o);
/// The architecture of a run, stencil or --asm-run alike: --arch or the built-in, then every
/// --set, then --max-cycles; printed first with --dump-arch.
ArchConfig arch_of(const Options& o, std::ostream& out);
/// The .npy shape of a grid: (N,) in 1D, (Y, X) in 2D, (Z, Y, X) in 3D (x contiguous).
std::vector<std::uint64_t> npy_shape(const StencilSpec& spec);
/// The run's input grid: --input, checked against the grid's shape (npy_shape; FileError naming
/// the file), or default_input_grid.
std::vector<double> input_of(const Options& o, const StencilSpec& spec);
/// Every input grid of kernel `k` (its carrier `spec` gives the shape): input 0 as input_of or from
/// --input NAME=FILE naming it, each other input from its --input NAME=FILE or kernel_inputs'
/// default. Throws UsageError for a NAME the kernel does not have or input 0 given both ways,
/// FileError for a file of the wrong shape.
std::vector<std::vector<double>> kernel_grids_of(const Options& o, const Kernel& k, const StencilSpec& spec);
/// The file --input NAME=FILE gives each input of kernel `k` (empty where none; input 0's also from
/// --input FILE). Throws UsageError for a NAME the kernel does not have or input 0 given both ways.
std::vector<std::optional<std::string>> kernel_input_files(const Options& o, const Kernel& k);
/// UsageError where --input NAME=FILE is given to a run of one input (a star stencil).
void refuse_named_inputs(const Options& o);

}  // namespace cgra
