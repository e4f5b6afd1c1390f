// The people tests' store: the record domains' shared one.

#ifndef ENSEMBLE_TESTS_CORE_PEOPLE_PEOPLE_FIXTURE_H_
#define ENSEMBLE_TESTS_CORE_PEOPLE_PEOPLE_FIXTURE_H_

#include "tests/core/hub_store_fixture.h"

namespace ensemble::core::people {

using PeopleStore = HubStore;
using PeopleStoreTest = HubStoreTest;

}  // namespace ensemble::core::people

#endif  // ENSEMBLE_TESTS_CORE_PEOPLE_PEOPLE_FIXTURE_H_
