// Refs and format options read from JSON, as the CLI and the wasm bindings
// receive them: anything that is not a ref is refused, naming the entry.

#include "core/refs/ref_json.h"

#include <gtest/gtest.h>

#include <string>

namespace ensemble::core::refs {
namespace {

using nlohmann::json;

constexpr char kId[] = "01JCTASK000000000000000001";

TEST(RefJson, ReadsRefsWithOptionalDetail) {
  auto set = RefSetFromJson(json::parse(R"([
    {"kind": "task", "id": "01JCTASK000000000000000001", "label": "Draft brief", "detail": "due Dec 1"},
    {"kind": "person", "id": "01JCPERS000000000000000002", "label": "Mira Chen"}])"));
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  EXPECT_EQ(set->size(), 2u);
  ASSERT_NE(set->Find(kId), nullptr);
  EXPECT_EQ(set->Find(kId)->ref.detail, "due Dec 1");
  EXPECT_EQ(FormatEntityText(std::string("See ") + kId, *set, {}),
            std::string("See [Draft brief](ensemble://task/") + kId + ")");
}

TEST(RefJson, RefusesWhatIsNotARefNamingTheEntry) {
  const struct {
    const char* json;
    const char* names;
  } cases[] = {
      {R"({"kind": "task"})", "array"},
      {R"([1])", "refs[0] must be an object"},
      {R"([{"id": "01JCTASK000000000000000001", "label": "x"}])", "refs[0].kind"},
      {R"([{"kind": "task", "id": "01JCTASK000000000000000001", "label": ""}])", "refs[0].label"},
      {R"([{"kind": "task", "id": "not-an-id", "label": "x"}])", "refs[0].id is not a record id"},
      {R"([{"kind": "task", "id": "01JCTASK000000000000000001", "label": "x", "detail": 3}])",
       "refs[0].detail"},
  };
  for (const auto& c : cases) {
    auto set = RefSetFromJson(json::parse(c.json));
    ASSERT_FALSE(set.ok()) << c.json;
    EXPECT_EQ(set.status().code(), codes::kInvalidArgument);
    EXPECT_NE(set.status().message().find(c.names), std::string::npos) << set.status().message();
  }
}

TEST(RefJson, RefusesMoreRefsThanATurnHolds) {
  json many = json::array();
  for (size_t i = 0; i <= RefSet::kMaxRefs; ++i) {
    std::string n = std::to_string(i);
    many.push_back({{"kind", "task"}, {"id", "01JCTASK" + std::string(18 - n.size(), '0') + n},
                    {"label", "t" + n}});
  }
  EXPECT_FALSE(RefSetFromJson(many).ok());
  many.erase(many.end() - 1);
  EXPECT_TRUE(RefSetFromJson(many).ok());
}

TEST(RefJson, ReadsFormatOptions) {
  EXPECT_FALSE(FormatOptionsFromJson(nullptr)->plain);
  auto both = FormatOptionsFromJson(json{{"plain", true}, {"keepIds", true}});
  ASSERT_TRUE(both.ok());
  EXPECT_TRUE(both->plain);
  EXPECT_TRUE(both->keep_ids);
  EXPECT_FALSE(FormatOptionsFromJson(json{{"plain", "yes"}}).ok());
  EXPECT_FALSE(FormatOptionsFromJson(json{{"bold", true}}).ok());
  EXPECT_FALSE(FormatOptionsFromJson(json::array()).ok());
}

}  // namespace
}  // namespace ensemble::core::refs
