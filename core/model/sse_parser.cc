#include "core/model/sse_parser.h"

namespace ensemble::core::model {

Status SseParser::Feed(std::string_view bytes, const OnEvent& on_event) {
  if (!failed_.ok()) return failed_;
  size_t start = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    const char c = bytes[i];
    if (c != '\r' && c != '\n') continue;
    if (c == '\n' && after_cr_ && i == start && line_.empty()) {
      // The LF of a CRLF whose CR ended the previous line.
      after_cr_ = false;
      start = i + 1;
      continue;
    }
    std::string_view piece = bytes.substr(start, i - start);
    Status st;
    if (line_.empty() && piece.size() <= kMaxSseLineBytes) {
      st = Line(piece, on_event);
    } else {
      line_.append(piece);
      if (line_.size() > kMaxSseLineBytes) {
        st = Status(codes::kBodyTooLarge, "a line of the model's stream is over " +
                                              std::to_string(kMaxSseLineBytes) + " bytes");
      } else {
        std::string line = std::move(line_);
        line_.clear();
        st = Line(line, on_event);
      }
    }
    if (!st.ok()) return failed_ = st;
    after_cr_ = c == '\r';
    start = i + 1;
  }
  if (start < bytes.size()) {
    after_cr_ = false;
    line_.append(bytes.substr(start));
    if (line_.size() > kMaxSseLineBytes) {
      return failed_ =
                 Status(codes::kBodyTooLarge, "a line of the model's stream is over " +
                                                  std::to_string(kMaxSseLineBytes) + " bytes");
    }
  }
  return Status::Ok();
}

Status SseParser::Finish(const OnEvent& on_event) {
  if (!failed_.ok()) return failed_;
  if (!line_.empty()) {
    std::string line = std::move(line_);
    line_.clear();
    if (Status st = Line(line, on_event); !st.ok()) return failed_ = st;
  }
  if (Status st = Dispatch(on_event); !st.ok()) return failed_ = st;
  return Status::Ok();
}

Status SseParser::Line(std::string_view line, const OnEvent& on_event) {
  if (line.empty()) return Dispatch(on_event);
  if (line.front() == ':') return Status::Ok();  // A comment: a heartbeat.
  std::string_view field = line;
  std::string_view value;
  if (size_t colon = line.find(':'); colon != std::string_view::npos) {
    field = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    if (has_data_) pending_.data.push_back('\n');
    pending_.data.append(value);
    has_data_ = true;
    if (pending_.data.size() > kMaxSseEventBytes) {
      return Status(codes::kBodyTooLarge, "an event of the model's stream is over " +
                                              std::to_string(kMaxSseEventBytes) + " bytes");
    }
  } else if (field == "event") {
    pending_.event = std::string(value);
  }
  return Status::Ok();
}

Status SseParser::Dispatch(const OnEvent& on_event) {
  // An event without data (only a name, or nothing) is not delivered.
  Status st;
  if (has_data_) st = on_event(pending_);
  pending_ = SseEvent();
  has_data_ = false;
  return st;
}

}  // namespace ensemble::core::model
