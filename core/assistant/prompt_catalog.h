// Every prompt the assistant sends, built by its real builder from sample
// values, for Settings → Assistant → Prompts (spec §3 promptCatalog) and for
// the test that keeps each one within its size budget.
//
// The samples reach every cap (15 playbooks, more than 30 connected apps, 20
// skills, every turn-context field past its limit), so a prompt that grows
// past its budget fails a test rather than a provider's context window. The
// instructions' sample uses readable names; a test also builds them with every
// typed value at its maximum. The turn context's budget assumes quoted text
// of ordinary lines: quoting adds two characters per line.
//
// Thread-safety: pure function; safe to call concurrently.

#ifndef ENSEMBLE_CORE_ASSISTANT_PROMPT_CATALOG_H_
#define ENSEMBLE_CORE_ASSISTANT_PROMPT_CATALOG_H_

#include <cstddef>
#include <string>
#include <vector>

namespace ensemble::core::assistant {

// Size budgets, in characters (code points).
inline constexpr std::size_t kInstructionsBudgetChars = 12000;
inline constexpr std::size_t kTurnContextBudgetChars = 16000;
inline constexpr std::size_t kWriteModeNoteBudgetChars = 600;

struct PromptSample {
  std::string id;       // stable, e.g. "instructions.preview"
  std::string title;    // shown in Settings → Prompts
  std::string purpose;  // one line: where the prompt goes
  std::string text;     // built by the real builder
  std::size_t budget_chars = 0;
};

// The catalog, in a fixed order: instructions under each write policy, a
// guest's instructions, a full turn context, then the write-mode notes.
std::vector<PromptSample> PromptCatalog();

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_PROMPT_CATALOG_H_
