// The one redaction pass on outside text as it comes in (spec 004 §2.1
// upsertArtifact, §4.1): what an import, a transcript, a calendar's
// description or later a connector item or file brings along is kept
// without the secrets people paste into such places by mistake: private key
// blocks; GitHub, Slack, OpenAI-style, Google, AWS and Linear tokens; and the
// values of settings named like a password, secret, token, API or access key
// (password=, secret:, 'token' =>, --password x). RedactForIngest then caps
// the text at kMaxIngestTextChars. The vectors in tests/vectors/context/redaction.json
// (positive and negative cases) hold the native and wasm builds to it.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_TEXT_REDACT_H_
#define ENSEMBLE_CORE_TEXT_REDACT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace ensemble::core::text {

// Characters of outside text kept per field (spec 004 §2.1: "caps text at
// 20,000 characters").
inline constexpr std::size_t kMaxIngestTextChars = 20'000;

// What a secret is replaced with.
inline constexpr std::string_view kRedacted = "[redacted]";
inline constexpr std::string_view kRedactedPrivateKey = "[redacted private key]";

// `text` with every secret it holds replaced; everything else byte for byte.
std::string RedactSecrets(std::string_view text);
// The same in place; a text without secrets is not copied.
void RedactSecretsIn(std::string* text);
// Whether `text` holds a secret; if so `redacted` is set to RedactSecrets'
// answer (else it is left empty).
bool RedactInto(std::string_view text, std::string* redacted);

// RedactSecrets, then at most `max_chars` code points (TruncateChars).
std::string RedactForIngest(std::string_view text, std::size_t max_chars = kMaxIngestTextChars);

}  // namespace ensemble::core::text

#endif  // ENSEMBLE_CORE_TEXT_REDACT_H_
