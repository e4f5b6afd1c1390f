// Reads one member out of a zip archive held in memory (enough for .docx):
// the central directory is trusted only after bounds checks, members are
// stored or deflated (zlib inflate), the declared size is capped before any
// byte is inflated, and the CRC is checked. Hostile archives (truncated,
// overlapping, zip64, encrypted, bombs) get a readable INVALID_ARGUMENT.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_MEETINGS_ZIP_ZIP_READER_H_
#define ENSEMBLE_CORE_MEETINGS_ZIP_ZIP_READER_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "core/base/status.h"

namespace ensemble::core::meetings::zip {

// A central directory with more entries than this is refused.
inline constexpr size_t kMaxZipEntries = 10'000;

// True when `bytes` start with a zip local file header ("PK\3\4").
bool LooksLikeZip(std::string_view bytes);

// The uncompressed bytes of member `name`; NOT_FOUND when absent,
// INVALID_ARGUMENT when the archive is damaged or the member would be larger
// than `max_bytes`.
Result<std::string> ReadZipMember(std::string_view zip, std::string_view name, size_t max_bytes);

}  // namespace ensemble::core::meetings::zip

#endif  // ENSEMBLE_CORE_MEETINGS_ZIP_ZIP_READER_H_
