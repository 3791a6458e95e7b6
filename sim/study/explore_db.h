#pragma once
/// \file explore_db.h
/// Internal to `cgrasim explore`: its SQLite database (the sweep's conventions: WAL, one
/// transaction per row, INSERT OR IGNORE by stable id), one row per design and stage, with a
/// column per parameter, and the study's meta data.

#include <sqlite3.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/study/explore_eval.h"
#include "sim/study/sweep_db.h"
#include "sim/study/sweep_file.h"

namespace cgra::study::explore_detail {

class ExploreDb {
 public:
  ExploreDb(const std::string& path, const Explore& x) : path_(path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK)
      fail("cannot open");
    sqlite3_busy_timeout(db_, 10000);
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    std::string cols;
    for (const auto& f : kFigures) cols += ", " + quote_identifier(f) + " REAL";
    exec("CREATE TABLE IF NOT EXISTS points (id TEXT PRIMARY KEY, stage TEXT NOT NULL, baseline INTEGER NOT NULL, "
         "status TEXT NOT NULL, error TEXT, feasible INTEGER, violation TEXT" + cols +
         ", wall_seconds REAL, workloads TEXT)");
    exec("CREATE TABLE IF NOT EXISTS explore (key TEXT PRIMARY KEY, value TEXT)");
    std::set<std::string> have;
    for (const auto& r : query("PRAGMA table_info(points)")) have.insert(r[1].value_or(""));
    for (const auto& p : x.parameters)
      if (!have.count(p.key)) exec("ALTER TABLE points ADD COLUMN " + quote_identifier(p.key));
    nlohmann::json params = nlohmann::json::array(), objs = nlohmann::json::array();
    for (const auto& p : x.parameters) params.push_back(p.key);
    for (const auto& o : x.objectives) objs.push_back({{"figure", o.figure}, {"maximise", o.maximise}});
    put_meta("name", x.name);
    put_meta("parameters", params.dump());
    put_meta("objectives", objs.dump());
  }
  ~ExploreDb() { sqlite3_close(db_); }
  ExploreDb(const ExploreDb&) = delete;
  ExploreDb& operator=(const ExploreDb&) = delete;

  /// Every row: id -> evaluation (values left empty: the caller knows them).
  std::map<std::string, Evaluation> load() const {
    std::map<std::string, Evaluation> out;
    std::string cols = "id, stage, baseline, status, error, wall_seconds, workloads";
    for (const auto& f : kFigures) cols += ", " + quote_identifier(f);
    for (const auto& r : query("SELECT " + cols + " FROM points")) {
      Evaluation e;
      e.id = r[0].value_or("");
      e.stage = r[1].value_or("");
      e.baseline = r[2].value_or("0") == "1";
      e.status = r[3].value_or("failed");
      e.error = r[4].value_or("");
      e.wall_seconds = r[5] ? std::stod(*r[5]) : 0;
      try {
        if (r[6]) e.workloads = nlohmann::json::parse(*r[6]);
      } catch (const nlohmann::json::exception&) {
      }
      for (std::size_t i = 0; i < kFigures.size(); ++i)
        if (r[7 + i]) e.fig[kFigures[i]] = std::stod(*r[7 + i]);
      out[e.id] = std::move(e);
    }
    return out;
  }

  void insert(const Evaluation& e, const Explore& x) {
    std::string cols = "id, stage, baseline, status, error, feasible, violation, wall_seconds, workloads";
    std::string qs = "?, ?, ?, ?, ?, ?, ?, ?, ?";
    for (const auto& f : kFigures) cols += ", " + quote_identifier(f), qs += ", ?";
    for (const auto& p : x.parameters) cols += ", " + quote_identifier(p.key), qs += ", ?";
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, ("INSERT OR IGNORE INTO points (" + cols + ") VALUES (" + qs + ")").c_str(), -1, &st,
                           nullptr) != SQLITE_OK)
      fail("cannot insert");
    int i = 1;
    auto text = [&](const std::string& t) { sqlite3_bind_text(st, i++, t.c_str(), -1, SQLITE_TRANSIENT); };
    auto null = [&] { sqlite3_bind_null(st, i++); };
    text(e.id);
    text(e.stage);
    sqlite3_bind_int(st, i++, e.baseline ? 1 : 0);
    text(e.status);
    if (e.error.empty()) null(); else text(e.error);
    std::string why;
    const double v = e.status == "done" ? violation(e, x.constraints, &why) : 0;
    if (e.status != "done") null(); else sqlite3_bind_int(st, i++, v == 0 ? 1 : 0);
    if (why.empty()) null(); else text(why);
    sqlite3_bind_double(st, i++, e.wall_seconds);
    text(e.workloads.dump());
    for (const auto& f : kFigures) {
      const auto it = e.fig.find(f);
      if (it == e.fig.end()) null(); else sqlite3_bind_double(st, i++, it->second);
    }
    for (const auto& val : e.values) {
      char* end = nullptr;
      const long long n = std::strtoll(val.c_str(), &end, 10);
      if (!val.empty() && end && *end == '\0') {
        sqlite3_bind_int64(st, i++, n);
        continue;
      }
      const double d = std::strtod(val.c_str(), &end);
      if (!val.empty() && end && *end == '\0') sqlite3_bind_double(st, i++, d);
      else text(val);
    }
    const int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) fail("cannot insert a row");
  }

 private:
  void put_meta(const std::string& k, const std::string& v) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, "INSERT OR REPLACE INTO explore (key, value) VALUES (?, ?)", -1, &st, nullptr) !=
        SQLITE_OK)
      fail("cannot write");
    sqlite3_bind_text(st, 1, k.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, v.c_str(), -1, SQLITE_TRANSIENT);
    const int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) fail("cannot write");
  }
  void exec(const std::string& sql) const {
    char* msg = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
      const std::string m = msg ? msg : "";
      sqlite3_free(msg);
      throw SweepError(path_ + ": " + m);
    }
  }
  std::vector<std::vector<std::optional<std::string>>> query(const std::string& sql) const {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) fail("cannot read");
    std::vector<std::vector<std::optional<std::string>>> rows;
    while (sqlite3_step(st) == SQLITE_ROW) {
      std::vector<std::optional<std::string>> r;
      for (int c = 0; c < sqlite3_column_count(st); ++c) {
        if (sqlite3_column_type(st, c) == SQLITE_NULL) r.push_back(std::nullopt);
        else if (sqlite3_column_type(st, c) == SQLITE_FLOAT)  // every digit: a resumed run prints the same
          r.push_back(fmt::format("{:.17g}", sqlite3_column_double(st, c)));
        else r.push_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, c))));
      }
      rows.push_back(std::move(r));
    }
    sqlite3_finalize(st);
    return rows;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw SweepError(path_ + ": " + what + ": " + (db_ ? sqlite3_errmsg(db_) : "no database") +
                     " (not an explore database?)");
  }
  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace cgra::study::explore_detail
