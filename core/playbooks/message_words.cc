#include "core/playbooks/message_words.h"

#include "core/text/ascii.h"

namespace ensemble::core::playbooks {
namespace {

// Calls fn(begin, end) for each word of `text`.
template <typename Fn>
void ForEachWord(std::string_view text, Fn&& fn) {
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !text::IsWordByte(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t begin = i;
    while (i < text.size() && text::IsWordByte(static_cast<unsigned char>(text[i]))) ++i;
    if (i > begin) fn(begin, i);
  }
}

}  // namespace

MessageWords::MessageWords(std::string_view text) : lower_(text) {
  for (char& c : lower_) c = text::AsciiLower(c);
  const std::string_view lower(lower_);
  ForEachWord(text, [&](std::size_t begin, std::size_t end) {
    words_.push_back(
        Word{lower.substr(begin, end - begin), begin, text[begin] >= 'A' && text[begin] <= 'Z'});
  });
}

bool MessageWords::MatchesAt(std::size_t at, const std::vector<std::string>& phrase,
                             bool capitalised_only) const {
  if (phrase.empty() || at + phrase.size() > words_.size()) return false;
  if (capitalised_only && !words_[at].capitalised) return false;
  for (std::size_t k = 0; k < phrase.size(); ++k) {
    if (words_[at + k].text != phrase[k]) return false;
  }
  return true;
}

bool MessageWords::Contains(const std::vector<std::string>& phrase, bool capitalised_only) const {
  for (std::size_t i = 0; i < words_.size(); ++i) {
    if (MatchesAt(i, phrase, capitalised_only)) return true;
  }
  return false;
}

std::vector<std::string> SplitWords(std::string_view text) {
  std::vector<std::string> out;
  ForEachWord(text, [&](std::size_t begin, std::size_t end) {
    std::string word(text.substr(begin, end - begin));
    for (char& c : word) c = text::AsciiLower(c);
    out.push_back(std::move(word));
  });
  return out;
}

}  // namespace ensemble::core::playbooks
