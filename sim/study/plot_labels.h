#pragma once
/// \file plot_labels.h
/// The words of the sweep plots: a figure, report field or architecture key in words and units,
/// for titles, axis labels and keys (docs/sweep.md, "Plots").

#include <string>

namespace cgra::study {

/// The unit of `key` ("GFLOP/s", "cycles", a parameter's `--list-params` unit), or "".
std::string unit_of(const std::string& key);
/// An architecture key's words: its description up to the first ';', ':' or " (" ("DRAM peak
/// bandwidth"); "" for any other key.
std::string param_words(const std::string& key);
/// `key` in words: a figure's name ("achieved GFLOP/s"), a report field's with its object
/// ("% of the roofline (writeback)"), a parameter's (param_words), else the key.
std::string words(const std::string& key);
/// Words and the unit unless the words say it: "DRAM peak bandwidth [GB/s]" (a key's title).
std::string short_label(const std::string& key);
/// An axis label: short_label and, for an architecture key, the key as a sweep file writes it.
std::string label(const std::string& key);

}  // namespace cgra::study
