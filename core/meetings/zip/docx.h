// The text of a Word document (.docx): word/document.xml read out of the
// zip, one line per paragraph, tabs and breaks kept, everything else dropped.
// Teams and Google Meet save transcripts this way.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_MEETINGS_ZIP_DOCX_H_
#define ENSEMBLE_CORE_MEETINGS_ZIP_DOCX_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "core/base/status.h"

namespace ensemble::core::meetings::zip {

// word/document.xml may inflate to at most this much: a bound against zip
// bombs far above any transcript (400,000 characters are a few MB of XML).
inline constexpr size_t kMaxDocumentXmlBytes = 48 * 1024 * 1024;

// The document's text; INVALID_ARGUMENT when `bytes` is not a readable .docx.
Result<std::string> DocxText(std::string_view bytes);

// The text of WordprocessingML (exposed for tests).
std::string DocumentXmlText(std::string_view xml);

}  // namespace ensemble::core::meetings::zip

#endif  // ENSEMBLE_CORE_MEETINGS_ZIP_DOCX_H_
