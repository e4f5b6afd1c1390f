// Tests of the agent's trim (spec §4): FitList cuts a list at whole items
// with a note naming the offset to continue, HeadAndTail keeps a text's start
// and end, TrimToolResult picks between them. Budgets count code points.

#include "core/text/trim.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/text/utf8.h"

namespace ensemble::core::text {
namespace {

using nlohmann::json;

size_t Chars(const std::string& s) { return CountCodePoints(s); }

// The text before the last line (the note) and the note itself.
std::pair<std::string, std::string> SplitNote(const std::string& out) {
  size_t nl = out.rfind('\n');
  if (nl == std::string::npos) return {out, ""};
  return {out.substr(0, nl), out.substr(nl + 1)};
}

json Tasks(size_t n, size_t first = 0) {
  json items = json::array();
  for (size_t i = first; i < first + n; ++i) {
    items.push_back({{"id", "01JCTASK" + std::to_string(100000 + i)},
                     {"title", "Task number " + std::to_string(i)},
                     {"status", "open"}});
  }
  return items;
}

std::string Lines(size_t n, const std::string& last) {
  std::string text;
  for (size_t i = 0; i < n; ++i) text += "line " + std::to_string(i) + " of the build output\n";
  return text + last;
}

TEST(FormatCount, GroupsThousands) {
  struct Row {
    size_t n;
    const char* expect;
  } rows[] = {{0, "0"},        {7, "7"},          {999, "999"},
              {1000, "1,000"}, {12345, "12,345"}, {1234567, "1,234,567"}};
  for (const Row& r : rows) EXPECT_EQ(FormatCount(r.n), r.expect) << r.n;
}

TEST(CountText, PicksTheWordForTheNumber) {
  EXPECT_EQ(CountText(0, "card", "cards"), "0 cards");
  EXPECT_EQ(CountText(1, "card", "cards"), "1 card");
  EXPECT_EQ(CountText(1200, "card stays", "cards stay"), "1,200 cards stay");
}

TEST(TruncateChars, CutsWithAnEllipsisAndNeverSplitsACharacter) {
  struct Row {
    const char* in;
    size_t max;
    const char* expect;
  } rows[] = {
      {"Draft brief", 20, "Draft brief"},
      {"Draft brief", 11, "Draft brief"},
      {"Draft brief", 6, "Draft\u2026"},
      {"日本語のテキスト", 4, "日本語\u2026"},
      {"🎉🎉🎉", 2, "🎉\u2026"},
      {"abc", 0, ""},
  };
  for (const Row& r : rows) EXPECT_EQ(TruncateChars(r.in, r.max), r.expect) << r.in << " " << r.max;
}

TEST(HeadAndTail, TextWithinBudgetIsUnchanged) {
  struct Row {
    std::string text;
    size_t max;
  } rows[] = {
      {"", 0}, {"short", 100}, {"exactly ten", 11}, {"日本語🎉", 4}, {Lines(100, "end"), 100000}};
  for (const Row& r : rows) EXPECT_EQ(HeadAndTail(r.text, r.max), r.text) << r.text;
}

TEST(HeadAndTail, OneCharacterOverTheBudgetIsCutAndFitsExactly) {
  std::string text(501, 'x');
  std::string out = HeadAndTail(text, 500);
  EXPECT_LE(Chars(out), 500u);
  EXPECT_NE(out.find(" characters cut] "), std::string::npos);
  EXPECT_EQ(HeadAndTail(std::string(500, 'x'), 500), std::string(500, 'x'));
}

TEST(HeadAndTail, KeepsTheStartAndTheErrorAtTheEnd) {
  std::string text = Lines(2000, "Error: disk full (exit code 28)");
  std::string out = HeadAndTail(text, kMaxToolResultChars);
  EXPECT_LE(Chars(out), kMaxToolResultChars);
  EXPECT_EQ(out.rfind("line 0 of the build output\n", 0), 0u);
  EXPECT_NE(out.find("Error: disk full (exit code 28)"), std::string::npos);
  // Most of the budget is used.
  EXPECT_GT(Chars(out), kMaxToolResultChars - 2 * kLineSnapChars);
}

TEST(HeadAndTail, MarkerNamesExactlyHowManyCharactersWereCut) {
  std::string text = Lines(500, "done");
  std::string out = HeadAndTail(text, 1000);
  size_t open = out.find("\n\u2026 [");
  size_t close = out.find(" characters cut] \u2026\n");
  ASSERT_NE(open, std::string::npos);
  ASSERT_NE(close, std::string::npos);
  std::string number = out.substr(open + 6, close - open - 6);
  number.erase(std::remove(number.begin(), number.end(), ','), number.end());
  std::string head = out.substr(0, open);
  std::string tail = out.substr(close + std::string(" characters cut] \u2026\n").size());
  EXPECT_EQ(Chars(head) + Chars(tail) + std::stoul(number), Chars(text));
  EXPECT_EQ(text.rfind(head, 0), 0u);
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
}

TEST(HeadAndTail, CutsMeetLineBreaksWhenOneIsNear) {
  std::string text = Lines(400, "last line");
  std::string out = HeadAndTail(text, 2000);
  size_t open = out.find("\n\u2026 [");
  ASSERT_NE(open, std::string::npos);
  // The head is whole lines (it ends where a line ended) and the tail starts
  // at the beginning of a line.
  EXPECT_EQ(text[open], '\n');
  size_t close = out.find("] \u2026\n");
  std::string tail = out.substr(close + std::string("] \u2026\n").size());
  EXPECT_EQ(tail.rfind("line ", 0), 0u) << tail.substr(0, 40);
  EXPECT_EQ(text[text.size() - tail.size() - 1], '\n');
}

TEST(HeadAndTail, TextWithoutLineBreaksIsCutMidLine) {
  std::string text(10000, 'a');
  text += "THE END";
  std::string out = HeadAndTail(text, 300);
  EXPECT_LE(Chars(out), 300u);
  EXPECT_NE(out.find("THE END"), std::string::npos);
}

TEST(HeadAndTail, NeverSplitsAMultiByteCharacter) {
  std::string unit = "日本語のテキスト é 🎉 Zoë\n";
  std::string text;
  for (int i = 0; i < 200; ++i) text += unit;
  for (size_t max = 0; max < 400; max += 7) {
    std::string out = HeadAndTail(text, max);
    EXPECT_TRUE(IsValidUtf8(out)) << max;
    EXPECT_LE(Chars(out), max) << max;
  }
}

TEST(HeadAndTail, ABudgetTooSmallForTheMarkerGivesAPlainCut) {
  std::string text(1000, 'z');
  EXPECT_EQ(HeadAndTail(text, 0), "");
  EXPECT_EQ(HeadAndTail(text, 5), "zzzz\u2026");
  EXPECT_LE(Chars(HeadAndTail(text, 30)), 30u);
}

TEST(HeadAndTail, RepairsMalformedUtf8) {
  std::string text = "ok \xC0\xAF bad \xE2\x82 end";
  EXPECT_EQ(HeadAndTail(text, 1000), "ok \uFFFD\uFFFD bad \uFFFD end");
  std::string big(5000, 'a');
  big += "\x80\x80\x80";
  std::string out = HeadAndTail(big, 100);
  EXPECT_TRUE(IsValidUtf8(out));
  EXPECT_LE(Chars(out), 100u);
}

TEST(FitList, ListWithinBudgetIsItsCompactJson) {
  json items = Tasks(3);
  EXPECT_EQ(FitList(items, 6000), items.dump());
  EXPECT_EQ(FitList(json::array(), 10), "[]");
}

TEST(FitList, CutsAtWholeItemsAndNamesTheOffsetToContinue) {
  json items = Tasks(312);
  std::string out = FitList(items, kMaxToolResultChars);
  EXPECT_LE(Chars(out), kMaxToolResultChars);
  auto [body, note] = SplitNote(out);
  json shown = json::parse(body);
  ASSERT_TRUE(shown.is_array());
  size_t k = shown.size();
  ASSERT_GT(k, 0u);
  ASSERT_LT(k, 312u);
  for (size_t i = 0; i < k; ++i) EXPECT_EQ(shown[i], items[i]);
  EXPECT_EQ(note, "Showing " + std::to_string(k) +
                      " of 312; call again with offset: " + std::to_string(k) + " for the rest.");
  // Greedy: one more whole item would not have fitted.
  json more = shown;
  more.push_back(items[k]);
  EXPECT_GT(Chars(more.dump()) + 1 + Chars(note), kMaxToolResultChars);
}

TEST(FitList, LaterPagesCountFromTheirOffset) {
  json page = Tasks(312, 40);
  std::string out = FitList(page, 3000, 40);
  auto [body, note] = SplitNote(out);
  size_t k = json::parse(body).size();
  EXPECT_EQ(note, "Showing 41\u2013" + std::to_string(40 + k) +
                      " of 352; call again with offset: " + std::to_string(40 + k) +
                      " for the rest.");
}

TEST(FitList, AFirstItemTooBigAloneIsShownCutAndMarked) {
  json items = json::array();
  items.push_back({{"title", "Spec"}, {"body", std::string(20000, 'b') + " the end"}});
  items.push_back({{"title", "Small"}});
  std::string out = FitList(items, 2000);
  EXPECT_LE(Chars(out), 2000u);
  auto [body, note] = SplitNote(out);
  EXPECT_EQ(note,
            "Showing item 1 of 2, cut in the middle; call again with offset: 1 for the rest.");
  EXPECT_NE(body.find("characters cut]"), std::string::npos);
  EXPECT_NE(body.find("the end"), std::string::npos);
  EXPECT_EQ(body.rfind("{\"body\":\"bbb", 0), 0u);

  json one = json::array({items[0]});
  EXPECT_EQ(SplitNote(FitList(one, 2000)).second, "Showing item 1 of 1, cut in the middle.");
}

TEST(FitList, PagingWithTheNotesOffsetVisitsEveryItemOnce) {
  json all = Tasks(120);
  all[7]["notes"] = std::string(3000, 'n');  // one item too big for a page
  std::vector<json> seen;
  size_t offset = 0;
  for (int guard = 0; guard < 200 && offset < all.size(); ++guard) {
    json rest(all.begin() + static_cast<std::ptrdiff_t>(offset), all.end());
    std::string out = FitList(rest, 1000, offset);
    ASSERT_LE(Chars(out), 1000u);
    auto [body, note] = SplitNote(out);
    if (note.find("cut in the middle") != std::string::npos) {
      seen.push_back(all[offset]);
      ++offset;
    } else if (note.rfind("Showing", 0) == 0) {
      json shown = json::parse(body);
      for (const json& item : shown) seen.push_back(item);
      size_t at = note.find("offset: ");
      size_t next = std::stoul(note.substr(at + 8));
      ASSERT_EQ(next, offset + shown.size());
      offset = next;
    } else {
      for (const json& item : json::parse(out)) seen.push_back(item);
      offset = all.size();
    }
  }
  ASSERT_EQ(seen.size(), all.size());
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(seen[i], all[i]) << i;
}

TEST(FitList, NeverExceedsTheBudget) {
  json items = Tasks(50);
  items[0]["notes"] = "日本語🎉" + std::string(400, 'x');
  for (size_t max = 0; max < 1500; max += 13) {
    std::string out = FitList(items, max);
    EXPECT_LE(Chars(out), max) << max;
    EXPECT_TRUE(IsValidUtf8(out)) << max;
  }
}

TEST(TrimToolResult, SmallResultIsItsCompactJson) {
  json result = {{"summary", "Added 1 task: \u201cDraft brief\u201d."}, {"data", {{"id", "x"}}}};
  EXPECT_EQ(TrimToolResult(result), result.dump());
}

TEST(TrimToolResult, AListMemberIsCutKeepingTheOtherFields) {
  json result = {{"summary", "Found 300 tasks."}, {"tasks", Tasks(300)}, {"href", "/tasks"}};
  std::string out = TrimToolResult(result, kMaxToolResultChars);
  EXPECT_LE(Chars(out), kMaxToolResultChars);
  auto [body, note] = SplitNote(out);
  json kept = json::parse(body);
  EXPECT_EQ(kept["summary"], "Found 300 tasks.");
  EXPECT_EQ(kept["href"], "/tasks");
  size_t k = kept["tasks"].size();
  ASSERT_GT(k, 0u);
  for (size_t i = 0; i < k; ++i) EXPECT_EQ(kept["tasks"][i], result["tasks"][i]);
  EXPECT_EQ(note, "Showing " + std::to_string(k) +
                      " of 300; call again with offset: " + std::to_string(k) + " for the rest.");
}

TEST(TrimToolResult, AListInsideDataIsCutNotTheSmallInvalidationList) {
  json result = {{"summary", "Found 300 tasks."},
                 {"data", {{"tasks", Tasks(300)}, {"total", 300}}},
                 {"invalidate", json::array({"tasks", "projects"})}};
  std::string out = TrimToolResult(result, 4000, 0);
  EXPECT_LE(Chars(out), 4000u);
  auto [body, note] = SplitNote(out);
  json kept = json::parse(body);
  EXPECT_EQ(kept["invalidate"], result["invalidate"]);
  EXPECT_EQ(kept["data"]["total"], 300);
  EXPECT_LT(kept["data"]["tasks"].size(), 300u);
  EXPECT_EQ(note.rfind("Showing ", 0), 0u);
}

TEST(TrimToolResult, AnArrayResultIsCutLikeFitList) {
  json items = Tasks(300);
  EXPECT_EQ(TrimToolResult(items, 3000, 20), FitList(items, 3000, 20));
}

TEST(TrimToolResult, ATooBigFirstItemInAListMemberKeepsTheOtherFields) {
  json result = {
      {"summary", "Read 2 pages."},
      {"pages", json::array({{{"body", std::string(9000, 'p') + "END"}}, {{"body", "b"}}})}};
  std::string out = TrimToolResult(result, 1500);
  EXPECT_LE(Chars(out), 1500u);
  EXPECT_EQ(out.rfind("{\"pages\":[],\"summary\":\"Read 2 pages.\"}\n", 0), 0u)
      << out.substr(0, 80);
  EXPECT_NE(out.find("END"), std::string::npos);
  EXPECT_EQ(SplitNote(out).second,
            "Showing item 1 of 2, cut in the middle; call again with offset: 1 for the rest.");
}

TEST(TrimToolResult, AnythingElseKeepsItsStartAndEnd) {
  json result = {{"output", Lines(1000, "npm ERR! missing script: test")}, {"exitCode", 1}};
  std::string out = TrimToolResult(result, 2000);
  EXPECT_LE(Chars(out), 2000u);
  EXPECT_EQ(out.rfind("{\"exitCode\":1,\"output\":\"line 0", 0), 0u);
  EXPECT_NE(out.find("npm ERR! missing script: test\"}"), std::string::npos);
  EXPECT_NE(out.find(" characters cut] "), std::string::npos);
}

TEST(TrimToolResult, BigFieldsBesideTheListMakeItHeadAndTail) {
  // The list is not the only big thing: cutting it alone could not fit.
  json result = {{"log", std::string(5000, 'l')}, {"items", Tasks(200)}};
  std::string out = TrimToolResult(result, 3000);
  EXPECT_LE(Chars(out), 3000u);
  EXPECT_NE(out.find(" characters cut] "), std::string::npos);
  EXPECT_EQ(out.find("call again with offset"), std::string::npos);
}

TEST(TrimToolResult, InvalidUtf8InAResultNeverThrows) {
  json result = {{"text", std::string("bad \xC0 byte ") + std::string(7000, 'x')}};
  std::string out;
  EXPECT_NO_THROW(out = TrimToolResult(result));
  EXPECT_TRUE(IsValidUtf8(out));
  EXPECT_LE(Chars(out), kMaxToolResultChars);
}

TEST(JoinWithAnd, ListsAsASentenceDoes) {
  EXPECT_EQ(JoinWithAnd({}), "");
  EXPECT_EQ(JoinWithAnd({"status"}), "status");
  EXPECT_EQ(JoinWithAnd({"status", "due"}), "status and due");
  EXPECT_EQ(JoinWithAnd({"a", "b", "c"}), "a, b and c");
}

}  // namespace
}  // namespace ensemble::core::text
