#include "core/assistant/write_policy.h"

#include <gtest/gtest.h>

#include "core/assistant/hub_tools.h"
#include "core/hub/hub_tools.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::assistant {
namespace {

const tools::ToolDef& HubTool(std::string_view name) {
  const tools::ToolDef* def = hub::HubToolRegistry().Find(name);
  EXPECT_NE(def, nullptr) << name;
  return *def;
}

TEST(WritePolicy, ParsesTheSettingsNamesOnly) {
  EXPECT_EQ(ParseWritePolicy("immediate"), WritePolicy::kImmediate);
  EXPECT_EQ(ParseWritePolicy("preview"), WritePolicy::kPreview);
  EXPECT_EQ(ParseWritePolicy("needs-me"), WritePolicy::kNeedsMe);
  EXPECT_EQ(ParseWritePolicy("Preview"), std::nullopt);
  EXPECT_EQ(ParseWritePolicy(""), std::nullopt);
}

TEST(WritePolicy, ImmediateRunsHubWritesAndHoldsAlwaysHoldAndAppWrites) {
  EXPECT_FALSE(HoldsWrite(WritePolicy::kImmediate, HubTool("hub_create_tasks")));
  EXPECT_TRUE(HoldsWrite(WritePolicy::kImmediate, HubTool("hub_delete_board")));
  EXPECT_TRUE(HoldsWrite(WritePolicy::kImmediate, HubTool("apps_post_update")));
}

TEST(WritePolicy, PreviewAndNeedsMeHoldEveryWriteButNeverAReadOrAnArtifact) {
  for (WritePolicy p : {WritePolicy::kPreview, WritePolicy::kNeedsMe}) {
    EXPECT_TRUE(HoldsWrite(p, HubTool("hub_create_tasks")));
    EXPECT_FALSE(HoldsWrite(p, HubTool("hub_list_tasks")));
    tools::ToolDef diagram = HubTool("hub_create_tasks");
    diagram.name = "hub_create_diagram";
    diagram.area = areas::kPages;
    EXPECT_FALSE(HoldsWrite(p, diagram));
  }
}

}  // namespace
}  // namespace ensemble::core::assistant
