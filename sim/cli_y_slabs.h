#pragma once
/// \file cli_y_slabs.h
/// The cgrasim command's run of a 3D star in y slabs (`--y-block`; mapper/y_slabs.h; docs/stencil.md,
/// "3D", "y slabs"): the slab height given or chosen by the prediction, one mapping for every slab,
/// each slab simulated in turn on its own memory image and checked against its reference, the
/// slabs' rows put together and checked bit for bit against the reference of the whole grid. The
/// report (schema "cgrasim-y-slabs-report/1", docs/json.md) gives the totals, the whole grid's
/// roofline and a row per slab.

#include <cstdint>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "config/arch_config.h"
#include "sim/cli_options.h"
#include "spec/stencil_spec.h"

namespace cgra {

/// --y-block's rows per slab; 0 for "auto". Throws UsageError for anything else.
std::uint64_t y_block_of(const Options& o);

/// Runs (or, with --predict-only, predicts) `spec` in y slabs of `o.y_block` rows ("auto": chosen);
/// prints the report and writes --json and --output. Returns the exit code.
int run_y_slabs(const Options& o, const StencilSpec& spec, const ArchConfig& arch, const std::string& arch_name,
                std::ostream& out, std::ostream& err);

/// The readable report of a y-slabs report.
std::string y_slabs_report_text(const nlohmann::json& j);

}  // namespace cgra
