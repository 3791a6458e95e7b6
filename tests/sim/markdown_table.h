#pragma once
// The Markdown tables of a generated docs/tables/*.md file, for the tests that check their cells
// (results_tables_test.cpp, gpu_tables_test.cpp): each table's header cells and rows, by the
// heading above it.

#include <gtest/gtest.h>

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace cgra::test::markdown {

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

inline bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// One Markdown table: the header's cells and each row's, by the heading above it (the text of the
// nearest "#", "##", ... line, without the hashes).
struct Table {
  std::string heading;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::size_t column(const std::string& name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    ADD_FAILURE() << "table under \"" << heading << "\" has no column \"" << name << "\"";
    return 0;
  }
};

// "| a | b |" -> {"a", "b"}; cells hold no " | ".
inline std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  if (line.size() < 4) return cells;
  std::string body = line.substr(2, line.size() - 4);  // "| a | b |" -> "a | b"
  for (std::size_t at = 0;;) {
    const std::size_t bar = body.find(" | ", at);
    cells.push_back(body.substr(at, bar == std::string::npos ? std::string::npos : bar - at));
    if (bar == std::string::npos) break;
    at = bar + 3;
  }
  return cells;
}

inline std::vector<Table> tables_of(const std::string& text) {
  std::vector<Table> tables;
  std::string heading;
  const std::vector<std::string> lines = lines_of(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (starts_with(lines[i], "#")) {
      const std::size_t text = lines[i].find_first_not_of("# ");
      heading = text == std::string::npos ? "" : lines[i].substr(text);
    }
    if (!starts_with(lines[i], "| ") || i + 1 >= lines.size() || !starts_with(lines[i + 1], "|---"))
      continue;
    Table t{heading, cells_of(lines[i]), {}};
    for (i += 2; i < lines.size() && starts_with(lines[i], "| "); ++i)
      t.rows.push_back(cells_of(lines[i]));
    tables.push_back(std::move(t));
  }
  return tables;
}

}  // namespace cgra::test::markdown
