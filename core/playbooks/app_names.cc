#include "core/playbooks/app_names.h"

#include <algorithm>

namespace ensemble::core::playbooks {
namespace {

static_assert(std::is_sorted(kEverydayAppNames.begin(), kEverydayAppNames.end()),
              "IsEverydayAppName binary-searches kEverydayAppNames");

bool IsPartSeparator(char c) { return c == '&' || c == '+' || c == '/' || c == ','; }

void AddName(std::vector<std::string> words, std::vector<AppName>* names) {
  if (words.empty()) return;
  const bool everyday =
      words.size() == 1 && (words[0].size() == 1 || IsEverydayAppName(words[0]));
  for (const AppName& known : *names) {
    if (known.words == words) return;
  }
  names->push_back(AppName{std::move(words), everyday});
}

// Adds `text` whole and each of its parts.
void AddNameAndParts(std::string_view text, std::vector<AppName>* names) {
  AddName(SplitWords(text), names);
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = start;
    while (end < text.size() && !IsPartSeparator(text[end])) ++end;
    // Within a part, the word "and" separates further parts.
    std::vector<std::string> part;
    for (std::string& word : SplitWords(text.substr(start, end - start))) {
      if (word == "and") {
        AddName(std::move(part), names);
        part.clear();
      } else {
        part.push_back(std::move(word));
      }
    }
    AddName(std::move(part), names);
    start = end + 1;
  }
}

}  // namespace

bool IsEverydayAppName(std::string_view word) {
  return std::binary_search(kEverydayAppNames.begin(), kEverydayAppNames.end(), word);
}

std::vector<AppName> AppNamesOf(const ConnectedApp& app) {
  std::vector<AppName> names;
  for (const std::string* text : {&app.catalog_name, &app.id, &app.vendor}) {
    AddNameAndParts(*text, &names);
  }
  return names;
}

bool NamesConnectedApp(const MessageWords& message, const std::vector<ConnectedApp>& apps) {
  for (const ConnectedApp& app : apps) {
    for (const AppName& name : AppNamesOf(app)) {
      if (message.Contains(name.words, name.capitalised_only)) return true;
    }
  }
  return false;
}

bool NamesConnectedApp(const MessageWords& message, std::span<const ConnectedAppView> apps) {
  for (const ConnectedAppView& view : apps) {
    const ConnectedApp app{std::string(view.catalog_name), std::string(view.id),
                           std::string(view.vendor), view.meeting_notes};
    for (const AppName& name : AppNamesOf(app)) {
      if (message.Contains(name.words, name.capitalised_only)) return true;
    }
  }
  return false;
}

}  // namespace ensemble::core::playbooks
