#include "server/http/compression.h"

#include <brotli/encode.h>

#include <algorithm>
#include <boost/beast/core/string.hpp>
#include <cctype>
#include <string>

#include "core/text/utf8.h"

namespace ensemble::server::http {
namespace {

namespace bhttp = boost::beast::http;
using core::text::Trim;

// The q-value of one Accept-Encoding element's parameters ("q=0.5"): 1 when
// absent, 0 when malformed (an element we cannot read allows nothing).
double QValue(std::string_view params) {
  while (!params.empty()) {
    size_t semi = params.find(';');
    std::string_view param = Trim(params.substr(0, semi));
    params = semi == std::string_view::npos ? std::string_view() : params.substr(semi + 1);
    if (param.size() < 2 || std::tolower(static_cast<unsigned char>(param[0])) != 'q' ||
        param[1] != '=') {
      continue;
    }
    std::string_view v = param.substr(2);
    if (v.empty() || v.size() > 5 || (v[0] != '0' && v[0] != '1')) return 0;
    double q = v[0] - '0';
    if (v.size() > 1) {
      if (v[1] != '.') return 0;
      double scale = 0.1;
      for (char c : v.substr(2)) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
        q += (c - '0') * scale;
        scale /= 10;
      }
    }
    return q > 1 ? 0 : q;
  }
  return 1;
}

}  // namespace

bool AcceptsEncoding(std::string_view accept_encoding, std::string_view coding) {
  double listed = -1;
  double any = -1;
  while (!accept_encoding.empty()) {
    size_t comma = accept_encoding.find(',');
    std::string_view element = accept_encoding.substr(0, comma);
    accept_encoding =
        comma == std::string_view::npos ? std::string_view() : accept_encoding.substr(comma + 1);
    size_t semi = element.find(';');
    std::string_view name = Trim(element.substr(0, semi));
    double q =
        QValue(semi == std::string_view::npos ? std::string_view() : element.substr(semi + 1));
    if (boost::beast::iequals(name, coding)) listed = std::max(listed, q);
    if (name == "*") any = std::max(any, q);
  }
  // A coding named explicitly wins over "*" (so "br;q=0, *" refuses br).
  return (listed >= 0 ? listed : any) > 0;
}

void CompressAnswer(const Request& request, StringResponse& response) {
  // API answers only (JsonResponse's, never stored): a file's answer has a
  // validator of its own bytes, and its copies come from the build.
  if (response[bhttp::field::content_type] != "application/json" ||
      response[bhttp::field::cache_control] != "no-store" ||
      response.count(bhttp::field::content_encoding) > 0) {
    return;
  }
  // Whether this answer is compressed depends on the request's header.
  response.set(bhttp::field::vary, "Accept-Encoding");
  const std::string& body = response.body();
  if (body.size() < kMinCompressedBody ||
      !AcceptsEncoding(request[bhttp::field::accept_encoding], "br")) {
    return;
  }
  std::string out(BrotliEncoderMaxCompressedSize(body.size()), '\0');
  size_t size = out.size();
  if (out.empty() ||
      !BrotliEncoderCompress(kAnswerBrotliQuality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT,
                             body.size(), reinterpret_cast<const uint8_t*>(body.data()), &size,
                             reinterpret_cast<uint8_t*>(out.data())) ||
      size >= body.size()) {
    return;
  }
  out.resize(size);
  response.body() = std::move(out);
  response.set(bhttp::field::content_encoding, "br");
  response.prepare_payload();
}

}  // namespace ensemble::server::http
