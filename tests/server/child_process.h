// What the tests that start another program (the server binary, the fake
// model server) share: reading the line it prints when it is ready, and
// stopping it without leaving a zombie or hanging the test.
//
// Thread-safety: plain functions over the caller's descriptors and pid.

#ifndef ENSEMBLE_TESTS_SERVER_CHILD_PROCESS_H_
#define ENSEMBLE_TESTS_SERVER_CHILD_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <string>

namespace ensemble::testing {

// Reads `fd` until a newline arrives or `timeout` passes; returns what was
// read (without a newline when the child said nothing in time or exited).
std::string ReadFirstLine(int fd, std::chrono::milliseconds timeout);

// SIGTERM, then SIGKILL if the child has not exited within `timeout`; reaps it.
void StopChild(pid_t pid, std::chrono::milliseconds timeout);

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_SERVER_CHILD_PROCESS_H_
