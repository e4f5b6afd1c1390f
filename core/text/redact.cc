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
bool IsBlank(char c) { return c == ' ' || c == '\t'; }
bool IsSpace(char c) { return IsBlank(c) || c == '\n' || c == '\r'; }

// A token known by its prefix, then `min_body` to `max_body` (0: any number)
// characters of its alphabet, holding a run of at least `min_run` letters
// and digits: shorter ones are ordinary words ("sk-1", "sk-learn-docs").
struct TokenShape {
  std::string_view prefix;
  bool (*body)(char);
  std::size_t min_body;
  std::size_t max_body = 0;
  std::size_t min_run = 0;
};

constexpr TokenShape kTokens[] = {
    {"github_pat_", IsWordChar, 30},  // GitHub fine-grained tokens.
    {"ghp_", IsAlnum, 30},            // GitHub classic, OAuth, user, server, refresh.
    {"gho_", IsAlnum, 30},
    {"ghu_", IsAlnum, 30},
    {"ghs_", IsAlnum, 30},
    {"ghr_", IsAlnum, 30},
    {"xoxb-", IsSlackChar, 10},  // Slack bot, user, app, refresh, legacy.
    {"xoxp-", IsSlackChar, 10},
    {"xoxa-", IsSlackChar, 10},
    {"xoxr-", IsSlackChar, 10},
    {"xoxs-", IsSlackChar, 10},
    {"xoxe-", IsSlackChar, 10},
    {"xapp-", IsSlackChar, 10},
    // OpenAI-style: sk-..., sk-proj-..., sk-ant-...: a long random run, which
    // a slug ("sk-hynix-earnings-report-2024") does not have.
    {"sk-", IsDashChar, 20, 0, 20},
    {"AIza", IsDashChar, 30},        // Google API keys.
    {"ya29.", IsDotChar, 20},        // Google OAuth access tokens.
    {"AKIA", IsUpperDigit, 16, 16},  // AWS access key ids: exactly 20 characters.
    {"ASIA", IsUpperDigit, 16, 16},  // ... temporary ones.
    {"lin_api_", IsAlnum, 20},       // Linear API keys and OAuth tokens.
    {"lin_oauth_", IsAlnum, 20},
};

// Setting names whose value is a secret, matched at the end of a name in any
// case (db_password, client_secret, GITHUB_TOKEN, aws_secret_access_key). A
// short one must be the whole name or follow a separator, so "bypass=true"
// and "compass: north" stay.
struct SecretKey {
  std::string_view suffix;
  bool whole_word;
};
constexpr SecretKey kSecretKeys[] = {
    {"password", false},    {"passwd", false},      {"passphrase", false}, {"secret", false},
    {"secret_key", false},  {"secretkey", false},   {"access_key", false}, {"accesskey", false},
    {"private_key", false}, {"token", false},       {"apikey", false},     {"api_key", false},
    {"api-key", false},     {"credentials", false}, {"pwd", true},         {"pass", true}};

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
    std::size_t run = 0;
    std::size_t longest = 0;
    // A token does not run into a PEM line's dashes ("xoxr------BEGIN ...").
    while (end < text.size() && t.body(text[end]) && !text.substr(end).starts_with(kDashes)) {
      run = IsAlnum(text[end]) ? run + 1 : 0;
      longest = std::max(longest, run);
      ++end;
    }
    const std::size_t body = end - at - t.prefix.size();
    if (body >= t.min_body && (t.max_body == 0 || body <= t.max_body) && longest >= t.min_run)
      return end;
  }
  return std::string_view::npos;
}

// Whether `name` ends with a secret's setting name. Runs on every word of
// the text, so it allocates nothing.
bool IsSecretKey(std::string_view name) {
  return std::any_of(std::begin(kSecretKeys), std::end(kSecretKeys), [&](const SecretKey& k) {
    if (name.size() < k.suffix.size()) return false;
    const std::size_t at = name.size() - k.suffix.size();
    if (!EqualsIgnoringAsciiCase(name.substr(at), k.suffix)) return false;
    return !k.whole_word || at == 0 || name[at - 1] == '_' || name[at - 1] == '-';
  });
}

// Whether text[at...] is "name=" (the next setting of a query string).
bool StartsSetting(std::string_view text, std::size_t at) {
  std::size_t i = at;
  while (i < text.size() && IsDashChar(text[i])) ++i;
  return i > at && i < text.size() && text[i] == '=';
}

// Where an unquoted value starting at `begin` ends: at white space, a quote
// or an angle bracket; at `,;)]}` only before white space or the end (a
// password may hold them), and at `&` only before the next "name=".
std::size_t UnquotedEnd(std::string_view text, std::size_t begin) {
  std::size_t end = begin;
  for (; end < text.size(); ++end) {
    const char c = text[end];
    if (IsSpace(c) || c == '"' || c == '\'' || c == '<' || c == '>') break;
    const bool last = end + 1 == text.size() || IsSpace(text[end + 1]);
    if (std::string_view(",;)]}").find(c) != std::string_view::npos && last) break;
    if (c == '&' && StartsSetting(text, end + 1)) break;
  }
  return end;
}

// Where a value quoted by `quote` starting at `begin` ends: its closing quote
// (a backslash escapes one) or the line's end.
std::size_t QuotedEnd(std::string_view text, std::size_t begin, char quote) {
  std::size_t end = begin;
  for (; end < text.size() && text[end] != '\n' && text[end] != '\r'; ++end) {
    if (text[end] == '\\' && end + 1 < text.size()) {
      ++end;
    } else if (text[end] == quote) {
      break;
    }
  }
  return end;
}

// For a setting name ending at `name_end`: [begin, end) of its value when an
// assignment follows (=, :, =>, := or a flag's blank; a closing quote and
// blanks allowed between); empty when no value follows.
std::pair<std::size_t, std::size_t> SettingValue(std::string_view text, std::size_t name_end,
                                                 bool flag) {
  std::size_t i = name_end;
  if (i < text.size() && (text[i] == '"' || text[i] == '\'')) ++i;
  const std::size_t before_blanks = i;
  while (i < text.size() && IsBlank(text[i])) ++i;
  if (i < text.size() && (text[i] == '=' || text[i] == ':')) {
    ++i;
    if (i < text.size() && (text[i] == '>' || text[i] == '=')) ++i;  // => and :=
  } else if (!flag || i == before_blanks) {
    return {0, 0};  // Only a --flag takes its value after a blank.
  }
  while (i < text.size() && IsBlank(text[i])) ++i;
  if (text.substr(i).starts_with(kRedacted)) return {0, 0};  // Redacted before.
  if (i < text.size() && (text[i] == '"' || text[i] == '\'')) {
    const std::size_t begin = i + 1;
    return {begin, QuotedEnd(text, begin, text[i])};
  }
  return {i, UnquotedEnd(text, i)};
}

// Whether a word may start at `i`: not inside a word, except right after an
// escape ("\nghp_..." in pasted JSON is a new word).
bool AtWordStart(std::string_view text, std::size_t i) {
  if (i == 0 || !IsWordChar(text[i - 1])) return true;
  return i >= 2 && text[i - 2] == '\\';
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
  // A secret setting's value, redacted when the scan reaches it: the rest of
  // its name is scanned first ("xapp-...token: x" holds a token too).
  std::size_t value_begin = std::string_view::npos;
  std::size_t value_end = 0;
  while (i < text.size()) {
    if (i == value_begin) {
      replace(value_begin, value_end, kRedacted);
      i = value_end;
      value_begin = std::string_view::npos;
      continue;
    }
    // Right after a redaction a word starts, as it would after the marker on
    // a second pass: "xoxr-...-ai_password=x" is a token, then a setting.
    if (i != copied && !AtWordStart(text, i)) {
      ++i;
      continue;
    }
    std::size_t end = PrivateKeyEnd(text, i);
    if (end != std::string_view::npos) {
      replace(i, end, kRedactedPrivateKey);
    } else if (end = TokenEnd(text, i); end != std::string_view::npos) {
      replace(i, end, kRedacted);
    }
    if (end != std::string_view::npos) {
      i = end;
      // A token running into a pending value covers that much of it.
      if (value_begin != std::string_view::npos && i > value_begin)
        value_begin = i < value_end ? i : std::string_view::npos;
      continue;
    }
    // A setting's name: when a name was no secret's, no later part of it is
    // (the test is on its end), so each name is read once.
    if (i >= name_end && IsWordChar(text[i])) {
      name_end = i;
      while (name_end < text.size() && IsDashChar(text[name_end])) ++name_end;
      if (IsSecretKey(text.substr(i, name_end - i))) {
        const bool flag = i >= 2 && text[i - 1] == '-' && text[i - 2] == '-';
        auto [begin, value_stop] = SettingValue(text, name_end, flag);
        if (value_stop > begin) {
          value_begin = begin;
          value_end = value_stop;
        }
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
