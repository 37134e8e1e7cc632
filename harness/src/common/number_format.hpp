// Numbers for people. `format_quantity` is the one formatter of a measured figure with its unit,
// everywhere a person reads one (the verdict table, the step summary, compare): time scaled to
// ns/µs/ms/s, bytes to B/KiB/MiB/GiB, rates per second (bytes/s binary, other rates with k/M/G),
// about three significant figures, thousands separated; its Python twin is
// reports/perfgate_report/fmt.py `quantity`, and both are tested against one golden table,
// tests/data/number_format.tsv. `format_number` is the terse style of gate details (ratios and
// factors: "1.1x [1.08, 1.12]"); `format_p_value` the one for p-values.
#pragma once

#include <string>

namespace perfgate {

// "19.8 ms" for (19813802, "ns"), "2.77 MiB" for (2838, "KiB"), "566,112,320" for a count,
// "39.8k req/s", "12.3%"; "—" for NaN, "∞" for infinity.
std::string format_quantity(double value, const std::string& unit);

// Three significant figures below 10, one decimal below 1000, whole numbers above; "inf" for
// what is not finite.
std::string format_number(double v);

// p-values in gate details: three decimals, scientific below 0.001, "<1e-15" below that (a
// normal tail underflows long before anything matters).
std::string format_p_value(double p);

// A fraction as a percentage with `decimals` places: "12.3%" for 0.123.
std::string format_percent(double fraction, int decimals = 1);

// A relative change as a signed percentage: "+4.8%", "-11.0%" (1.048 -> "+4.8%").
std::string format_change(double ratio);

}  // namespace perfgate
