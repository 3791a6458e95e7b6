// The parser contracts checked by the fuzz targets and the seed-corpus test (see fuzz_checks.h).

#include "fuzz/fuzz_checks.h"

#include <cxxabi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <typeinfo>
#include <vector>

#include "config/arch_config.h"
#include "dfg/asm.h"
#include "dfg/validate.h"
#include "io/npy.h"
#include "io/output_file.h"
#include "pe/listing.h"
#include "spec/spec_yaml.h"
#include "spec/stencil_spec.h"

namespace cgra::fuzz {
namespace {

std::string type_name(const std::type_info& t) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> d(abi::__cxa_demangle(t.name(), nullptr, nullptr, &status), &std::free);
  return status == 0 && d ? d.get() : t.name();
}

/// Error messages reach the user as `cgrasim: error: <what>` (README): never empty. (They may
/// span lines when they quote input holding a newline; see docs/robustness.md, "Fuzz targets".)
void check_message(const std::string& step, const char* what) {
  if (*what == '\0') throw ContractViolation(step + ": documented error with an empty message");
}

/// Runs `parse`; returns its result, or nullopt when it throws the documented `Error` (with a
/// proper message, stored in `rejected`). Any other exception is a ContractViolation naming its
/// type.
template <typename Error, typename Parse>
auto parse_or_error(const std::string& step, Outcome& rejected, Parse&& parse) -> std::optional<decltype(parse())> {
  try {
    return parse();
  } catch (const ContractViolation&) {
    throw;
  } catch (const Error& e) {
    check_message(step, e.what());
    rejected = {true, e.what()};
    return std::nullopt;
  } catch (const std::exception& e) {
    throw ContractViolation(step + ": undocumented exception " + type_name(typeid(e)) + ": " + e.what());
  } catch (...) {
    throw ContractViolation(step + ": exception not derived from std::exception");
  }
}

/// Runs `step_fn`, which must not throw at all (writing, or re-parsing what the writer wrote).
template <typename Fn>
auto must(const std::string& step, Fn&& step_fn) -> decltype(step_fn()) {
  try {
    return step_fn();
  } catch (const ContractViolation&) {
    throw;
  } catch (const std::exception& e) {
    throw ContractViolation(step + " threw " + type_name(typeid(e)) + ": " + e.what());
  } catch (...) {
    throw ContractViolation(step + " threw a non-standard exception");
  }
}

/// Splits the arch-config input at the first line `#--set` (a YAML comment, so a plain YAML file
/// is a valid input): the document before it, one override per line after it.
void split_overrides(std::string_view input, std::string_view& yaml, std::vector<std::string>& overrides) {
  constexpr std::string_view kMarker = "#--set";
  std::size_t at = std::string_view::npos;
  for (std::size_t pos = 0; pos < input.size();) {
    const std::size_t eol = std::min(input.find('\n', pos), input.size());
    if (input.substr(pos, eol - pos) == kMarker) {
      at = pos;
      break;
    }
    pos = eol + 1;
  }
  yaml = input.substr(0, at == std::string_view::npos ? input.size() : at);
  if (at == std::string_view::npos) return;
  std::size_t pos = at + kMarker.size() + 1;
  while (pos < input.size()) {
    const std::size_t eol = std::min(input.find('\n', pos), input.size());
    overrides.emplace_back(input.substr(pos, eol - pos));
    pos = eol + 1;
  }
}

}  // namespace

Outcome check_arch_config(std::string_view input) {
  std::string_view yaml;
  std::vector<std::string> overrides;
  split_overrides(input, yaml, overrides);
  Outcome outcome;
  const auto cfg = parse_or_error<ConfigError>("load_arch_config", outcome,
                                               [&] { return load_arch_config(yaml, "fuzz.yaml", overrides); });
  if (!cfg) return outcome;
  const std::string text = must("arch_to_yaml", [&] { return arch_to_yaml(*cfg); });
  const ArchConfig again = must("load_arch_config(arch_to_yaml(cfg))", [&] { return load_arch_config(text, "round-trip.yaml"); });
  if (!(again == *cfg)) throw ContractViolation("arch_to_yaml does not load back to the same configuration:\n" + text);
  if (must("arch_to_yaml (second)", [&] { return arch_to_yaml(again); }) != text)
    throw ContractViolation("arch_to_yaml is not stable across a round trip");
  return outcome;
}

Outcome check_asm(std::string_view input) {
  Outcome outcome;
  const auto g =
      parse_or_error<dfg::DfgError>("parse_asm", outcome, [&] { return dfg::parse_asm(input, "fuzz.asm"); });
  if (!g) return outcome;
  // Whole-graph checks must cope with anything the parser accepts (they report, never throw).
  must("find_problems", [&] { return dfg::find_problems(*g); });
  const std::string text = must("write_asm", [&] { return dfg::write_asm(*g); });
  const dfg::Dfg again = must("parse_asm(write_asm(g))", [&] { return dfg::parse_asm(text, "round-trip.asm"); });
  if (must("write_asm (second)", [&] { return dfg::write_asm(again); }) != text)
    throw ContractViolation("write_asm(parse_asm(write_asm(g))) differs from write_asm(g):\n" + text);
  return outcome;
}

Outcome check_listing(std::string_view input) {
  Outcome outcome;
  const auto programs =
      parse_or_error<ListingError>("parse_listings", outcome, [&] { return parse_listings(input, "fuzz.lst"); });
  if (!programs) return outcome;
  for (const Program& p : *programs) {
    const std::string text = must("print_listing", [&] { return print_listing(p); });
    const Program again = must("parse_listing(print_listing(p))", [&] { return parse_listing(text, "round-trip.lst"); });
    if (!(again == p)) throw ContractViolation("print_listing does not parse back to the same program:\n" + text);
    if (must("print_listing (second)", [&] { return print_listing(again); }) != text)
      throw ContractViolation("print_listing is not stable across a round trip:\n" + text);
  }
  return outcome;
}

Outcome check_npy(std::string_view input) {
  Outcome outcome;
  const auto a = parse_or_error<FileError>("parse_npy", outcome, [&] { return parse_npy(input, "fuzz.npy"); });
  if (!a) return outcome;
  std::uint64_t count = 1;
  for (std::uint64_t d : a->shape) count *= d;
  if (a->data.size() != count) throw ContractViolation("parse_npy: data size does not match the shape");
  const std::string bytes = must("encode_npy", [&] { return encode_npy(*a); });
  const NpyArray again = must("parse_npy(encode_npy(a))", [&] { return parse_npy(bytes, "round-trip.npy"); });
  // Compare bits, not values: NaN payloads must survive too.
  if (again.shape != a->shape || again.data.size() != a->data.size() ||
      (count && std::memcmp(again.data.data(), a->data.data(), count * sizeof(double)) != 0))
    throw ContractViolation("encode_npy does not read back to the same array");
  return outcome;
}

Outcome check_spec(std::string_view input) {
  Outcome outcome;
  const auto f =
      parse_or_error<SpecError>("parse_spec_yaml", outcome, [&] { return parse_spec_yaml(input, "fuzz.yaml"); });
  if (!f) return outcome;
  for (const auto& [key, where] : f->where)
    if (where.rfind("fuzz.yaml:", 0) != 0) throw ContractViolation("parse_spec_yaml: key '" + key + "' has no line");
  // The merge of cgrasim without flags: what the file gives, else radius 1 and the default grid.
  StencilSpec spec;
  spec.dims = f->dims.value_or(1);
  const unsigned r = f->radius.value_or(1);
  spec.radius[0] = f->radius_x.value_or(r);
  spec.radius[1] = spec.dims >= 2 ? f->radius_y.value_or(r) : 0;
  spec.radius[2] = spec.dims == 3 ? f->radius_z.value_or(r) : 0;
  spec.time_steps = f->time_steps.value_or(1);
  spec.coeff_x = f->coeff_x;
  spec.coeff_y = f->coeff_y;
  spec.coeff_z = f->coeff_z;
  parse_or_error<SpecError>("parse_grid + validate", outcome, [&] {
    static const char* const kDefaultGrid[] = {"194400", "960x449", "256x128x64"};
    parse_grid(f->grid.value_or(kDefaultGrid[spec.dims - 1]), spec);
    spec.validate();
    return spec.describe();
  });
  return outcome;
}

int run_fuzz_input(CheckFn check, const std::uint8_t* data, std::size_t size) {
  try {
    check(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const ContractViolation& e) {
    std::fprintf(stderr, "contract violation: %s\n", e.what());
    std::abort();
  }
  return 0;
}

}  // namespace cgra::fuzz
