// The results database of a sweep (docs/sweep.md).

#include "sim/study/sweep_db.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <filesystem>

namespace cgra::study {
namespace {

/// An axis value as SQLite should keep it: integer, real or text, as it reads.
void bind_value(sqlite3_stmt* st, int i, const std::string& v) {
  long long n = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec == std::errc() && p == v.data() + v.size() && !v.empty()) {
    sqlite3_bind_int64(st, i, n);
    return;
  }
  double d = 0;
  auto [q, ec2] = std::from_chars(v.data(), v.data() + v.size(), d);
  if (ec2 == std::errc() && q == v.data() + v.size() && !v.empty()) {
    sqlite3_bind_double(st, i, d);
    return;
  }
  sqlite3_bind_text(st, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}

void bind_opt(sqlite3_stmt* st, int i, const std::optional<double>& v, bool integer) {
  if (!v) sqlite3_bind_null(st, i);
  else if (integer) sqlite3_bind_int64(st, i, static_cast<long long>(*v));
  else sqlite3_bind_double(st, i, *v);
}

std::optional<double> opt(const nlohmann::json& j, const char* k) {
  if (!j.contains(k) || j[k].is_null()) return std::nullopt;
  return j[k].get<double>();
}

/// The cost fields of a row, each with its column's name (cost_columns() order).
template <class R>
auto r_cost(R& r) {
  using P = decltype(&r.area_mm2);
  const auto& c = cost_columns();
  return std::array<std::pair<const char*, P>, 6>{{{c[0].c_str(), &r.area_mm2},
                                                   {c[1].c_str(), &r.energy_joules},
                                                   {c[2].c_str(), &r.energy_per_output_pj},
                                                   {c[3].c_str(), &r.average_power_watts},
                                                   {c[4].c_str(), &r.gflops_per_watt},
                                                   {c[5].c_str(), &r.gflops_per_mm2}}};
}

}  // namespace

std::string column_expression(const std::string& name) {
  const bool path = std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  });
  if (path && name.rfind("report.", 0) == 0) return "json_extract(report, '$." + name.substr(7) + "')";
  return quote_identifier(name);
}

std::string quote_identifier(const std::string& name) {
  std::string q = "\"";
  for (char c : name) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

nlohmann::json Row::to_json() const {
  nlohmann::json j = {{"id", id},       {"values", values}, {"status", status},
                      {"exit_code", exit_code}, {"error", error}, {"wall_seconds", wall_seconds},
                      {"report", report}};
  auto put = [&](const char* k, const std::optional<double>& v) { j[k] = v ? nlohmann::json(*v) : nlohmann::json(); };
  put("cycles", cycles);
  put("gflops", gflops);
  put("roofline_percent", roofline_percent);
  put("attainable_percent", attainable_percent);
  put("predicted_cycles", predicted_cycles);
  put("dram_bytes", dram_bytes);
  for (const auto& [k, v] : r_cost(*this)) put(k, *v);
  return j;
}

Row Row::from_json(const nlohmann::json& j) {
  Row r;
  r.id = j.at("id").get<std::string>();
  r.values = j.at("values").get<std::vector<std::string>>();
  r.status = j.at("status").get<std::string>();
  r.exit_code = j.at("exit_code").get<int>();
  r.error = j.at("error").get<std::string>();
  r.wall_seconds = j.at("wall_seconds").get<double>();
  r.report = j.at("report").get<std::string>();
  r.cycles = opt(j, "cycles");
  r.gflops = opt(j, "gflops");
  r.roofline_percent = opt(j, "roofline_percent");
  r.attainable_percent = opt(j, "attainable_percent");
  r.predicted_cycles = opt(j, "predicted_cycles");
  r.dram_bytes = opt(j, "dram_bytes");
  for (const auto& [k, v] : r_cost(r)) *v = opt(j, k);
  return r;
}

SweepDb::SweepDb(const std::string& path, bool create) : path_(path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw SweepError(path + ": is a directory, not a database");
  if (!create && !std::filesystem::exists(path, ec)) throw SweepError(path + ": no such database");
  const int flags = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READWRITE;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string m = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw SweepError(path + ": cannot open the database: " + m);
  }
  sqlite3_busy_timeout(db_, 10000);
  try {
    // WAL: a row is committed by appending to the log; a process killed mid-write leaves the
    // database as it was after the last commit. synchronous=NORMAL keeps every commit across a
    // process crash (only a power loss may lose the last ones).
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    const auto t = select_sql_count("SELECT count(*) FROM sqlite_master WHERE name='points'");
    if (!create && t == 0) fail("not a sweep database (no table 'points')");
    // A database made before the rank or the cost columns gets them, NULL in its rows.
    auto add_column = [&](const std::string& name, const char* type) {
      if (select_sql_count("SELECT count(*) FROM pragma_table_info('points') WHERE name = '" + name + "'") == 0)
        exec("ALTER TABLE points ADD COLUMN " + name + " " + type);
    };
    if (t) {
      add_column("rank", "INTEGER");
      for (const auto& c : cost_columns()) add_column(c, "REAL");
    }
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

SweepDb::~SweepDb() { sqlite3_close(db_); }

void SweepDb::checkpoint() const { exec("PRAGMA wal_checkpoint(PASSIVE)"); }

void SweepDb::fail(const std::string& what) const { throw SweepError(path_ + ": " + what); }

void SweepDb::exec(const std::string& sql) const {
  char* msg = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
    const std::string m = msg ? msg : sqlite3_errmsg(db_);
    sqlite3_free(msg);
    fail(m);
  }
}

long long SweepDb::select_sql_count(const std::string& sql) const {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) fail(sqlite3_errmsg(db_));
  long long n = 0;
  if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return n;
}

namespace {

/// SweepMeta::context of `s`: its fixed stencil options, its architecture and fixed overrides.
std::string context_of(const Sweep& s) {
  std::string c;
  // The stencil's kind first, then its other options in name order.
  if (auto it = s.stencil.find("stencil"); it != s.stencil.end()) c = "stencil " + it->second.text;
  for (const auto& [k, v] : s.stencil)
    if (k != "stencil") c += (c.empty() ? "" : ", ") + k + " " + v.text;
  c += (c.empty() ? "" : "; ") +
       (s.arch.empty() ? std::string("built-in architecture (paper.yaml)")
                       : "architecture " + std::filesystem::path(s.arch).filename().string());
  for (const auto& [k, v] : s.set) c += ", " + k + " " + v.text;
  return c;
}

}  // namespace

void SweepDb::prepare(const Sweep& s) {
  exec("CREATE TABLE IF NOT EXISTS points (id TEXT PRIMARY KEY, status TEXT NOT NULL, exit_code INTEGER, "
       "error TEXT, cycles INTEGER, gflops REAL, roofline_percent REAL, attainable_percent REAL, "
       "predicted_cycles INTEGER, dram_bytes INTEGER, wall_seconds REAL, report TEXT, rank INTEGER, "
       "area_mm2 REAL, energy_joules REAL, energy_per_output_pj REAL, average_power_watts REAL, "
       "gflops_per_watt REAL, gflops_per_mm2 REAL)");
  exec("CREATE TABLE IF NOT EXISTS sweep (key TEXT PRIMARY KEY, value TEXT)");
  std::set<std::string> have;
  const Table t = select_raw("SELECT name FROM pragma_table_info('points')");
  for (const auto& r : t.rows) have.insert(r[0].value_or(""));
  for (const auto& a : s.axes)
    if (!have.count(a)) exec("ALTER TABLE points ADD COLUMN " + quote_identifier(a));
  nlohmann::json plots = nlohmann::json::array();
  for (const auto& p : s.plots) plots.push_back({{"x", p.x}, {"y", p.y}, {"series", p.series}});
  nlohmann::json meta = {{"name", s.name}, {"axes", s.axes}, {"plots", plots}, {"file", s.file}, {"context", context_of(s)}};
  if (s.cost_plots) meta["cost_plots"] = *s.cost_plots;
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, "INSERT OR REPLACE INTO sweep (key, value) VALUES ('meta', ?1)", -1, &st, nullptr) !=
      SQLITE_OK)
    fail(sqlite3_errmsg(db_));
  const std::string m = meta.dump();
  sqlite3_bind_text(st, 1, m.c_str(), static_cast<int>(m.size()), SQLITE_TRANSIENT);
  const int rc = sqlite3_step(st);
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) fail(sqlite3_errmsg(db_));
}

std::set<std::string> SweepDb::ids() const {
  std::set<std::string> out;
  for (const auto& r : select_raw("SELECT id FROM points").rows) out.insert(r[0].value_or(""));
  return out;
}

void SweepDb::insert(const Row& r, const std::vector<std::string>& axes) {
  std::string cols = "id, status, exit_code, error, cycles, gflops, roofline_percent, attainable_percent, "
                     "predicted_cycles, dram_bytes, wall_seconds, report, rank";
  std::string qs = "?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13";
  const auto cost = r_cost(r);
  const int first_cost = 14, first_axis = first_cost + static_cast<int>(cost.size());
  for (std::size_t i = 0; i < cost.size(); ++i) {
    cols += std::string(", ") + cost[i].first;
    qs += ", ?" + std::to_string(first_cost + static_cast<int>(i));
  }
  for (std::size_t i = 0; i < axes.size(); ++i) {
    cols += ", " + quote_identifier(axes[i]);
    qs += ", ?" + std::to_string(first_axis + static_cast<int>(i));
  }
  const std::string sql = "INSERT INTO points (" + cols + ") VALUES (" + qs + ") ON CONFLICT(id) DO NOTHING";
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) fail(sqlite3_errmsg(db_));
  sqlite3_bind_text(st, 1, r.id.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 2, r.status.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(st, 3, r.exit_code);
  if (r.error.empty()) sqlite3_bind_null(st, 4);
  else sqlite3_bind_text(st, 4, r.error.c_str(), -1, SQLITE_TRANSIENT);
  bind_opt(st, 5, r.cycles, true);
  bind_opt(st, 6, r.gflops, false);
  bind_opt(st, 7, r.roofline_percent, false);
  bind_opt(st, 8, r.attainable_percent, false);
  bind_opt(st, 9, r.predicted_cycles, true);
  bind_opt(st, 10, r.dram_bytes, true);
  sqlite3_bind_double(st, 11, r.wall_seconds);
  if (r.report.empty()) sqlite3_bind_null(st, 12);
  else sqlite3_bind_text(st, 12, r.report.c_str(), static_cast<int>(r.report.size()), SQLITE_TRANSIENT);
  if (r.rank) sqlite3_bind_int(st, 13, *r.rank);
  else sqlite3_bind_null(st, 13);
  for (std::size_t i = 0; i < cost.size(); ++i) bind_opt(st, first_cost + static_cast<int>(i), *cost[i].second, false);
  for (std::size_t i = 0; i < axes.size() && i < r.values.size(); ++i)
    bind_value(st, first_axis + static_cast<int>(i), r.values[i]);
  const int rc = sqlite3_step(st);
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) fail(std::string("cannot write a row: ") + sqlite3_errmsg(db_));
}

SweepMeta SweepDb::meta() const {
  const Table t = select_raw("SELECT value FROM sweep WHERE key = 'meta'");
  if (t.rows.empty() || !t.rows[0][0]) fail("not a sweep database (no sweep description)");
  SweepMeta m;
  try {
    const auto j = nlohmann::json::parse(*t.rows[0][0]);
    m.name = j.at("name").get<std::string>();
    m.axes = j.at("axes").get<std::vector<std::string>>();
    for (const auto& p : j.at("plots"))
      m.plots.push_back({p.at("x").get<std::string>(), p.at("y").get<std::string>(), p.at("series").get<std::string>()});
    if (j.contains("cost_plots")) m.cost_plots = j["cost_plots"].get<bool>();
    if (j.contains("context")) m.context = j["context"].get<std::string>();
  } catch (const nlohmann::json::exception& e) {
    fail(std::string("the sweep description is damaged: ") + e.what());
  }
  return m;
}

SweepDb::Table SweepDb::select(const std::vector<std::string>& columns, const std::string& where) const {
  std::string sql = "SELECT ";
  for (std::size_t i = 0; i < columns.size(); ++i) sql += (i ? ", " : "") + column_expression(columns[i]);
  sql += " FROM points" + (where.empty() ? std::string() : " WHERE " + where) + " ORDER BY rowid";
  Table t = select_raw(sql);
  t.columns = columns;
  return t;
}

SweepDb::Table SweepDb::select_raw(const std::string& sql) const {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) fail(sqlite3_errmsg(db_));
  Table t;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    std::vector<std::optional<std::string>> row;
    for (int i = 0; i < sqlite3_column_count(st); ++i) {
      if (sqlite3_column_type(st, i) == SQLITE_NULL) row.push_back(std::nullopt);
      else row.push_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, i))));
    }
    t.rows.push_back(std::move(row));
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) fail(sqlite3_errmsg(db_));
  return t;
}

}  // namespace cgra::study
