#pragma once
/// \file yaml_source.h
/// What the spec and kernel file readers (spec_yaml.cpp, kernel_yaml.cpp) share: loading the
/// document with its "FILE:LINE: malformed YAML" error, the `FILE:LINE` of a node, reading a single
/// value, and the unknown-key message with its "did you mean". Private to cgra_spec.

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>
#include <vector>

namespace cgra {

class YamlSource {
 public:
  explicit YamlSource(std::string source) : source_(std::move(source)) {}

  /// The document of `text`; SpecError "SOURCE:LINE: malformed YAML: ..." if it is not YAML.
  YAML::Node load(std::string_view text) const;
  /// "SOURCE:LINE" of `m`, or SOURCE where the node has no place (a missing one).
  std::string at(const YAML::Mark& m) const;
  /// The value of `v` (key `key`, at `where`); SpecError if it is a list or a map.
  static std::string scalar(const YAML::Node& v, const std::string& where, const std::string& key);
  const std::string& source() const { return source_; }

 private:
  std::string source_;
};

/// "unknown key 'K' (did you mean 'X'? expected A, B, C)", the suggestion only within two edits.
std::string unknown_key_message(const std::string& key, const std::vector<std::string>& expected);

}  // namespace cgra
