// Numbers in messages and tables: three significant figures below 10, one decimal below 1000,
// whole numbers above; "inf" for what is not finite. One style for every gate and table.
#pragma once

#include <string>

namespace perfgate {

std::string format_number(double v);

}  // namespace perfgate
