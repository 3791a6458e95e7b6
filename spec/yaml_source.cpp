#include "spec/yaml_source.h"

#include "common/edit_distance.h"
#include "spec/stencil_spec.h"

namespace cgra {

YAML::Node YamlSource::load(std::string_view text) const {
  try {
    return YAML::Load(std::string(text));
  } catch (const YAML::ParserException& e) {
    throw SpecError(at(e.mark) + ": malformed YAML: " + e.msg);
  }
}

std::string YamlSource::at(const YAML::Mark& m) const {
  return m.is_null() ? source_ : source_ + ":" + std::to_string(m.line + 1);
}

std::string YamlSource::scalar(const YAML::Node& v, const std::string& where, const std::string& key) {
  if (!v.IsScalar()) throw SpecError(where + ": '" + key + "': expected a single value");
  return v.Scalar();
}

std::string unknown_key_message(const std::string& key, const std::vector<std::string>& expected) {
  std::string best;
  std::size_t best_d = 3;  // suggest at distance 1 or 2 only
  for (const auto& k : expected) {
    const std::size_t d = edit_distance(key, k);
    if (d < best_d) best_d = d, best = k;
  }
  std::string list;
  for (const auto& k : expected) list += (list.empty() ? "" : ", ") + k;
  return "unknown key '" + key + "' (" + (best.empty() ? "" : "did you mean '" + best + "'? ") + "expected " + list + ")";
}

}  // namespace cgra
