// SPDX-License-Identifier: Apache-2.0
// Deliberately wrong: the model area is below the runner, so this include must not compile. The ctest
// layers.an_upward_include_does_not_compile builds this file and expects the compiler to refuse it.
#include "counterguard/model/suite.hpp"
#include "counterguard/runner/isolated_runner.hpp"
