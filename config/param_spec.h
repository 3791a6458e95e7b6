#pragma once
/// \file param_spec.h
/// Internal: how one architecture parameter is declared (key, type, unit, default, range,
/// meaning) and bound to its field of ArchConfig. Only the configuration layer includes this.

#include <yaml-cpp/yaml.h>

#include <functional>
#include <string>
#include <vector>

#include "config/arch_config.h"

namespace cgra::config {

/// One declared parameter bound to a field of ArchConfig.
struct ParamSpec {
  ParamInfo info;
  /// Parses `node` into the field; throws ConfigError naming `where` and the key on bad input.
  std::function<void(ArchConfig&, const YAML::Node& node, const std::string& where)> parse;
  /// Sets the field to the declared default.
  std::function<void(ArchConfig&)> set_default;
  /// Writes the field's current value into a YAML emitter.
  std::function<void(const ArchConfig&, YAML::Emitter&)> emit;
};

/// Every architecture parameter, declared once, in documentation order.
const std::vector<ParamSpec>& param_specs();

}  // namespace cgra::config
