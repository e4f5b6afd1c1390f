#include "core/meetings/zip/docx.h"

#include <cstdint>

#include "core/meetings/zip/zip_reader.h"
#include "core/text/utf8.h"

namespace ensemble::core::meetings::zip {
namespace {

// A NUL in a document is no text; the rest as text::AppendUtf8.
void AppendCodePoint(uint32_t cp, std::string* out) {
  text::AppendUtf8(cp == 0 ? text::kReplacementCharacter : static_cast<char32_t>(cp), out);
}

// Character data with XML entities decoded.
void AppendXmlText(std::string_view s, std::string* out) {
  size_t i = 0;
  while (i < s.size()) {
    size_t amp = s.find('&', i);
    if (amp == std::string_view::npos) {
      out->append(s.substr(i));
      return;
    }
    out->append(s.substr(i, amp - i));
    size_t semi = s.find(';', amp);
    if (semi == std::string_view::npos || semi - amp > 10) {
      *out += '&';
      i = amp + 1;
      continue;
    }
    std::string_view name = s.substr(amp + 1, semi - amp - 1);
    if (name == "amp") {
      *out += '&';
    } else if (name == "lt") {
      *out += '<';
    } else if (name == "gt") {
      *out += '>';
    } else if (name == "quot") {
      *out += '"';
    } else if (name == "apos") {
      *out += '\'';
    } else if (!name.empty() && name[0] == '#') {
      uint32_t cp = 0;
      bool hex = name.size() > 1 && (name[1] == 'x' || name[1] == 'X');
      bool valid = name.size() > (hex ? 2u : 1u);
      for (size_t k = hex ? 2 : 1; k < name.size() && valid; ++k) {
        char c = name[k];
        uint32_t digit;
        if (c >= '0' && c <= '9') {
          digit = static_cast<uint32_t>(c - '0');
        } else if (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f') {
          digit = static_cast<uint32_t>((c | 0x20) - 'a' + 10);
        } else {
          valid = false;
          break;
        }
        cp = cp * (hex ? 16 : 10) + digit;
        if (cp > 0x10FFFF) valid = false;
      }
      if (valid) {
        AppendCodePoint(cp, out);
      } else {
        out->append(s.substr(amp, semi - amp + 1));
      }
    } else {
      out->append(s.substr(amp, semi - amp + 1));
    }
    i = semi + 1;
  }
}

}  // namespace

std::string DocumentXmlText(std::string_view xml) {
  std::string out;
  out.reserve(xml.size() / 4);
  size_t i = 0;
  while (i < xml.size()) {
    size_t lt = xml.find('<', i);
    if (lt == std::string_view::npos) break;
    size_t gt = xml.find('>', lt);
    if (gt == std::string_view::npos) break;
    std::string_view tag = xml.substr(lt + 1, gt - lt - 1);
    size_t name_end = tag.find_first_of(" \t\r\n/", 1);
    std::string_view name = tag.substr(0, name_end);
    const bool self_closing = !tag.empty() && tag.back() == '/';
    i = gt + 1;
    if (name == "w:t" && !self_closing) {
      size_t close = xml.find("</w:t>", i);
      if (close == std::string_view::npos) break;
      AppendXmlText(xml.substr(i, close - i), &out);
      i = close + 6;
    } else if (name == "w:tab") {
      out += '\t';
    } else if (name == "w:br" || name == "w:cr" || name == "/w:p") {
      out += '\n';
    }
  }
  return out;
}

Result<std::string> DocxText(std::string_view bytes) {
  auto xml = ReadZipMember(bytes, "word/document.xml", kMaxDocumentXmlBytes);
  if (!xml.ok()) {
    if (xml.status().code() == codes::kNotFound) {
      return Status(codes::kInvalidArgument,
                    "This zip file is not a Word document (it has no word/document.xml).");
    }
    return xml.status();
  }
  return DocumentXmlText(*xml);
}

}  // namespace ensemble::core::meetings::zip
