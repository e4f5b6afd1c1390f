// What the turn knows (spec §4.1): refs from tool results, state, history
// and their order and caps in TurnRefs.

#include "core/refs/collect.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/base/id.h"
#include "core/refs/ref_json.h"

namespace ensemble::core::refs {
namespace {

using nlohmann::json;

std::string Id(char tag, int n) {
  std::string digits = std::to_string(n);
  return std::string("01JC") + tag + std::string(kIdLength - 5 - digits.size(), '0') + digits;
}

std::string Show(const std::vector<Ref>& refs) {
  std::string out;
  for (const Ref& r : refs) {
    out += r.kind + ":" + r.label + (r.detail.empty() ? "" : "|" + r.detail) + " ";
  }
  return out;
}

TEST(RefsFromResult, KindComesFromRowThenKeyThenToolName) {
  const std::string a = Id('A', 1), b = Id('A', 2), c = Id('A', 3), d = Id('A', 4);
  const struct {
    const char* name;
    const char* tool;
    json result;
    const char* expect;
  } cases[] = {
      {"row kind wins over key and tool",
       "hub_list_tasks",
       {{"tasks", {{{"id", a}, {"title", "Plan"}, {"kind", "project"}}}}},
       "project:Plan "},
      {"row type when it names a kind",
       "hub_search",
       {{"results", {{{"id", a}, {"title", "Plan"}, {"type", "pages"}}}}},
       "page:Plan "},
      {"row type that is no kind is ignored",
       "hub_list_files",
       {{"files", {{{"id", a}, {"name", "a.pdf"}, {"type", "pdf"}}}}},
       "file:a.pdf "},
      {"plural key", "hub_search", {{"tasks", {{{"id", a}, {"title", "Plan"}}}}}, "task:Plan "},
      {"singular key", "hub_do", {{"person", {{"id", a}, {"name", "Mira"}}}}, "person:Mira "},
      {"people key", "hub_do", {{"people", {{{"id", a}, {"name", "Mira"}}}}}, "person:Mira "},
      {"role key",
       "hub_read_task",
       {{"task", {{"id", a}, {"title", "Plan"}, {"assignee", {{"id", b}, {"name", "Mira"}}}}}},
       "task:Plan person:Mira "},
      {"tool name at top", "hub_list_tasks", {{{"id", a}, {"title", "Plan"}}}, "task:Plan "},
      {"tool name through containers",
       "hub_read_board",
       {{"data", {{"items", {{{"id", a}, {"name", "Roadmap"}}}}}}},
       "board:Roadmap "},
      {"tool name not under an unknown key",
       "hub_list_tasks",
       {{"meta", {{"id", a}, {"name", "Other"}}}},
       ""},
      {"no kind anywhere is skipped", "hub_search", {{"stuff", {{{"id", a}, {"title", "X"}}}}}, ""},
      {"nested arrays",
       "hub_do",
       {{"projects", {{{{"id", a}, {"name", "P1"}}}, {{{"id", b}, {"name", "P2"}}}}}},
       "project:P1 project:P2 "},
      {"no id, fake id, no title skipped",
       "hub_list_tasks",
       {{"tasks",
         {{{"title", "No id"}},
          {{"id", "task-1"}, {"title", "Fake id"}},
          {{"id", "01jctask000000000000000001"}, {"title", "Lower case"}},
          {{"id", c}},
          {{"id", c}, {"title", ""}},
          {{"id", d}, {"title", "Real"}}}}},
       "task:Real "},
      {"detail from due, dueDate or email",
       "hub_do",
       {{"tasks",
         {{{"id", a}, {"title", "T1"}, {"due", "2026-12-01"}},
          {{"id", b}, {"title", "T2"}, {"dueDate", "2026-12-02"}}}},
        {"people", {{{"id", c}, {"name", "Mira"}, {"email", "mira@example.com"}}}}},
       "person:Mira|mira@example.com task:T1|2026-12-01 task:T2|2026-12-02 "},
      {"an id twice is kept once",
       "hub_list_tasks",
       {{"tasks", {{{"id", a}, {"title", "Plan"}}, {{"id", a}, {"title", "Plan again"}}}}},
       "task:Plan "},
      {"not an object or array", "hub_list_tasks", "just text", ""},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(Show(RefsFromResult(c.tool, c.result)), c.expect) << c.name;
  }
}

TEST(RefsFromResult, KindFromToolName) {
  const struct {
    const char* tool;
    const char* kind;
  } cases[] = {{"hub_list_tasks", "task"},
               {"hub_read_board", "board"},
               {"hub_list_people", "person"},
               {"hub_create_tasks", "task"},
               {"hub_read_skill", "skill"},
               {"hub_list_agent_sessions", ""},
               {"hub_web_search", ""},
               {"", ""},
               {"tasks", "task"},
               {"hub_list_meetings_x", "meeting"}};
  for (const auto& c : cases) EXPECT_EQ(KindFromToolName(c.tool), c.kind) << c.tool;
}

TEST(RefsFromResult, AtMostFiftyPerCall) {
  json rows = json::array();
  for (int i = 1; i <= 80; ++i)
    rows.push_back({{"id", Id('T', i)}, {"title", "T" + std::to_string(i)}});
  std::vector<Ref> refs = RefsFromResult("hub_list_tasks", {{"tasks", rows}});
  ASSERT_EQ(refs.size(), kMaxRefsPerCall);
  EXPECT_EQ(refs.front().label, "T1");
  EXPECT_EQ(refs.back().label, "T50");
}

TEST(RefsFromResult, DepthIsBounded) {
  json deep = {{"id", Id('D', 1)}, {"title", "Deep"}};
  for (size_t i = 0; i < kMaxResultDepth; ++i) deep = json::array({deep});
  EXPECT_TRUE(RefsFromResult("hub_list_tasks", deep).empty());
  json shallow = {{"id", Id('D', 1)}, {"title", "Shallow"}};
  for (size_t i = 0; i + 1 < kMaxResultDepth; ++i) shallow = json::array({shallow});
  EXPECT_EQ(RefsFromResult("hub_list_tasks", shallow).size(), 1u);
}

TEST(HistoryRefs, OnlyTheLastTwelveMessagesNewestFirst) {
  std::vector<HistoryMessage> messages;
  for (int i = 1; i <= 15; ++i) {
    messages.push_back({"user", "", {{"task", Id('H', i), "M" + std::to_string(i)}}});
  }
  std::vector<Ref> refs = HistoryRefs(messages);
  ASSERT_EQ(refs.size(), kMaxHistoryMessages);
  EXPECT_EQ(refs.front().label, "M15");
  EXPECT_EQ(refs.back().label, "M4");
}

TEST(HistoryRefs, LinksInTextCount) {
  const std::string a = Id('K', 1), b = Id('K', 2);
  const struct {
    std::string text;
    const char* expect;
  } cases[] = {
      {"Done: [Draft brief](ensemble://task/" + a + ").", "task:Draft brief "},
      {"Ask [@Mira Chen](ensemble://people/" + a + ")", "person:Mira Chen "},
      {"[Fix \\[bug\\]](ensemble://task/" + a + ") and [Plan](ensemble://project/" + b + ")",
       "task:Fix [bug] project:Plan "},
      {"[Nested [x]](ensemble://task/" + a + ")", "task:Nested [x] "},
      {"[Bad](ensemble://task/not-an-id) [Web](https://example.com/" + a + ")", ""},
      {"[](ensemble://task/" + a + ") [Long](ensemble://task/" + a + "X)", ""},
      {"[Split\nline](ensemble://task/" + a + ")", ""},
      {"[[Outer](ensemble://task/" + a + ")", "task:Outer "},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(Show(HistoryRefs({{"assistant", c.text, {}}})), c.expect) << c.text;
  }
}

TEST(StateRefs, MentionsThenOpenItemThenSkills) {
  std::vector<Ref> refs =
      StateRefs({{"person", Id('S', 1), "Mira"}}, Ref{"task", Id('S', 2), "Open", "due Fri"},
                {{Id('S', 3), "Morning notes"}});
  EXPECT_EQ(Show(refs), "person:Mira task:Open|due Fri skill:Morning notes ");
  EXPECT_EQ(Show(StateRefs({}, std::nullopt, {})), "");
}

TEST(TurnRefs, AddsInSpecOrderFirstIdWins) {
  const std::string shared = Id('Q', 1);
  TurnStart start;
  start.mentions = {{"person", shared, "From mention"}};
  start.open_item = Ref{"task", Id('Q', 2), "Open item", ""};
  start.skills = {{Id('Q', 3), "Skill"}};
  start.history = {
      {"user",
       "[From history](ensemble://task/" + shared + ") [Old](ensemble://task/" + Id('Q', 4) + ")",
       {}}};
  start.extra = {{"room", Id('Q', 5), "Room", ""}, {"room", Id('Q', 4), "Not old", ""}};
  TurnRefs turn(start);
  std::vector<Ref> call =
      turn.AddToolResult("hub_list_tasks", {{"tasks",
                                             {{{"id", Id('Q', 6)}, {"title", "From tool"}},
                                              {{"id", Id('Q', 2)}, {"title", "Open again"}}}}});
  EXPECT_EQ(Show(call), "task:From tool task:Open again ");
  ASSERT_EQ(turn.call_count(), 1u);
  EXPECT_EQ(Show(turn.call_refs(0)), Show(call));
  std::vector<Ref> all;
  for (size_t i = 0; i < turn.known().size(); ++i) all.push_back(turn.known().at(i).ref);
  EXPECT_EQ(Show(all),
            "person:From mention task:Open item skill:Skill task:Old room:Room task:From tool ");
}

TEST(TurnRefs, TurnHoldsAtMost200ButEachCallKeepsItsOwn) {
  TurnRefs turn(TurnStart{});
  for (int call = 0; call < 5; ++call) {
    json rows = json::array();
    for (int i = 0; i < 50; ++i) {
      rows.push_back({{"id", Id('C', call * 100 + i)}, {"title", "T"}});
    }
    EXPECT_EQ(turn.AddToolResult("hub_list_tasks", rows).size(), kMaxRefsPerCall);
  }
  EXPECT_EQ(turn.known().size(), RefSet::kMaxRefs);
  EXPECT_EQ(turn.call_refs(4).size(), kMaxRefsPerCall);
  EXPECT_EQ(turn.known().Find(Id('C', 449)), nullptr);
  EXPECT_NE(turn.known().Find(Id('C', 349)), nullptr);
}

TEST(TurnRefs, RefsFrameIsTheWireShape) {
  TurnStart start;
  start.open_item = Ref{"task", Id('F', 1), "Draft brief", "due Dec 1"};
  start.mentions = {{"person", Id('F', 2), "Mira"}};
  TurnRefs turn(start);
  json frame = turn.RefsFrameJson();
  EXPECT_EQ(frame,
            json::parse(R"({"refs": [
      {"kind": "person", "id": ")" +
                        Id('F', 2) + R"(", "label": "Mira"},
      {"kind": "task", "id": ")" +
                        Id('F', 1) + R"(", "label": "Draft brief", "detail": "due Dec 1"}]})"));
  // What the frame carries reads back as the same refs.
  auto set = RefSetFromJson(frame.at("refs"));
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  EXPECT_EQ(set->size(), 2u);
  EXPECT_EQ(RefListToJson({}), json::array());
}

}  // namespace
}  // namespace ensemble::core::refs
