// Content codings: what a request's Accept-Encoding allows, and the Brotli
// compression of the JSON answers the server makes as it sends them (a pull
// of a thousand tasks is about 350 KiB of JSON). Files are not compressed
// here: the build makes their copies (services/static_files.h).
//
// Compressing a body reveals its length after compression, which can leak a
// secret sent beside text an attacker chose (BREACH). Answers here carry no
// secret to find: keys, tokens and calendar links are never returned (see
// docs/SECURITY.md), and sessions travel in cookies.
//
// Thread-safety: stateless functions.

#ifndef ENSEMBLE_SERVER_HTTP_COMPRESSION_H_
#define ENSEMBLE_SERVER_HTTP_COMPRESSION_H_

#include <cstddef>
#include <string_view>

#include "server/http/message.h"

namespace ensemble::server::http {

// Smaller JSON bodies go as they are: the coding would save less than it costs.
inline constexpr size_t kMinCompressedBody = 1024;
// Brotli quality for answers made per request: 4 compresses JSON about
// seven-fold at hundreds of MB/s; higher levels cost far more time for a
// few percent (the build's copies of files use 11).
inline constexpr int kAnswerBrotliQuality = 4;

// Whether an Accept-Encoding header value allows content coding `coding`
// (RFC 9110 §12.5.3: listed or "*" with a q-value above 0).
bool AcceptsEncoding(std::string_view accept_encoding, std::string_view coding);

// Compresses `response`'s body with Brotli when it is an API answer (JSON,
// Cache-Control no-store) of at least kMinCompressedBody bytes, not already
// encoded, and `request` accepts br; an API answer gets Vary: Accept-Encoding
// either way. Leaves the body as it was if Brotli would not make it smaller.
void CompressAnswer(const Request& request, StringResponse& response);

}  // namespace ensemble::server::http

#endif  // ENSEMBLE_SERVER_HTTP_COMPRESSION_H_
