// The native half of the calendar parity test: each case of
// tests/vectors/calendar/ics_vectors.json (calendar files from
// tests/data/calendar, a window, expand or merge) must give exactly the
// recorded "expect"; tests/wasm/calendar_parity.test.mjs checks the wasm
// build against the same file. Run with ENSEMBLE_UPDATE_VECTORS=1 to rewrite
// the expectations from the native core (then review the diff).

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/calendar/ics_calendar.h"
#include "core/calendar/ics_json.h"

namespace ensemble::core::calendar {
namespace {

using nlohmann::json;

std::string SourceDir() {
  const char* root = std::getenv("ENSEMBLE_SOURCE_DIR");
  return root ? root : ".";
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The JSON the wasm binding returns for a case: {ok: true, ...} or
// {ok: false, code} (the message is not compared).
json RunCase(const json& c) {
  std::vector<IcsFile> files;
  for (const auto& path : c["files"]) {
    const std::string p = path.get<std::string>();
    files.push_back({p.substr(p.find_last_of('/') + 1), Slurp(SourceDir() + "/" + p)});
  }
  for (const auto& inline_file : c.value("inline", json::array())) {
    files.push_back({inline_file["name"], inline_file["text"]});
  }
  auto from = ParseIsoInstant(c["from"].get<std::string>());
  auto to = ParseIsoInstant(c["to"].get<std::string>());
  if (!from.ok() || !to.ok()) return {{"ok", false}, {"code", "INVALID_ARGUMENT"}};
  auto result = c["op"] == "merge" ? MergeIcsFilesJson(files, {*from, *to})
                                   : ExpandIcsFilesJson(files, {*from, *to});
  if (!result.ok()) return {{"ok", false}, {"code", result.status().code()}};
  json out = *result;
  out["ok"] = true;
  return out;
}

TEST(IcsVectors, NativeMatchesRecordedExpectations) {
  const std::string path = SourceDir() + "/tests/vectors/calendar/ics_vectors.json";
  json vectors = json::parse(Slurp(path), nullptr, false);
  ASSERT_FALSE(vectors.is_discarded()) << path;
  ASSERT_GT(vectors["cases"].size(), 0u);
  const bool update = std::getenv("ENSEMBLE_UPDATE_VECTORS") != nullptr;
  for (auto& c : vectors["cases"]) {
    const json got = RunCase(c);
    if (update) {
      c["expect"] = got;
    } else {
      EXPECT_EQ(got.dump(), c["expect"].dump()) << c["name"];
    }
  }
  if (update) std::ofstream(path, std::ios::binary) << vectors.dump(1) << "\n";
}

}  // namespace
}  // namespace ensemble::core::calendar
