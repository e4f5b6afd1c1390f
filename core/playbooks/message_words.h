// The words of a message as playbook routing sees them.
//
// A word is a run of ASCII letters and digits or of non-ASCII bytes (so UTF-8
// letters stay inside words); everything else (spaces, punctuation, '-', '\'')
// separates words. Words are lowercased (ASCII only), and each remembers
// whether it was written with a capital first letter, for the app names that
// count only capitalised. Matching is by whole words: "task" is found in
// "Add a task." but not in "multitasking"; the phrase "to do" is found in
// "add a to-do".
//
// Thread-safety: a MessageWords is immutable after construction. It holds
// views into its own buffer, so it can be neither copied nor moved.

#ifndef ENSEMBLE_CORE_PLAYBOOKS_MESSAGE_WORDS_H_
#define ENSEMBLE_CORE_PLAYBOOKS_MESSAGE_WORDS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ensemble::core::playbooks {

struct Word {
  std::string_view text;     // Lowercased.
  std::size_t offset = 0;    // Of its first byte in the message.
  bool capitalised = false;  // The first letter was written A-Z.
};

class MessageWords {
 public:
  explicit MessageWords(std::string_view text);
  MessageWords(const MessageWords&) = delete;
  MessageWords& operator=(const MessageWords&) = delete;

  const std::vector<Word>& words() const { return words_; }
  std::size_t size() const { return words_.size(); }

  // True when the words of `phrase` (lowercase, from SplitWords) occur
  // consecutively starting at word `at`; with `capitalised_only`, the first
  // of them must also be capitalised in the message.
  bool MatchesAt(std::size_t at, const std::vector<std::string>& phrase,
                 bool capitalised_only = false) const;

  // True when `phrase` occurs anywhere (see MatchesAt).
  bool Contains(const std::vector<std::string>& phrase, bool capitalised_only = false) const;

 private:
  std::string lower_;
  std::vector<Word> words_;
};

// The lowercase words of `text`, split exactly as a message is.
std::vector<std::string> SplitWords(std::string_view text);

}  // namespace ensemble::core::playbooks

#endif  // ENSEMBLE_CORE_PLAYBOOKS_MESSAGE_WORDS_H_
