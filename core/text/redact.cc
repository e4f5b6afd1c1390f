#include "core/text/redact.h"

#include <algorithm>

#include "core/text/ascii.h"
#include "core/text/trim.h"

namespace ensemble::core::text {
namespace {

bool IsAlnum(char c) { return IsAsciiDigit(c) || (AsciiLower(c) >= 'a' && AsciiLower(c) <= 'z'); }
bool IsWordChar(char c) { return IsAlnum(c) || c == '_'; }
bool IsDashChar(char c) { return IsWordChar(c) || c == '-'; }
bool IsDotChar(char c) { return IsDashChar(c) || c == '.'; }
bool IsSlackChar(char c) { return IsAlnum(c) || c == '-'; }
bool IsUpperDigit(char c) { return IsAsciiDigit(c) || (c >= 'A' && c <= 'Z'); }

// A token known by its prefix, then at least `min_body` characters of its
// alphabet (shorter runs are ordinary words: "sk-1" is no key).
struct TokenShape {
  std::string_view prefix;
  bool (*body)(char);
  std::size_t min_body;
};

constexpr TokenShape kTokens[] = {
    {"github_pat_", IsWordChar, 30},  // GitHub fine-grained tokens.
    {"ghp_", IsAlnum, 30},            // GitHub classic, OAuth, user, server, refresh.
    {"gho_", IsAlnum, 30},
    {"ghu_", IsAlnum, 30},
    {"ghs_", IsAlnum, 30},
    {"ghr_", IsAlnum, 30},
    {"xoxb-", IsSlackChar, 10},  // Slack bot, user, app, refresh,
                                 // legacy.
    {"xoxp-", IsSlackChar, 10},
    {"xoxa-", IsSlackChar, 10},
    {"xoxr-", IsSlackChar, 10},
    {"xoxs-", IsSlackChar, 10},
    {"xoxe-", IsSlackChar, 10},
    {"xapp-", IsSlackChar, 10},
    {"sk-", IsDashChar, 20},     // OpenAI-style: sk-..., sk-proj-..., sk-ant-...
    {"AIza", IsDashChar, 30},    // Google API keys.
    {"ya29.", IsDotChar, 20},    // Google OAuth access tokens.
    {"AKIA", IsUpperDigit, 16},  // AWS access key ids, long-lived and temporary.
    {"ASIA", IsUpperDigit, 16},
    {"lin_api_", IsAlnum, 20},  // Linear API keys and OAuth
                                // tokens.
    {"lin_oauth_", IsAlnum, 20},
};

// Setting names whose value is a secret: a name ending in one of these
// (db_password, client_secret, GITHUB_TOKEN), in any case.
constexpr std::string_view kSecretKeys[] = {"password", "passwd",  "secret", "token",
                                            "apikey",   "api_key", "api-key"};

constexpr std::string_view kKeyBegin = "-----BEGIN ";
constexpr std::string_view kKeyEnd = "-----END ";
constexpr std::string_view kDashes = "-----";
constexpr std::string_view kPrivateKey = "PRIVATE KEY";

// The end of the private key block starting at `at` (a "-----BEGIN ... PRIVATE
// KEY-----" line), the text's end when it is never closed; npos when `at`
// starts no such block.
std::size_t PrivateKeyEnd(std::string_view text, std::size_t at) {
  if (!text.substr(at).starts_with(kKeyBegin)) return std::string_view::npos;
  const std::size_t header_end = text.find(kDashes, at + kKeyBegin.size());
  if (header_end == std::string_view::npos) return std::string_view::npos;
  const std::string_view header = text.substr(at, header_end - at);
  if (header.find('\n') != std::string_view::npos ||
      header.find(kPrivateKey) == std::string_view::npos)
    return std::string_view::npos;
  for (std::size_t end = text.find(kKeyEnd, header_end); end != std::string_view::npos;
       end = text.find(kKeyEnd, end + 1)) {
    const std::size_t closing = text.find(kDashes, end + kKeyEnd.size());
    if (closing == std::string_view::npos) break;
    if (text.substr(end, closing - end).find(kPrivateKey) != std::string_view::npos)
      return closing + kDashes.size();
  }
  return text.size();
}

// The end of the token starting at `at`, or npos when none starts there.
std::size_t TokenEnd(std::string_view text, std::size_t at) {
  // Most words start with no prefix's letter: one look and done.
  if (std::string_view("gxsAyl").find(text[at]) == std::string_view::npos)
    return std::string_view::npos;
  for (const TokenShape& t : kTokens) {
    if (t.prefix[0] != text[at] || !text.substr(at).starts_with(t.prefix)) continue;
    std::size_t end = at + t.prefix.size();
    while (end < text.size() && t.body(text[end])) ++end;
    if (end - at - t.prefix.size() >= t.min_body) return end;
  }
  return std::string_view::npos;
}

// Whether `name` ends with a key of kSecretKeys, in any case. Runs on every
// word of the text, so it allocates nothing.
bool IsSecretKey(std::string_view name) {
  return std::any_of(std::begin(kSecretKeys), std::end(kSecretKeys), [&](std::string_view k) {
    return name.size() >= k.size() &&
           EqualsIgnoringAsciiCase(name.substr(name.size() - k.size()), k);
  });
}

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// For a setting name ending at `name_end`: [begin, end) of its value when
// `=` or `:` follows (a closing quote and blanks allowed between); empty
// when no value follows.
std::pair<std::size_t, std::size_t> SettingValue(std::string_view text, std::size_t name_end) {
  std::size_t i = name_end;
  if (i < text.size() && (text[i] == '"' || text[i] == '\'')) ++i;
  while (i < text.size() && IsBlank(text[i])) ++i;
  if (i >= text.size() || (text[i] != '=' && text[i] != ':')) return {0, 0};
  ++i;
  while (i < text.size() && IsBlank(text[i])) ++i;
  char quote = 0;
  if (i < text.size() && (text[i] == '"' || text[i] == '\'')) quote = text[i++];
  if (text.substr(i).starts_with(kRedacted)) return {0, 0};  // Redacted before.
  std::size_t end = i;
  while (end < text.size() && text[end] != '\n' && text[end] != '\r') {
    const char c = text[end];
    if (quote ? c == quote
              : (IsBlank(c) || std::string_view(",;&\"'<>)]}").find(c) != std::string_view::npos))
      break;
    ++end;
  }
  return {i, end};
}

}  // namespace

bool RedactInto(std::string_view text, std::string* redacted) {
  std::string& out = *redacted;
  out.clear();
  std::size_t copied = 0;  // text[copied, i) is still to be copied.
  auto replace = [&](std::size_t from, std::size_t to, std::string_view with) {
    out.append(text.substr(copied, from - copied));
    out.append(with);
    copied = to;
  };
  std::size_t i = 0;
  std::size_t name_end = 0;  // Where the last setting name read ends.
  while (i < text.size()) {
    if (i > 0 && IsWordChar(text[i - 1])) {
      ++i;
      continue;
    }
    if (std::size_t end = PrivateKeyEnd(text, i); end != std::string_view::npos) {
      replace(i, end, kRedactedPrivateKey);
      i = end;
      continue;
    }
    if (std::size_t end = TokenEnd(text, i); end != std::string_view::npos) {
      replace(i, end, kRedacted);
      i = end;
      continue;
    }
    // A setting's name: when a name was no secret's, no later part of it is
    // (the test is on its end), so each name is read once.
    bool secret_name = false;
    if (i >= name_end && IsWordChar(text[i])) {
      name_end = i;
      while (name_end < text.size() && IsDashChar(text[name_end])) ++name_end;
      secret_name = IsSecretKey(text.substr(i, name_end - i));
    }
    if (secret_name) {
      auto [begin, end] = SettingValue(text, name_end);
      if (end > begin) {
        replace(begin, end, kRedacted);
        i = end;
        continue;
      }
    }
    // One step, not past the name: "x-sk-..." holds a token after its dash.
    ++i;
  }
  if (copied == 0) return false;
  out.append(text.substr(copied));
  return true;
}

std::string RedactSecrets(std::string_view text) {
  std::string out;
  return RedactInto(text, &out) ? out : std::string(text);
}

void RedactSecretsIn(std::string* text) {
  std::string out;
  if (RedactInto(*text, &out)) *text = std::move(out);
}

std::string RedactForIngest(std::string_view text, std::size_t max_chars) {
  return TruncateChars(RedactSecrets(text), max_chars);
}

}  // namespace ensemble::core::text
