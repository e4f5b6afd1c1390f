// Which connected apps a message names (spec 000 §3, "Playbook routing"): a
// message naming an app connected in the space also loads the apps playbook.
//
// An app is known by its catalog name, its id and its vendor, and by each
// part of a combined name: "Jira & Confluence" is also "Jira" and
// "Confluence" (parts are split on '&', '+', '/', ',' and the word "and").
// Names match as whole words, case-insensitively (core/playbooks/
// message_words.h), except that a one-word name which is an everyday English
// word (kEverydayAppNames) or a single character counts only when the message
// writes it with a capital: "put it in a box" names nothing, "save it to Box"
// names Box.
//
// Thread-safety: pure functions.

#ifndef ENSEMBLE_CORE_PLAYBOOKS_APP_NAMES_H_
#define ENSEMBLE_CORE_PLAYBOOKS_APP_NAMES_H_

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/playbooks/message_words.h"

namespace ensemble::core::playbooks {

// One app connected in the space, as the turn's connections describe it.
struct ConnectedApp {
  std::string catalog_name;    // "Jira & Confluence".
  std::string id;              // "jira".
  std::string vendor;          // "Atlassian".
  bool meeting_notes = false;  // A meeting-notes app (Granola, Fathom, ...).
};

// A ConnectedApp whose text is borrowed (router.h's RouteRequestView).
struct ConnectedAppView {
  std::string_view catalog_name;
  std::string_view id;
  std::string_view vendor;
  bool meeting_notes = false;
};

// App names that are also everyday words, lowercase, sorted (binary search).
inline constexpr std::array<std::string_view, 32> kEverydayAppNames = {
    "bench", "box", "close", "copper", "docs", "drive", "fathom", "fireflies", "forms", "front",
    "gong", "grain", "granola", "harvest", "height", "linear", "loom", "mail", "meet", "monday",
    "notion", "office", "otter", "outlook", "sheets", "shortcut", "slack", "slides", "stripe",
    "teams", "wave", "zoom",
};

// One name an app is known by: its lowercase words, and whether the message
// must capitalise it for it to count.
struct AppName {
  std::vector<std::string> words;
  bool capitalised_only = false;
};

// Every name of `app` (catalog name, id, vendor and the parts of each).
std::vector<AppName> AppNamesOf(const ConnectedApp& app);

// True when `message` names any of `apps`.
bool NamesConnectedApp(const MessageWords& message, const std::vector<ConnectedApp>& apps);
bool NamesConnectedApp(const MessageWords& message, std::span<const ConnectedAppView> apps);

// True for a lowercase word in kEverydayAppNames.
bool IsEverydayAppName(std::string_view word);

}  // namespace ensemble::core::playbooks

#endif  // ENSEMBLE_CORE_PLAYBOOKS_APP_NAMES_H_
