// Numbers in messages and tables: three significant figures below 10, one decimal below 1000,
// whole numbers above; "inf" for what is not finite. One style for every gate and table, and
// one for p-values.
#pragma once

#include <string>

namespace perfgate {

std::string format_number(double v);

// p-values in gate details: three decimals, scientific below 0.001, "<1e-15" below that (a
// normal tail underflows long before anything matters).
std::string format_p_value(double p);

}  // namespace perfgate
