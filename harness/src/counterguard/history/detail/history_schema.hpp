// SPDX-License-Identifier: Apache-2.0
#pragma once
// The tables of the history database and the migrations between their versions (docs/history.md).

#include "sqlite_database.hpp"

namespace counterguard::detail {

// SQLite's header field `application_id` of a history database: "cgHS".
inline constexpr int history_application_id = 0x63674853;

// Brings the database to history_schema_version: checks that the file is a history database (or empty),
// refuses one written by a newer counterguard, sets WAL mode, and applies the migrations from its version
// to the current one in one transaction (two processes opening a new file at once both succeed).
void prepare_history_schema(sqlite_database& db);

}  // namespace counterguard::detail
