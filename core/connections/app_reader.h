// AppReader: how the core reaches a connected app's content, given to it from
// outside like the clock (core/platform/env.h). The server implements it: it
// opens the connection's sealed secret and reads the app over the network,
// within a time and size limit. The browser has none, so an app read there
// says it needs the server. Fakes live with the tests.
//
// Thread-safety: the server's implementation may be called from several
// store threads at once.

#ifndef ENSEMBLE_CORE_CONNECTIONS_APP_READER_H_
#define ENSEMBLE_CORE_CONNECTIONS_APP_READER_H_

#include <string>

#include "core/base/status.h"
#include "core/connections/connection.h"
#include "core/store/database.h"

namespace ensemble::core::connections {

class AppReader {
 public:
  virtual ~AppReader() = default;
  // The iCalendar text behind a calendar-link `connection` (its sealed
  // secret is read through `db`). APP_UNREACHABLE with a readable reason
  // that never repeats the link when it cannot be read. A reader that does
  // not read the network on the calling (store) thread answers
  // APP_READ_PENDING instead: its caller reads what was noted and runs the
  // work again, so the core passes that code through untouched.
  virtual Result<std::string> ReadCalendarFeed(store::Database& db,
                                               const Connection& connection) = 0;
};

}  // namespace ensemble::core::connections

#endif  // ENSEMBLE_CORE_CONNECTIONS_APP_READER_H_
