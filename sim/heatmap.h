#pragma once
/// \file heatmap.h
/// The fabric heat map of a stencil run (`cgrasim ... --heatmap FILE.svg`): every PE of the
/// fabric as a cell coloured by its issue rate (instructions issued / cycles), with its role and
/// its largest stall reason, memory-port PEs outlined, and a legend. Plain SVG text.

#include <string>

#include <nlohmann/json.hpp>

#include "config/network_params.h"
#include "dfg/graph.h"

namespace cgra {

/// The heat map of the run reported in `report` (report_json's object: stats.fabric.pes, stencil,
/// cycles), whose ops (for their roles) are those of `g`, on `fabric`.
std::string heatmap_svg(const nlohmann::json& report, const dfg::Dfg& g, const FabricParams& fabric);

}  // namespace cgra
