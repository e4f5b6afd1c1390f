#include "core/refs/format_entity_text.h"

#include <algorithm>
#include <array>

#include "core/base/id.h"
#include "core/refs/record_handle.h"
#include "core/refs/text_scan.h"

namespace ensemble::core::refs {
namespace {

using internal::EqualsIgnoreCase;
using internal::IsWord;
using internal::kBacktick;
using internal::kBang;
using internal::kClasses;
using internal::kMaxLinkScan;
using internal::kNewline;
using internal::kOpenBracket;
using internal::kOpenParen;
using internal::kWord;
using internal::StartsWith;

// An opening quote is looked for at most this far before its closing one.
constexpr size_t kMaxQuotedTitle = 400;

// A Markdown link or image label and target: [text](target).
struct Link {
  size_t end = 0;  // just past ")"; 0 if `s` does not start with a link
  std::string_view text;
  std::string_view target;
};

Link ParseLink(std::string_view s) {
  Link link;
  if (s.empty() || s[0] != '[') return link;
  size_t limit = std::min(s.size(), kMaxLinkScan);
  size_t j = 1;
  int depth = 1;
  for (; j < limit; ++j) {
    char c = s[j];
    if (c == '\\') {
      ++j;
    } else if (c == '\n') {
      return link;
    } else if (c == '[') {
      ++depth;
    } else if (c == ']' && --depth == 0) {
      break;
    }
  }
  if (j + 1 >= limit || s[j] != ']' || s[j + 1] != '(') return link;
  size_t k = j + 2;
  depth = 1;
  for (; k < limit; ++k) {
    char c = s[k];
    if (c == '\n') return link;
    if (c == '(') ++depth;
    if (c == ')' && --depth == 0) break;
  }
  if (k >= limit) return link;
  link.text = s.substr(1, j - 1);
  link.target = s.substr(j + 2, k - j - 2);
  link.end = k + 1;
  return link;
}

// Closing quote bytes ending at `s`'s end, and the opening quote that pairs
// with it, or {} when `s` does not end with a quote.
struct QuotePair {
  std::string_view open, close;
};
QuotePair ClosingQuote(std::string_view s) {
  static constexpr QuotePair kPairs[] = {
      {"\"", "\""}, {"\u201C", "\u201D"}, {"\u2018", "\u2019"}, {"\u00AB", "\u00BB"}};
  for (const QuotePair& p : kPairs) {
    if (s.size() >= p.close.size() && s.substr(s.size() - p.close.size()) == p.close) return p;
  }
  return {};
}

class Formatter {
 public:
  Formatter(std::string_view in, const RefSet& refs, const FormatOptions& options)
      : in_(in), refs_(refs), options_(options) {
    out_.reserve(in.size() + in.size() / 8);
  }

  std::string Run() {
    const size_t n = in_.size();
    size_t i = 0;
    bool line_start = true;
    while (i < n) {
      if (line_start) {
        line_start = false;
        size_t after = SkipBlockLine(i);
        if (after != i) {
          i = after;
          plain_from_ = i;
          line_start = true;
          continue;
        }
      }
      switch (kClasses[static_cast<unsigned char>(in_[i])]) {
        case kNewline:
          ++i;
          line_start = true;
          break;
        case kBacktick:
          i = SkipCodeSpan(i);
          plain_from_ = i;
          break;
        case kBang:
          if (i + 1 < n && in_[i + 1] == '[') {
            // An image: its alt text and address are left alone.
            Link image = ParseLink(in_.substr(i + 1));
            if (image.end != 0) {
              i += 1 + image.end;
              plain_from_ = i;
              break;
            }
          }
          ++i;
          break;
        case kOpenBracket:
          i = OnOpenBracket(i);
          break;
        case kOpenParen:
          i = OnBracketAfterTitle(i, ')');
          break;
        case kWord:
          i = OnWord(i);
          break;
        default:
          ++i;
      }
    }
    Flush(n);
    return std::move(out_);
  }

 private:
  void Flush(size_t upto) {
    out_.append(in_.data() + emit_, upto - emit_);
    emit_ = upto;
  }

  // Replaces in_[from, to) by `text` linked to `known` (rich) or `text`.
  void Replace(size_t from, size_t to, const KnownRef& known, std::string_view text) {
    Flush(from);
    EmitRecord(known.ref.kind, known.ref.id, text);
    emit_ = to;
  }

  void EmitRecord(std::string_view kind, std::string_view id, std::string_view text) {
    if (options_.plain) {
      out_.append(text);
      return;
    }
    out_.push_back('[');
    for (char c : text) {
      if (c == '[' || c == ']' || c == '\\') out_.push_back('\\');
      out_.push_back(c);
    }
    out_.append("](");
    out_.append(kRecordScheme);
    out_.append(kind);
    out_.push_back('/');
    out_.append(id);
    out_.push_back(')');
  }

  // Fenced blocks and block quotes are left alone: returns the position just
  // past them, or `i` when the line at `i` is neither.
  size_t SkipBlockLine(size_t i) const {
    const size_t n = in_.size();
    size_t p = i;
    while (p < n && p - i < 3 && in_[p] == ' ') ++p;
    if (p >= n) return i;
    if (in_[p] == '>') return LineEnd(p);
    char fence = in_[p];
    if (fence != '`' && fence != '~') return i;
    size_t q = p;
    while (q < n && in_[q] == fence) ++q;
    size_t width = q - p;
    if (width < 3) return i;
    size_t info_end = LineEnd(q);
    if (fence == '`' && in_.substr(q, info_end - q).find('`') != std::string_view::npos) {
      return i;  // "```x```" is inline code, not a fence.
    }
    // Find the closing fence: a line of at least `width` fence chars.
    size_t line = LineEnd(q);
    while (line < n) {
      size_t a = line;
      while (a < n && a - line < 3 && in_[a] == ' ') ++a;
      size_t b = a;
      while (b < n && in_[b] == fence) ++b;
      size_t next = LineEnd(line);
      if (b - a >= width) {
        size_t c = b;
        while (c < n && (in_[c] == ' ' || in_[c] == '\t')) ++c;
        if (c >= n || in_[c] == '\n' || in_[c] == '\r') return next;
      }
      line = next;
    }
    return n;  // Unclosed: the rest is code.
  }

  // Just past the '\n' ending the line that holds `i` (or the text's end).
  size_t LineEnd(size_t i) const {
    size_t nl = in_.find('\n', i);
    return nl == std::string_view::npos ? in_.size() : nl + 1;
  }

  // An inline code span of n backticks ends at the next run of exactly n.
  size_t SkipCodeSpan(size_t i) const {
    const size_t n = in_.size();
    size_t run = i;
    while (run < n && in_[run] == '`') ++run;
    size_t width = run - i;
    size_t p = run;
    while (p < n) {
      size_t tick = in_.find('`', p);
      if (tick == std::string_view::npos) break;
      size_t e = tick;
      while (e < n && in_[e] == '`') ++e;
      if (e - tick == width) return e;
      p = e;
    }
    return run;  // No closing run: the backticks are literal.
  }

  size_t OnOpenBracket(size_t i) {
    Link link = ParseLink(in_.substr(i));
    if (link.end == 0) return OnBracketAfterTitle(i, ']');
    size_t end = i + link.end;
    plain_from_ = end;
    std::string_view kind, id;
    size_t record = ParseRecordLink(link.target, &kind, &id);
    if (record != 0 && record == link.target.size()) {
      last_record_end_ = end;
      last_record_id_ = id;
      if (link.text.size() > 1 && link.text[0] == '@') {
        // A mention shows its label and opens the record.
        Flush(i);
        EmitRecord(kind, id, link.text.substr(1));
        emit_ = end;
        return end;
      }
      const KnownRef* known = link.text == id ? refs_.Find(id) : nullptr;
      if (known != nullptr && !options_.keep_ids) {
        Replace(i, end, *known, known->title);
      } else if (options_.plain) {
        Flush(i);
        out_.append(link.text);
        emit_ = end;
      }
      return end;
    }
    if (options_.plain && !link.target.empty() && link.target[0] == '/') {
      // An app path cannot open in a terminal: its text only.
      Flush(i);
      out_.append(link.text);
      emit_ = end;
    }
    return end;
  }

  // At an opening bracket: "Title (id)", "Title (ensemble://kind/id)" or
  // "Title ([..](ensemble://kind/id))" links the title once and drops the
  // bracket; after a quoted title an unknown id is dropped (older receipts).
  // Returns where scanning goes on.
  size_t OnBracketAfterTitle(size_t i, char close) {
    if (options_.keep_ids) return i + 1;
    std::string_view rest = in_.substr(i + 1);
    std::string_view kind, id;
    size_t len = 0;
    if (rest.size() >= kIdLength && IsValidId(rest.substr(0, kIdLength))) {
      id = rest.substr(0, kIdLength);
      len = kIdLength;
    } else if ((len = ParseRecordLink(rest, &kind, &id)) == 0) {
      Link link = ParseLink(rest);  // "[..](ensemble://kind/id)"
      if (link.end == 0 || ParseRecordLink(link.target, &kind, &id) != link.target.size()) {
        return i + 1;
      }
      len = link.end;
    }
    if (len >= rest.size() || rest[len] != close) return i + 1;
    size_t end = i + 1 + len + 1;
    const KnownRef* known = refs_.Find(id);

    size_t floor = std::max(plain_from_, emit_);
    size_t p = i;
    if (p > floor && in_[p - 1] == ' ') --p;
    std::string_view before = in_.substr(floor, p - floor);
    if (known != nullptr && before.empty() && p == last_record_end_ && id == last_record_id_) {
      // "[Title](ensemble://task/id) (id)": the record is linked already.
      Flush(p);
      emit_ = end;
      return end;
    }
    QuotePair quote = ClosingQuote(before);
    if (!quote.close.empty()) {
      std::string_view inner = before.substr(0, before.size() - quote.close.size());
      size_t window = std::min(inner.size(), kMaxQuotedTitle);
      size_t open = inner.substr(inner.size() - window).rfind(quote.open);
      if (open != std::string_view::npos) {
        open += inner.size() - window;
        std::string_view title = inner.substr(open + quote.open.size());
        // A closing quote inside means the opening one belongs to an earlier,
        // already closed quotation: this is no quoted title.
        if (!title.empty() && title.find('\n') == std::string_view::npos &&
            title.find(quote.close) == std::string_view::npos) {
          size_t title_at = floor + open + quote.open.size();
          if (known != nullptr) {
            Replace(title_at, title_at + title.size(), *known, title);
            out_.append(quote.close);
          } else {
            Flush(p);
          }
          emit_ = end;
          return end;
        }
      }
    }
    if (known == nullptr) return i + 1;
    // A bold or italic title ("**Draft brief** (id)") keeps its markers.
    size_t marks = 0;
    while (marks < 3 && marks < before.size() &&
           (before[before.size() - 1 - marks] == '*' || before[before.size() - 1 - marks] == '_')) {
      ++marks;
    }
    std::string_view marker = before.substr(before.size() - marks);
    size_t title_end = p - marks;
    for (const std::string* candidate : {&known->ref.label, &known->first_clause}) {
      std::string_view name = *candidate;
      if (name.empty() || before.size() < name.size() + 2 * marks) continue;
      size_t at = title_end - name.size();
      if (!EqualsIgnoreCase(in_.substr(at, name.size()), name)) continue;
      if (in_.substr(at - marks, marks) != marker) continue;
      if (at - marks > 0 && IsWord(in_[at - marks - 1])) continue;
      Replace(at, title_end, *known, in_.substr(at, name.size()));
      out_.append(marker);
      emit_ = end;
      return end;
    }
    return i + 1;
  }

  // A word: a URL (left alone), a bare record link or a bare id.
  size_t OnWord(size_t i) {
    const size_t n = in_.size();
    size_t j = i + 1;
    while (j < n && IsWord(in_[j])) ++j;
    char prev = i > 0 ? in_[i - 1] : ' ';
    if (i > 0 && (IsWord(prev) || prev == '/')) return j;
    size_t len = j - i;
    if (len == kIdLength) {
      std::string_view id = in_.substr(i, kIdLength);
      if (!options_.keep_ids && IsValidId(id)) {
        if (const KnownRef* known = refs_.Find(id)) Replace(i, j, *known, known->title);
      }
      return j;
    }
    if (j < n && (in_[j] == ':' || in_[j] == '.')) {
      std::string_view rest = in_.substr(i);
      if (StartsWith(rest, "http://") || StartsWith(rest, "https://") ||
          StartsWith(rest, "www.") || StartsWith(rest, "mailto:")) {
        size_t e = i;
        while (e < n && in_[e] != ' ' && in_[e] != '\n' && in_[e] != '\t' && in_[e] != '<' &&
               in_[e] != '>' && in_[e] != '"' && in_[e] != '`') {
          ++e;
        }
        plain_from_ = e;
        return e;
      }
      std::string_view kind, id;
      size_t link = ParseRecordLink(rest, &kind, &id);
      if (link != 0) {
        const KnownRef* known = refs_.Find(id);
        if (known != nullptr && !options_.keep_ids) Replace(i, i + link, *known, known->title);
        plain_from_ = i + link;
        return i + link;
      }
    }
    return j;
  }

  std::string_view in_;
  const RefSet& refs_;
  FormatOptions options_;
  std::string out_;
  size_t emit_ = 0;        // in_[0, emit_) has been written to out_
  size_t plain_from_ = 0;  // start of the current run of ordinary text
  // The Markdown record link that ended last, to drop its id repeated after it.
  size_t last_record_end_ = std::string_view::npos;
  std::string_view last_record_id_;
};

}  // namespace

std::string FormatEntityText(std::string_view text, const RefSet& refs,
                             const FormatOptions& options) {
  return Formatter(text, refs, options).Run();
}

bool QuestionAsksForIds(std::string_view question) {
  static constexpr std::string_view kWords[] = {"id",         "ids",        "uuid",
                                                "uuids",      "identifier", "identifiers"};
  size_t i = 0;
  while (i < question.size()) {
    if (!IsWord(question[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < question.size() && IsWord(question[j])) ++j;
    std::string_view word = question.substr(i, j - i);
    for (std::string_view w : kWords) {
      if (EqualsIgnoreCase(word, w)) return true;
    }
    i = j;
  }
  return false;
}

}  // namespace ensemble::core::refs
