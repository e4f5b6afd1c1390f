// An incremental parser of Server-Sent Events (the WHATWG event-stream
// format) as model providers send them: bytes arrive in arbitrary pieces;
// lines end in LF, CRLF or CR (a CRLF may be split between pieces); "data:"
// lines of one event are joined with "\n"; a blank line ends the event;
// lines starting with ":" are comments (providers' heartbeats) and are
// skipped; "event:" names the event; other fields are ignored.
//
// Bounded: a line longer than kMaxSseLineBytes or an event's data longer than
// kMaxSseEventBytes is BODY_TOO_LARGE, after which the parser stays failed.
//
// Thread-safety: none; one parser per stream.

#ifndef ENSEMBLE_CORE_MODEL_SSE_PARSER_H_
#define ENSEMBLE_CORE_MODEL_SSE_PARSER_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "core/base/status.h"

namespace ensemble::core::model {

inline constexpr std::size_t kMaxSseLineBytes = 4 * 1024 * 1024;
inline constexpr std::size_t kMaxSseEventBytes = 8 * 1024 * 1024;

struct SseEvent {
  std::string event;  // The "event:" field; empty for the default "message".
  std::string data;
};

class SseParser {
 public:
  // Called once per complete event with data; a non-OK Status stops parsing
  // and is returned from Feed.
  using OnEvent = std::function<Status(const SseEvent&)>;

  // Parses `bytes`, calling `on_event` for each event they complete.
  Status Feed(std::string_view bytes, const OnEvent& on_event);
  // The stream ended: an event cut off without its blank line is delivered
  // (several servers omit the last one).
  Status Finish(const OnEvent& on_event);

 private:
  Status Line(std::string_view line, const OnEvent& on_event);
  Status Dispatch(const OnEvent& on_event);

  std::string line_;       // The unfinished line.
  bool after_cr_ = false;  // The last byte was CR: an LF next ends nothing.
  bool has_data_ = false;  // At least one data: line in the pending event.
  SseEvent pending_;
  Status failed_;
};

}  // namespace ensemble::core::model

#endif  // ENSEMBLE_CORE_MODEL_SSE_PARSER_H_
