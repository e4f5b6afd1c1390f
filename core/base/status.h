// Status and Result<T>: errors as values.
//
// A Status is either OK or carries a stable machine-readable code (such as
// "SAVE_CONFLICT") and a message a person can read. Result<T> holds either a
// value or a non-OK Status. Nothing in the core throws across its public API;
// third-party exceptions are converted to a Status where they are caught.
//
// Thread-safety: immutable after construction; safe to share between threads.

#ifndef ENSEMBLE_CORE_BASE_STATUS_H_
#define ENSEMBLE_CORE_BASE_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ensemble::core {

// Stable codes shared by the browser, the server and the wire protocol.
namespace codes {
inline constexpr std::string_view kInvalidArgument = "INVALID_ARGUMENT";
inline constexpr std::string_view kNotFound = "NOT_FOUND";
inline constexpr std::string_view kForbidden = "FORBIDDEN";
inline constexpr std::string_view kAlreadyExists = "ALREADY_EXISTS";
inline constexpr std::string_view kSaveConflict = "SAVE_CONFLICT";
// An update whose expectedVersion (sent without _base) is not the current one.
inline constexpr std::string_view kVersionConflict = "VERSION_CONFLICT";
// An edit of a record in Trash: refused, with the record's values, so it is
// reported rather than lost.
inline constexpr std::string_view kRecordDeleted = "RECORD_DELETED";
inline constexpr std::string_view kUnknownMutation = "UNKNOWN_MUTATION";
inline constexpr std::string_view kMutationFromFuture = "MUTATION_FROM_FUTURE";
// A tool call naming no registered tool, or whose input fails its schema.
inline constexpr std::string_view kUnknownTool = "UNKNOWN_TOOL";
inline constexpr std::string_view kInvalidToolInput = "INVALID_TOOL_INPUT";
inline constexpr std::string_view kStorage = "STORAGE_ERROR";
inline constexpr std::string_view kMalformedJson = "MALFORMED_JSON";
inline constexpr std::string_view kBodyTooLarge = "BODY_TOO_LARGE";
// A model option (effort, tools) the model's metadata does not offer:
// refused before anything is spent.
inline constexpr std::string_view kUnsupportedOption = "UNSUPPORTED_OPTION";
// A model's tool call whose name is missing or whose arguments are not a
// JSON object: reported back, never dispatched.
inline constexpr std::string_view kMalformedToolCall = "MALFORMED_TOOL_CALL";
// The model provider failed (HTTP error, error object, broken stream).
inline constexpr std::string_view kModelError = "MODEL_ERROR";
// A model call past its limit (spec 000 §5); the message is what the chat shows.
inline constexpr std::string_view kModelTimeout = "MODEL_TIMEOUT";
// Work stopped on request (Stop, or the client went away).
inline constexpr std::string_view kCancelled = "CANCELLED";
// No signed-in session (none sent, expired or signed out): sign in again.
inline constexpr std::string_view kUnauthenticated = "UNAUTHENTICATED";
// A sign-in whose email or password is wrong; one code and one message for
// both, so it does not tell whether an account exists.
inline constexpr std::string_view kBadCredentials = "BAD_CREDENTIALS";
// A sealed secret that fails authentication (tampered, or another key).
inline constexpr std::string_view kDecryptFailed = "DECRYPT_FAILED";
// Called in a state that does not allow it (a turn asked for a request while
// it waits for tool outcomes).
inline constexpr std::string_view kFailedPrecondition = "FAILED_PRECONDITION";
// A per-turn limit the spec names was reached (web searches, model steps).
inline constexpr std::string_view kLimitReached = "LIMIT_REACHED";
// The person paused the assistant: no turn starts until they resume it
// (spec 000 §2-§3).
inline constexpr std::string_view kAssistantPaused = "ASSISTANT_PAUSED";
// A saved proposal whose calls no longer match the hash taken when it was
// saved: refused, nothing runs (spec 000 §6).
inline constexpr std::string_view kProposalTampered = "PROPOSAL_TAMPERED";
// An Apply ran out of its transaction time before reaching a call.
inline constexpr std::string_view kApplyTimeout = "APPLY_TIMEOUT";
// A connected app could not be read (unreachable, refused, not its format);
// the message says why and never repeats the app's link or token.
inline constexpr std::string_view kAppUnreachable = "APP_UNREACHABLE";
// An app's content is not read yet: the reader noted what to read, and the
// caller reads it off the store's threads and runs the work again. Never
// reaches a person.
inline constexpr std::string_view kAppReadPending = "APP_READ_PENDING";
inline constexpr std::string_view kInternal = "INTERNAL";
}  // namespace codes

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK.
  Status(std::string_view code, std::string message) : code_(code), message_(std::move(message)) {
    assert(!code_.empty());
  }

  static Status Ok() { return Status(); }

  bool ok() const { return code_.empty(); }
  // Empty when ok().
  const std::string& code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string ToString() const { return ok() ? "OK" : code_ + ": " + message_; }

 private:
  std::string code_;
  std::string message_;
};

// The Status of bad input: the core's most common error.
inline Status InvalidArgument(std::string message) {
  return Status(codes::kInvalidArgument, std::move(message));
}

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}         // NOLINT: implicit by design.
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    assert(!status_.ok());
  }

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  // Precondition: ok().
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace ensemble::core

// Returns early from the enclosing function when `expr` yields a non-OK Status.
#define ENSEMBLE_RETURN_IF_ERROR(expr)     \
  do {                                     \
    ::ensemble::core::Status _st = (expr); \
    if (!_st.ok()) return _st;             \
  } while (0)

#define ENSEMBLE_CONCAT_INNER_(a, b) a##b
#define ENSEMBLE_CONCAT_(a, b) ENSEMBLE_CONCAT_INNER_(a, b)
// Declares `lhs` from a Result's value, or returns its Status.
#define ENSEMBLE_ASSIGN_OR_RETURN(lhs, expr) \
  ENSEMBLE_ASSIGN_OR_RETURN_IMPL_(ENSEMBLE_CONCAT_(_res_, __LINE__), lhs, expr)
#define ENSEMBLE_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                    \
  if (!tmp.ok()) return tmp.status();                   \
  lhs = std::move(tmp).value()

#endif  // ENSEMBLE_CORE_BASE_STATUS_H_
