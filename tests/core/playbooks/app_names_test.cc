// Which connected apps a message names (core/playbooks/app_names.h): the
// rules of spec 000 §3 as table rows, and the borrowed-text matcher (what
// routing runs) against the names AppNamesOf lists, on the same inputs.

#include "core/playbooks/app_names.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/playbooks/message_words.h"

namespace ensemble::core::playbooks {
namespace {

bool NamedByViews(const std::string& message, const ConnectedApp& app) {
  const MessageWords words(message);
  const ConnectedAppView view{app.catalog_name, app.id, app.vendor, app.meeting_notes};
  return NamesConnectedApp(words, std::span<const ConnectedAppView>(&view, 1));
}

bool NamedByNames(const std::string& message, const ConnectedApp& app) {
  const MessageWords words(message);
  return NamesConnectedApp(words, std::vector<ConnectedApp>{app});
}

TEST(AppNames, FollowsTheRoutingRules) {
  const ConnectedApp atlassian{"Jira & Confluence", "atlassian", "Atlassian", false};
  const ConnectedApp box{"Box", "box", "Box", false};
  const ConnectedApp google{"Google Drive and Docs", "google-drive", "Google", false};
  struct Row {
    const char* message;
    const ConnectedApp* app;
    bool named;
  };
  const Row rows[] = {
      {"find the open bugs in Jira", &atlassian, true},
      {"summarise the confluence page", &atlassian, true},  // A part, any case.
      {"jira & confluence", &atlassian, true},              // The whole name.
      {"ask atlassian support", &atlassian, true},          // The vendor.
      {"a jiraffe", &atlassian, false},                     // Whole words only.
      {"put it in a box", &box, false},                     // Everyday word, lowercase.
      {"save it to Box", &box, true},                       // Capitalised.
      {"open my drive and docs", &google, false},           // Everyday parts, lowercase.
      {"open the Docs", &google, true},                     // A part after "and".
      {"google drive", &google, true},                      // A two-word part.
      {"google-drive sync", &google, true},                 // The id's words.
      {"and", &google, false},                              // "and" is no name.
  };
  for (const Row& row : rows) {
    EXPECT_EQ(NamedByViews(row.message, *row.app), row.named) << row.message;
    EXPECT_EQ(NamedByNames(row.message, *row.app), row.named) << row.message;
  }
}

// The matcher routing uses works on the app's text in place; it must give
// AppNamesOf's answer whatever the names and messages look like.
TEST(AppNames, AppNamesMatchAsWords) {
  const std::vector<ConnectedApp> apps = {
      {"Jira & Confluence", "atlassian", "Atlassian", false},
      {"A+B / C, d", "x", "Y and Z", false},
      {"AND and And", "", "", false},
      {"Microsoft Teams", "ms-teams", "Microsoft", true},
      {"Zoom", "zoom", "Zoom Video", true},
      {"Ünïcode Äpp & Otter.ai", "otter_ai", "Otter", false},
      {"", "", "", false},
      {"Box and", "and box", ",,&&", false},
      {"Google Drive+Sheets/Slides", "g", "Alphabet Inc.", false},
  };
  const std::vector<std::string> messages = {
      "",
      "Add a task",
      "ask Jira and confluence about it",
      "JIRA",
      "a b c d",
      "A",
      "and",
      "AND",
      "Microsoft teams call",
      "the teams meeting",
      "Teams meeting",
      "zoom in",
      "Zoom call with zoom video",
      "ünïcode äpp notes",
      "Ünïcode Äpp",
      "otter.ai transcript",
      "Otter ai",
      "box",
      "Box and",
      "google drive",
      "Sheets",
      "slides",
      "G",
      "g",
      "alphabet inc",
      "y z",
      "Y",
      "x marks the spot",
      "X",
  };
  for (const ConnectedApp& app : apps) {
    for (const std::string& message : messages) {
      EXPECT_EQ(NamedByViews(message, app), NamedByNames(message, app))
          << "app '" << app.catalog_name << "', message '" << message << "'";
    }
  }
}

}  // namespace
}  // namespace ensemble::core::playbooks
