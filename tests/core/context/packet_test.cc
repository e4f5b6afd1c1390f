// The work packet (core/context/packet.h): a record's context as Markdown,
// facts first and relations in the graph's order of importance, every row a
// link with its handle, trimmed to its budget from the least important
// section, and saying what was left out and how to read it.

#include "core/context/packet.h"

#include <gmock/gmock.h>

#include <string>

#include "core/refs/collect.h"
#include "core/refs/record_handle.h"
#include "core/text/utf8.h"
#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::context {
namespace packet_test {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

class PacketTest : public tools::RecordToolTest {
 protected:
  void SetUp() override {
    tools::RecordToolTest::SetUp();
    mira_ = Seed("person", {{"name", "Mira"}, {"role", "Lead"}});
    project_ = Seed("project", {{"title", "Launch"}, {"people", {mira_}}});
    venue_ = Seed("task", {{"title", "Book venue"}, {"project", project_}, {"status", "done"}});
    task_ = Seed("task", {{"title", "Book launch venue"},
                          {"project", project_},
                          {"people", {mira_}},
                          {"depends_on", {venue_}},
                          {"labels", {"copy"}},
                          {"due", "2026-12-20"},
                          {"description", "Two rooms, one stage."}});
    for (int i = 0; i < 12; ++i) {
      Seed("task", {{"title", "Step " + std::to_string(i)}, {"project", project_}});
    }
    for (int i = 0; i < 3; ++i) {
      Seed("comment",
           {{"target_kind", "task"}, {"target", task_}, {"body", "Question " + std::to_string(i)}});
    }
  }

  std::string Packet(std::size_t budget) {
    Result<std::string> p = WorkPacket(ctx_, "task", task_, budget);
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    return p.ok() ? *p : std::string();
  }

  std::string mira_, project_, venue_, task_;
};

TEST_F(PacketTest, FactsFirstThenTheRelationsEachRowWithItsHandle) {
  const std::string p = Packet(kMaxPacketChars);
  EXPECT_EQ(p.rfind("# Task: Book launch venue\nensemble://task/" + task_ + "\n", 0), 0u) << p;
  EXPECT_THAT(p, HasSubstr("- Due: 2026-12-20\n- Labels: copy\n\nTwo rooms, one stage.\n"));
  EXPECT_THAT(p, HasSubstr("## Project\n- [Launch](" + refs::HandleOf("project", project_) +
                           ") (active)\n"));
  EXPECT_THAT(p,
              HasSubstr("## People\n- [Mira](" + refs::HandleOf("person", mira_) + ") (Lead)\n"));
  EXPECT_THAT(p, HasSubstr("## Depends on\n- [Book venue](" + refs::HandleOf("task", venue_) +
                           ") (done)\n"));
  EXPECT_THAT(p, HasSubstr("## Done before\n- [Book venue]"));
  EXPECT_THAT(p, HasSubstr("- [\u201CQuestion 2\u201D](ensemble://comment/"));
  const std::size_t project = p.find("## Project"), people = p.find("## People"),
                    related = p.find("## Related open work"), comments = p.find("## Comments");
  EXPECT_LT(project, people);
  EXPECT_LT(people, related);
  EXPECT_LT(related, comments);
  // Twelve related, ten read: the rest is named with how to read it.
  EXPECT_THAT(p, HasSubstr("## More\nhub_item_context with this record's kind and id, rel and "
                           "offset reads: related (2 from offset 10)."));
}

TEST_F(PacketTest, ABudgetTrimsTheLeastImportantSectionFirst) {
  const std::string whole = Packet(kMaxPacketChars);
  const std::string p = Packet(600);
  EXPECT_LE(text::CountCodePoints(p), 600u);
  EXPECT_THAT(p, HasSubstr("## Project"));
  EXPECT_THAT(p, HasSubstr("## People"));
  EXPECT_THAT(p, Not(HasSubstr("## Comments")));
  EXPECT_THAT(p, HasSubstr("comments (3 from offset 0)"));
  EXPECT_LT(p.size(), whole.size());
  // At the least budget only the facts and what was left out remain, cut.
  const std::string least = Packet(1);
  EXPECT_LE(text::CountCodePoints(least), kMinPacketChars);
  EXPECT_EQ(least.rfind("# Task: Book launch venue", 0), 0u);
}

TEST_F(PacketTest, NoBudgetCutsTheHeadingOrTheHandle) {
  const std::string long_title = std::string(490, 'x') + " \u00E9t\u00E9";
  const std::string t =
      Seed("task",
           {{"title", long_title}, {"project", project_}, {"description", std::string(280, 'd')}});
  Result<std::string> p = WorkPacket(ctx_, "task", t, kMinPacketChars);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_LE(text::CountCodePoints(*p), kMinPacketChars);
  EXPECT_TRUE(text::IsValidUtf8(*p));
  EXPECT_EQ(p->rfind("# Task: " + std::string(kPacketTitleChars - 1, 'x') + "\u2026\n", 0), 0u)
      << *p;
  EXPECT_THAT(*p, HasSubstr("\n" + refs::HandleOf("task", t) + "\n"));
}

TEST_F(PacketTest, HubItemContextGivesThePacketAndTheTurnLearnsItsRecords) {
  json r = Ok("hub_item_context", {{"kind", "task"}, {"id", task_}});
  const std::string packet = r["data"]["packet"];
  EXPECT_THAT(packet, HasSubstr("## Related open work"));
  EXPECT_LE(text::CountCodePoints(packet), kDefaultPacketChars);
  bool knows_venue = false;
  for (const refs::Ref& ref : refs::RefsFromResult("hub_item_context", r)) {
    knows_venue =
        knows_venue || (ref.id == venue_ && ref.label == "Book venue" && ref.kind == "task");
  }
  EXPECT_TRUE(knows_venue);
  // One relation paged is JSON, as the route gives it.
  json page = Ok("hub_item_context", {{"kind", "task"}, {"id", task_}, {"rel", "related"}});
  EXPECT_EQ(page["data"]["relations"]["related"]["total"], 12);
  EXPECT_FALSE(page["data"].contains("packet"));
}

}  // namespace packet_test
}  // namespace ensemble::core::context
