#include "core/playbooks/app_names.h"

#include <algorithm>

#include "core/text/ascii.h"

namespace ensemble::core::playbooks {
namespace {

static_assert(std::is_sorted(kEverydayAppNames.begin(), kEverydayAppNames.end()),
              "IsEverydayAppName binary-searches kEverydayAppNames");

bool IsPartSeparator(char c) { return c == '&' || c == '+' || c == '/' || c == ','; }

void AddName(std::vector<std::string> words, std::vector<AppName>* names) {
  if (words.empty()) return;
  const bool everyday = words.size() == 1 && (words[0].size() == 1 || IsEverydayAppName(words[0]));
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

// As message_words.cc: a word is a run of text::IsWordByte.
// Calls fn(begin, end) for each word of `text` until it returns false;
// false when it did.
template <typename Fn>
bool ForEachWordUntil(std::string_view text, Fn&& fn) {
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !text::IsWordByte(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t begin = i;
    while (i < text.size() && text::IsWordByte(static_cast<unsigned char>(text[i]))) ++i;
    if (i > begin && !fn(begin, i)) return false;
  }
  return true;
}

// True when `word` lowercased is `lower`.
bool EqualsLowered(std::string_view lower, std::string_view word) {
  if (lower.size() != word.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k) {
    if (text::AsciiLower(word[k]) != lower[k]) return false;
  }
  return true;
}

// The longest word IsEverydayAppName is asked about here; longer ones are
// not everyday names.
constexpr std::size_t kMaxEverydayNameChars = 16;
static_assert(std::all_of(kEverydayAppNames.begin(), kEverydayAppNames.end(),
                          [](std::string_view name) {
                            return name.size() <= kMaxEverydayNameChars;
                          }));

bool IsEverydayWord(std::string_view word) {
  if (word.size() > kMaxEverydayNameChars) return false;
  char lower[kMaxEverydayNameChars];
  for (std::size_t k = 0; k < word.size(); ++k) lower[k] = text::AsciiLower(word[k]);
  return IsEverydayAppName(std::string_view(lower, word.size()));
}

// MessageWords::Contains(SplitWords(name)) with AddName's capitalisation
// rule, without building the words: `name` is a slice of an app's text.
bool ContainsName(const MessageWords& message, std::string_view name) {
  std::size_t count = 0;
  std::string_view first;
  ForEachWordUntil(name, [&](std::size_t begin, std::size_t end) {
    if (count++ == 0) first = name.substr(begin, end - begin);
    return true;
  });
  if (count == 0) return false;
  const bool capitalised_only = count == 1 && (first.size() == 1 || IsEverydayWord(first));
  const std::vector<Word>& words = message.words();
  for (std::size_t at = 0; at + count <= words.size(); ++at) {
    if (capitalised_only && !words[at].capitalised) continue;
    if (!EqualsLowered(words[at].text, first)) continue;
    if (count == 1) return true;
    std::size_t k = 0;
    const bool same = ForEachWordUntil(name, [&](std::size_t begin, std::size_t end) {
      return EqualsLowered(words[at + k++].text, name.substr(begin, end - begin));
    });
    if (same) return true;
  }
  return false;
}

bool IsAnd(std::string_view word) {
  return word.size() == 3 && text::AsciiLower(word[0]) == 'a' && text::AsciiLower(word[1]) == 'n' &&
         text::AsciiLower(word[2]) == 'd';
}

// AddNameAndParts's names of `text`, each tried against `message`.
bool NamesText(const MessageWords& message, std::string_view text) {
  if (ContainsName(message, text)) return true;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = start;
    while (end < text.size() && !IsPartSeparator(text[end])) ++end;
    const std::string_view part = text.substr(start, end - start);
    // Within a part, the word "and" separates further parts.
    std::size_t name_begin = 0;
    const bool none = ForEachWordUntil(part, [&](std::size_t begin, std::size_t word_end) {
      if (!IsAnd(part.substr(begin, word_end - begin))) return true;
      const bool named = ContainsName(message, part.substr(name_begin, begin - name_begin));
      name_begin = word_end;
      return !named;
    });
    if (!none || ContainsName(message, part.substr(name_begin))) return true;
    start = end + 1;
  }
  return false;
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
  // The names of AppNamesOf, matched in place (nothing allocated: this runs
  // for every routed message).
  for (const ConnectedAppView& app : apps) {
    for (std::string_view text : {app.catalog_name, app.id, app.vendor}) {
      if (NamesText(message, text)) return true;
    }
  }
  return false;
}

}  // namespace ensemble::core::playbooks
