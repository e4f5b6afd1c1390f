// The router over the playbooks built into the binary, shared by the tests of
// everything that routes a turn.

#ifndef ENSEMBLE_TESTS_SUPPORT_EMBEDDED_ROUTER_H_
#define ENSEMBLE_TESTS_SUPPORT_EMBEDDED_ROUTER_H_

#include <gtest/gtest.h>

#include <utility>

#include "core/playbooks/embedded.h"
#include "core/playbooks/router.h"

namespace ensemble::testing {

// Built once per test binary; a playbook that fails to build fails the test
// that first asked.
inline const core::playbooks::Router& EmbeddedRouter() {
  static const core::playbooks::Router* router = [] {
    auto set = core::playbooks::PlaybookSet::Build(core::playbooks::EmbeddedPlaybooks());
    EXPECT_TRUE(set.ok()) << set.status().ToString();
    return new core::playbooks::Router(std::move(set).value());
  }();
  return *router;
}

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_SUPPORT_EMBEDDED_ROUTER_H_
