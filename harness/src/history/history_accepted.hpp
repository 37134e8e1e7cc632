// The runs a baseline is made of (`perfgate baseline update --from-history`): the gated ratio
// points of the runs an AcceptedQuery accepts, with both medians beside each, shaped as
// baseline.json entries.
#pragma once

#include "history/history_db.hpp"
#include "history/history_sql.hpp"

namespace perfgate::history {

AcceptedRuns accepted_runs(Sql& sql, const AcceptedQuery& q);

}  // namespace perfgate::history
