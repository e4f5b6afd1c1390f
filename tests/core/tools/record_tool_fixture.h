// A test fixture for the record tools (projects, pages, people, comments,
// reminders, routines...): ToolRunTest's store, context and call helpers,
// with records seeded in any space and read back as ReadRecord gives them.

#ifndef ENSEMBLE_TESTS_CORE_TOOLS_RECORD_TOOL_FIXTURE_H_
#define ENSEMBLE_TESTS_CORE_TOOLS_RECORD_TOOL_FIXTURE_H_

#include <gtest/gtest.h>

#include <string>

#include "core/base/id.h"
#include "core/hub/hub_tools.h"
#include "core/records/record_mutators.h"
#include "tests/core/tools/tool_run_fixture.h"
#include "tests/fakes/fake_env.h"

namespace ensemble::core::tools {

class RecordToolTest : public ToolRunTest {
 protected:
  using json = nlohmann::json;

  // A record written straight through the mutators, in any space.
  std::string Seed(const std::string& kind, json args, const std::string& space = kSpace) {
    const std::string id = NewId(clock_, random_);
    clock_.Advance(1);
    args["id"] = id;
    args["spaceId"] = space;
    EXPECT_TRUE(hub::DirectMutationSink(*db_, kNow)({{kind + ".create", args}}).ok());
    return id;
  }

  json Row(const records::RecordKind& kind, const std::string& id) {
    auto row = records::ReadRecord(kind, *db_, id);
    EXPECT_TRUE(row.ok() && row->has_value()) << id;
    return row.ok() && row->has_value() ? **row : json();
  }

  testing::FakeClock clock_{kNow};
};

}  // namespace ensemble::core::tools

#endif  // ENSEMBLE_TESTS_CORE_TOOLS_RECORD_TOOL_FIXTURE_H_
