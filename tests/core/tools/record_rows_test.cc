// The record tools' shared reads (core/tools/record_rows.h): a Noun names its
// kind by name and the turn's kinds give its table, so a domain's tools can
// read another domain's records without including it.

#include "core/tools/record_rows.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::tools {
namespace {

using record_rows::kPerson;
using record_rows::kProject;
using record_rows::Noun;

using RecordRowsTest = RecordToolTest;

TEST_F(RecordRowsTest, ANounFindsItsKindAmongTheTurnsKinds) {
  auto kind = record_rows::KindOf(ctx_, kPerson);
  ASSERT_TRUE(kind.ok()) << kind.status().ToString();
  EXPECT_EQ((*kind)->kind, "person");
  const std::string ada = Seed("person", {{"name", "Ada"}});
  auto row = record_rows::LiveInSpace(ctx_, kPerson, ada);
  ASSERT_TRUE(row.ok()) << row.status().ToString();
  EXPECT_EQ(record_rows::TitleOf(kPerson, *row), "Ada");
  // The same id read as a project is no project, never another kind's row.
  EXPECT_EQ(record_rows::LiveInSpace(ctx_, kProject, ada).status().code(), codes::kNotFound);
}

TEST_F(RecordRowsTest, AKindTheBuildLacksIsAnInternalErrorNotAnEmptyAnswer) {
  const Noun unknown = {"starship", "starship", "starships", "name"};
  EXPECT_EQ(record_rows::KindOf(ctx_, unknown).status().code(), codes::kInternal);
  EXPECT_EQ(record_rows::AllLive(ctx_, unknown).status().code(), codes::kInternal);
  EXPECT_EQ(record_rows::FindInSpace(ctx_, unknown, "x").status().code(), codes::kInternal);
}

TEST_F(RecordRowsTest, AContextWithoutKindsFindsNone) {
  ctx_.record_kinds = {};
  EXPECT_EQ(record_rows::KindOf(ctx_, kProject).status().code(), codes::kInternal);
}

}  // namespace
}  // namespace ensemble::core::tools
