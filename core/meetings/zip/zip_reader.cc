#include "core/meetings/zip/zip_reader.h"

#include <zlib.h>

#include <cstdint>

namespace ensemble::core::meetings::zip {
namespace {

constexpr uint32_t kEndOfCentralDirectory = 0x06054b50;
constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr size_t kEndRecordSize = 22;
constexpr size_t kMaxCommentSize = 0xFFFF;
constexpr size_t kCentralHeaderSize = 46;
constexpr size_t kLocalHeaderSize = 30;

uint16_t U16(std::string_view b, size_t at) {
  return static_cast<uint16_t>(static_cast<unsigned char>(b[at]) |
                               (static_cast<unsigned char>(b[at + 1]) << 8));
}

uint32_t U32(std::string_view b, size_t at) {
  return static_cast<uint32_t>(U16(b, at)) | (static_cast<uint32_t>(U16(b, at + 2)) << 16);
}

Status Damaged(std::string_view why) {
  return Status(codes::kInvalidArgument, "The zip file is damaged: " + std::string(why) + ".");
}

Result<std::string> Inflate(std::string_view data, size_t expected) {
  std::string out(expected, '\0');
  z_stream stream{};
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK) {
    return Status(codes::kInternal, "could not start inflating");
  }
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  // One spare byte: a stream that writes past the declared size is caught
  // instead of silently stopping at it.
  out.resize(expected + 1);
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  int rc = inflate(&stream, Z_FINISH);
  size_t produced = stream.total_out;
  inflateEnd(&stream);
  if (rc != Z_STREAM_END) return Damaged("its compressed data is corrupt or truncated");
  if (produced != expected) return Damaged("a member's size does not match its directory entry");
  out.resize(expected);
  return out;
}

}  // namespace

bool LooksLikeZip(std::string_view bytes) {
  return bytes.size() >= 4 && U32(bytes, 0) == kLocalHeader;
}

Result<std::string> ReadZipMember(std::string_view zip, std::string_view name, size_t max_bytes) {
  if (zip.size() < kEndRecordSize) return Damaged("it is too short");
  // The end record is the last thing in the file, before a comment of up to 64 KB.
  size_t end_at = std::string_view::npos;
  size_t lowest = zip.size() > kEndRecordSize + kMaxCommentSize ? zip.size() - kEndRecordSize - kMaxCommentSize : 0;
  for (size_t at = zip.size() - kEndRecordSize + 1; at-- > lowest;) {
    if (U32(zip, at) == kEndOfCentralDirectory) {
      end_at = at;
      break;
    }
  }
  if (end_at == std::string_view::npos) return Damaged("its central directory is missing");
  const uint16_t entries = U16(zip, end_at + 10);
  const uint32_t dir_size = U32(zip, end_at + 12);
  const uint32_t dir_offset = U32(zip, end_at + 16);
  if (entries == 0xFFFF || dir_offset == 0xFFFFFFFF || dir_size == 0xFFFFFFFF) {
    return Status(codes::kInvalidArgument, "Zip64 archives are not supported; save the document again.");
  }
  if (entries > kMaxZipEntries) return Damaged("it lists too many files");
  if (static_cast<uint64_t>(dir_offset) + dir_size > end_at) return Damaged("its directory points outside the file");
  size_t at = dir_offset;
  const size_t dir_end = static_cast<size_t>(dir_offset) + dir_size;
  for (uint32_t i = 0; i < entries; ++i) {
    if (at + kCentralHeaderSize > dir_end || U32(zip, at) != kCentralHeader) {
      return Damaged("a directory entry is truncated");
    }
    const uint16_t flags = U16(zip, at + 8);
    const uint16_t method = U16(zip, at + 10);
    const uint32_t crc = U32(zip, at + 16);
    const uint32_t packed = U32(zip, at + 20);
    const uint32_t size = U32(zip, at + 24);
    const size_t name_len = U16(zip, at + 28);
    const size_t extra_len = U16(zip, at + 30);
    const size_t comment_len = U16(zip, at + 32);
    const uint32_t local = U32(zip, at + 42);
    const size_t next = at + kCentralHeaderSize + name_len + extra_len + comment_len;
    if (next > dir_end) return Damaged("a directory entry is truncated");
    if (zip.substr(at + kCentralHeaderSize, name_len) != name) {
      at = next;
      continue;
    }
    if (flags & 1) return Status(codes::kInvalidArgument, "The document is password-protected.");
    if (method != 0 && method != 8) return Damaged("a member uses an unsupported compression method");
    if (size > max_bytes) {
      return Status(codes::kInvalidArgument, "The document's text is too large to read (over " +
                                                 std::to_string(max_bytes / (1024 * 1024)) + " MB).");
    }
    if (static_cast<uint64_t>(local) + kLocalHeaderSize > zip.size() || U32(zip, local) != kLocalHeader) {
      return Damaged("a member's header is missing");
    }
    const size_t data_at = static_cast<size_t>(local) + kLocalHeaderSize + U16(zip, local + 26) + U16(zip, local + 28);
    if (static_cast<uint64_t>(data_at) + packed > zip.size()) return Damaged("a member is truncated");
    std::string_view data = zip.substr(data_at, packed);
    std::string out;
    if (method == 0) {
      if (packed != size) return Damaged("a stored member's sizes disagree");
      out.assign(data);
    } else {
      auto inflated = Inflate(data, size);
      if (!inflated.ok()) return inflated.status();
      out = std::move(inflated).value();
    }
    uLong actual = crc32(0L, Z_NULL, 0);
    actual = crc32(actual, reinterpret_cast<const Bytef*>(out.data()), static_cast<uInt>(out.size()));
    if (actual != crc) return Damaged("a member fails its checksum");
    return out;
  }
  return Status(codes::kNotFound, "The zip file has no " + std::string(name) + ".");
}

}  // namespace ensemble::core::meetings::zip
