// A test base for the hub tools' hooks: an in-memory SQLite store migrated as
// the hub's, a ToolContext on one space whose writes go through the hub's
// mutators directly (counted), and helpers that validate, prepare and run a
// call as the turn driver does.

#ifndef ENSEMBLE_TESTS_CORE_TOOLS_TOOL_RUN_FIXTURE_H_
#define ENSEMBLE_TESTS_CORE_TOOLS_TOOL_RUN_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/assistant/hub_tools.h"
#include "core/hub/hub.h"
#include "core/hub/hub_tools.h"
#include "core/store/sqlite_database.h"
#include "core/tools/tool_context.h"
#include "core/tools/validate.h"
#include "tests/fakes/fake_env.h"

namespace ensemble::core::tools {

class ToolRunTest : public ::testing::Test {
 protected:
  // Monday 30 November 2026, 09:00 UTC.
  static constexpr char kToday[] = "2026-11-30";
  static constexpr int64_t kNow = 1'796'029'200'000;
  static constexpr char kSpace[] = "personal";
  static constexpr char kOtherSpace[] = "team";

  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
    ctx_.db = db_.get();
    ctx_.space_id = kSpace;
    ctx_.now_ms = kNow;
    ctx_.today = kToday;
    ctx_.time_zone = "UTC";
    ctx_.random = &random_;
    tools::MutationSink direct = hub::DirectMutationSink(*db_, kNow);
    ctx_.write = [this, direct](const std::vector<tools::Mutation>& m) {
      ++writes_;
      return direct(m);
    };
  }

  const tools::ToolDef& Tool(const std::string& name) {
    const tools::ToolDef* def = hub::HubToolRegistry().Find(name);
    EXPECT_NE(def, nullptr) << name;
    return *def;
  }

  // Validates, prepares and runs a call as the turn driver does.
  Result<nlohmann::json> Run(const std::string& name, nlohmann::json input) {
    Status valid = tools::ValidateToolCall(hub::HubToolRegistry(), name, input);
    if (!valid.ok()) return valid;
    const tools::ToolDef& def = Tool(name);
    tools::ToolCall call{name, std::move(input), &ctx_};
    if (def.prepare) ENSEMBLE_RETURN_IF_ERROR(def.prepare(call));
    EXPECT_TRUE(def.run) << name;
    if (!def.run) return Status(codes::kInternal, name + " has no run");
    return def.run(call);
  }

  nlohmann::json Ok(const std::string& name, nlohmann::json input) {
    Result<nlohmann::json> r = Run(name, input);
    EXPECT_TRUE(r.ok()) << name << " " << input.dump() << ": " << r.status().ToString();
    return r.ok() ? *r : nlohmann::json();
  }

  // Prepares and previews a held write; `prepared` gets the prepared input.
  Result<std::string> Preview(const std::string& name, nlohmann::json input,
                              nlohmann::json* prepared = nullptr) {
    Status valid = tools::ValidateToolCall(hub::HubToolRegistry(), name, input);
    if (!valid.ok()) return valid;
    const tools::ToolDef& def = Tool(name);
    tools::ToolCall call{name, std::move(input), &ctx_};
    if (def.prepare) ENSEMBLE_RETURN_IF_ERROR(def.prepare(call));
    if (prepared) *prepared = call.input;
    if (!def.preview) return Status(codes::kInternal, name + " has no preview");
    return def.preview(call);
  }

  // Runs a result's Undo entry through the turn's sink.
  Status ApplyUndo(const nlohmann::json& result) {
    std::vector<tools::Mutation> undo;
    for (const nlohmann::json& m : result.at("undo")) undo.push_back({m.at("name"), m.at("args")});
    return ctx_.write(undo);
  }

  // Runs mutations as a client of the store (seeding records).
  void Mutate(const std::vector<tools::Mutation>& mutations) {
    Status st = hub::DirectMutationSink(*db_, kNow)(mutations);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }

  std::unique_ptr<store::SqliteDatabase> db_;
  ensemble::testing::FakeRandom random_;
  tools::ToolContext ctx_ = hub::NewToolContext();
  int writes_ = 0;
};

}  // namespace ensemble::core::tools

#endif  // ENSEMBLE_TESTS_CORE_TOOLS_TOOL_RUN_FIXTURE_H_
