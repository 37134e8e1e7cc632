// The runs a baseline is made of (`perfgate baseline update --from-history`): the gated ratio
// points of the runs an AcceptedQuery accepts, with both medians beside each, shaped as
// baseline.json entries.
#pragma once

#include "store/history_db.hpp"
#include "store/history_sql.hpp"

namespace perfgate::store::history {

AcceptedRuns accepted_runs(Sql& sql, const AcceptedQuery& q);

}  // namespace perfgate::store::history
