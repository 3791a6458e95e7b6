// The fabric heat map (sim/heatmap.h): hand-written SVG, one cell per PE.

#include "sim/heatmap.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <array>
#include <cmath>
#include <map>

#include "stats/stats.h"

namespace cgra {
namespace {

constexpr int kCell = 46, kGap = 3, kLeft = 40, kTop = 64;

/// Viridis, five stops, interpolated: 0 (dark purple) to 1 (yellow).
std::string colour(double t) {
  static constexpr std::array<std::array<double, 3>, 5> stops = {
      {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};
  t = std::clamp(t, 0.0, 1.0) * 4;
  const int i = std::min(3, static_cast<int>(t));
  const double f = t - i;
  auto c = [&](int k) { return static_cast<int>(std::lround(stops[i][k] + f * (stops[i + 1][k] - stops[i][k]))); };
  return fmt::format("#{:02x}{:02x}{:02x}", c(0), c(1), c(2));
}

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}

const std::map<std::string, std::string> kRoleAbbrev = {
    {"compute", "cmp"}, {"filter", "flt"}, {"reader", "rd"}, {"writer", "wr"},
    {"sync", "syn"},    {"control", "ctl"}, {"other", "oth"}};
const std::map<std::string, std::string> kStallAbbrev = {
    {"no_input", "in"}, {"output_full", "out"}, {"no_trigger", "trg"}, {"hazard", "hz"}, {"memory", "mem"}};

}  // namespace

std::string heatmap_svg(const nlohmann::json& report, const dfg::Dfg& g, const FabricParams& fabric) {
  std::map<std::string, std::string> role_of;
  for (dfg::Vertex v = 0; v < g.num_ops(); ++v) role_of[g.op(v).name] = std::string(dfg::to_string(g.op(v).role));
  std::map<std::pair<unsigned, unsigned>, const nlohmann::json*> pe_at;
  const auto& pes = stats::at(report, "stats.fabric.pes");
  for (const auto& pe : pes) {
    unsigned r = 0, c = 0;
    if (std::sscanf(stats::field(pe, "stats.fabric.pes[].pe").get<std::string>().c_str(), "(%u,%u)", &r, &c) == 2)
      pe_at[{r, c}] = &pe;
  }
  const unsigned rows = fabric.rows, cols = fabric.cols;
  const int grid_w = static_cast<int>(cols) * (kCell + kGap), grid_h = static_cast<int>(rows) * (kCell + kGap);
  const int width = std::max(kLeft + grid_w + 20, 900), legend_y = kTop + grid_h + 24, height = legend_y + 128;
  std::string s = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height);
  const auto& st = report.at("stencil");
  const double mean = pes.empty() ? 0.0 : [&] {
    double sum = 0;
    for (const auto& pe : pes) sum += pe.value("utilization", 0.0);
    return sum / double(pes.size());
  }();
  s += fmt::format(
      "<text x=\"{}\" y=\"24\" font-size=\"17\" font-weight=\"bold\">Fabric heat map: stencil {}, {} workers, {} "
      "cycles ({})</text>\n",
      kLeft, esc(st.value("describe", "")), report.at("mapping").value("workers", 0), stats::count(report, "cycles"),
      esc(report.value("status", "")));
  s += fmt::format(
      "<text x=\"{}\" y=\"44\" font-size=\"13\">{}x{} PEs, {} placed; colour: issue rate (instructions issued / "
      "cycles), placed PEs' mean {:.1f}%; top: role; bottom: largest stall reason and its share of the cycles</text>\n",
      kLeft, rows, cols, pes.size(), 100 * mean);
  for (unsigned c = 0; c < cols; ++c)
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"#555\">{}</text>\n",
                     kLeft + static_cast<int>(c) * (kCell + kGap) + kCell / 2, kTop - 5, c);
  for (unsigned r = 0; r < rows; ++r)
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\" fill=\"#555\">{}</text>\n",
                     kLeft - 6, kTop + static_cast<int>(r) * (kCell + kGap) + kCell / 2 + 4, r);
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < cols; ++c) {
      const int x = kLeft + static_cast<int>(c) * (kCell + kGap), y = kTop + static_cast<int>(r) * (kCell + kGap);
      const char kind = static_cast<char>(fabric.kind_at(r, c));
      const bool mem = kind == 'M';
      const std::string outline =
          mem ? "stroke=\"#000\" stroke-width=\"3\"" : "stroke=\"#bbb\" stroke-width=\"0.6\"";
      const auto it = pe_at.find({r, c});
      if (it == pe_at.end()) {
        s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f0f0f0\" {}><title>PE ({},{}) {}: "
                         "not used</title></rect>\n",
                         x, y, kCell, kCell, outline, r, c, kind);
        s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"#bbb\">{}</text>\n",
                         x + kCell / 2, y + kCell / 2 + 4, kind);
        continue;
      }
      const auto& pe = *it->second;
      const double util = stats::number(pe, "stats.fabric.pes[].utilization");
      const std::uint64_t cycles = stats::count(pe, "stats.fabric.pes[].cycles");
      std::string role = "other";
      const auto& ops = stats::field(pe, "stats.fabric.pes[].ops");
      if (!ops.empty())
        if (auto r2 = role_of.find(ops[0].get<std::string>()); r2 != role_of.end()) role = r2->second;
      std::string top_reason;
      std::uint64_t top = 0;
      std::string stalls;
      for (const auto& [reason, n] : stats::field(pe, "stats.fabric.pes[].stalls").items()) {
        const auto v = n.get<std::uint64_t>();
        stalls += fmt::format(", {} {}", reason, v);
        if (v > top) top = v, top_reason = reason;
      }
      std::string op_list;
      for (const auto& op : ops) op_list += (op_list.empty() ? "" : " ") + op.get<std::string>();
      const std::string text_fill = util > 0.55 ? "#000" : "#fff";
      s += fmt::format(
          "<g><title>PE ({},{}) {}{}: {}; issue rate {:.1f}% ({} of {} cycles){}; ops: {}</title>\n"
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" {}/>\n",
          r, c, kind, mem ? " (memory port)" : "", role, 100 * util, pe.value("issued", std::uint64_t{0}), cycles,
          esc(stalls), esc(op_list), x, y, kCell, kCell, colour(util), outline);
      const auto ab = kRoleAbbrev.find(role);
      s += fmt::format(
          "<text x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{}\">{}{}</text>\n",
          x + kCell / 2, y + 18, text_fill, ab == kRoleAbbrev.end() ? role.substr(0, 3) : ab->second,
          ops.size() > 1 ? "+" : "");
      // A largest stall of half a percent or less would read "0%": the cell says nothing instead.
      if (cycles > 0 && 200 * top > cycles) {
        const auto sa = kStallAbbrev.find(top_reason);
        s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"{}\">{} {:.0f}%</text>\n",
                         x + kCell / 2, y + 36, text_fill, sa == kStallAbbrev.end() ? top_reason : sa->second,
                         100.0 * double(top) / double(cycles));
      }
      s += "</g>\n";
    }
  // Legend: colour bar, roles, stall reasons, outlines.
  int lx = kLeft;
  s += fmt::format("<defs><linearGradient id=\"issue\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">");
  for (int i = 0; i <= 10; ++i) s += fmt::format("<stop offset=\"{}\" stop-color=\"{}\"/>", i / 10.0, colour(i / 10.0));
  s += "</linearGradient></defs>\n";
  s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">issue rate</text>\n", lx, legend_y + 4);
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"240\" height=\"18\" fill=\"url(#issue)\" stroke=\"#888\"/>\n", lx,
                   legend_y + 14);
  for (int i = 0; i <= 4; ++i)
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}%</text>\n", lx + i * 60,
                     legend_y + 46, i * 25);
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"18\" height=\"18\" fill=\"#f0f0f0\" stroke=\"#bbb\"/>"
                   "<text x=\"{}\" y=\"{}\" font-size=\"11\">not used (F MAC, I integer, M memory port)</text>\n",
                   lx, legend_y + 62, lx + 24, legend_y + 76);
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"18\" height=\"18\" fill=\"white\" stroke=\"#000\" stroke-width=\"3\"/>"
                   "<text x=\"{}\" y=\"{}\" font-size=\"11\">memory-port PE (loads and stores through a port)</text>\n",
                   lx, legend_y + 88, lx + 24, legend_y + 102);
  lx += 340;
  s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">role (top line; + several ops)</text>\n",
                   lx, legend_y + 4);
  int i = 0;
  for (const auto& [full, ab] : kRoleAbbrev) {
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\"><tspan font-weight=\"bold\">{}</tspan> {}</text>\n",
                     lx + (i / 4) * 120, legend_y + 24 + (i % 4) * 18, ab, full);
    ++i;
  }
  lx += 300;
  s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">largest stall (bottom line, % of "
                   "cycles; none at 0.5 % or less)</text>\n",
                   lx, legend_y + 4);
  i = 0;
  for (const auto& [full, ab] : kStallAbbrev) {
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\"><tspan font-weight=\"bold\">{}</tspan> {}</text>\n",
                     lx + (i / 3) * 150, legend_y + 24 + (i % 3) * 18, ab, full);
    ++i;
  }
  s += "</svg>\n";
  return s;
}

}  // namespace cgra
