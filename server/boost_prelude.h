// The one place that works around Boost 1.74 under GCC 12: Asio's
// awaitable.hpp uses std::exchange without including <utility>. Every file
// that includes a Boost header includes this one first; .clang-format sorts
// it ahead of every other system header, so the order cannot drift.
//
// Thread-safety: not applicable (includes only).

#ifndef ENSEMBLE_SERVER_BOOST_PRELUDE_H_
#define ENSEMBLE_SERVER_BOOST_PRELUDE_H_

#include <utility>

#endif  // ENSEMBLE_SERVER_BOOST_PRELUDE_H_
