// JS API for meeting transcripts (core/meetings): an upload dialog's preview
// can run in the browser, offline, with the same code as the server's import.
// Test-only until the app has that dialog (ensemble_core_test,
// wasm/CMakeLists.txt): tests/wasm/transcript_parity.test.mjs uses it.
//
//   transcriptPreview(text, fileName)         -> {ok, preview}   a paste or a decoded text file
//   transcriptPreviewBytes(bytes, fileName)   -> {ok, preview}   a file's bytes (Uint8Array);
//                                                                 .docx must come this way
//   transcriptParseBytes(bytes, fileName)     -> {ok, transcript} every turn, summary, items
//   transcriptCuesBytes(bytes)                -> {ok, cues}       caption cues before merging
//
// fileName is a string, or undefined or null (Embind wants every argument
// passed); it may supply a title and a date but never decides the format.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/meetings/preview.h"
#include "core/meetings/transcript.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;
namespace meetings = core::meetings;

core::Result<std::string> OptionalName(const val& arg) {
  if (arg.isUndefined() || arg.isNull()) return std::string();
  return StringArg(arg, "fileName");
}

// Copies a Uint8Array into a string, refusing anything over the upload limit
// before copying.
core::Result<std::string> BytesArg(const val& arg) {
  if (!arg.instanceof(val::global("Uint8Array"))) {
    return core::Status(core::codes::kInvalidArgument, "bytes must be a Uint8Array");
  }
  const size_t length = arg["length"].as<size_t>();
  if (length > meetings::kMaxFileBytes) {
    return core::Status(core::codes::kBodyTooLarge, "The file is larger than 10 MB.");
  }
  std::string bytes(length, '\0');
  val view(emscripten::typed_memory_view(length, reinterpret_cast<uint8_t*>(bytes.data())));
  view.call<void>("set", arg);
  return bytes;
}

std::string TranscriptPreview(val text, val file_name) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string body, StringArg(text, "text"));
    ENSEMBLE_ASSIGN_OR_RETURN(std::string name, OptionalName(file_name));
    ENSEMBLE_ASSIGN_OR_RETURN(meetings::Transcript t, meetings::ParseTranscript(body, name));
    return json{{"preview", meetings::PreviewJson(t)}};
  });
}

std::string TranscriptPreviewBytes(val bytes, val file_name) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string body, BytesArg(bytes));
    ENSEMBLE_ASSIGN_OR_RETURN(std::string name, OptionalName(file_name));
    ENSEMBLE_ASSIGN_OR_RETURN(meetings::Transcript t, meetings::ParseTranscriptFile(body, name));
    return json{{"preview", meetings::PreviewJson(t)}};
  });
}

std::string TranscriptParseBytes(val bytes, val file_name) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string body, BytesArg(bytes));
    ENSEMBLE_ASSIGN_OR_RETURN(std::string name, OptionalName(file_name));
    ENSEMBLE_ASSIGN_OR_RETURN(meetings::Transcript t, meetings::ParseTranscriptFile(body, name));
    return json{{"transcript", meetings::TranscriptJson(t)}};
  });
}

std::string TranscriptCuesBytes(val bytes) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string body, BytesArg(bytes));
    ENSEMBLE_ASSIGN_OR_RETURN(std::vector<meetings::Cue> cues, meetings::ParseCaptionCues(body));
    return json{{"cues", meetings::CuesJson(cues)}};
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_meetings) {
  emscripten::function("transcriptPreview", &TranscriptPreview);
  emscripten::function("transcriptPreviewBytes", &TranscriptPreviewBytes);
  emscripten::function("transcriptParseBytes", &TranscriptParseBytes);
  emscripten::function("transcriptCuesBytes", &TranscriptCuesBytes);
}

}  // namespace ensemble::wasm
