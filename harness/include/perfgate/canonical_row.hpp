// Canonical serialisation of one answer row, so that a digest covers every column a query
// returns and two variants agree on bytes exactly when they agree on values.
//
// Every value is type-tagged; the row is prefixed with its column count:
//   row      R<columns>;<value>...
//   NULL     N;                  (distinct from an empty text, T0:;)
//   boolean  B0; | B1;
//   integer  I<decimal>;         (no leading zeros, '-' for negatives, no '+')
//   real     F<%.17g>;           (round-trips a double; -0 is 0, NaN is nan, +-inf is inf/-inf)
//   decimal  D<text>;            (an exact decimal kept as its canonical text, e.g. numeric)
//   text     T<bytes>:<bytes>;   (length-prefixed: no escaping, any byte allowed)
// The same values give the same bytes on every machine; a dropped column, a NULL where a value
// was, a value of another type or a reordered column all change the bytes.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace perfgate {

class CanonicalRow {
 public:
  explicit CanonicalRow(std::size_t columns) { out_ = "R" + std::to_string(columns) + ";"; }

  CanonicalRow& null() { return put("N;"); }
  CanonicalRow& boolean(bool v) { return put(v ? "B1;" : "B0;"); }
  CanonicalRow& integer(std::int64_t v) { return put("I" + std::to_string(v) + ";"); }
  CanonicalRow& real(double v) {
    if (std::isnan(v)) return put("Fnan;");
    if (std::isinf(v)) return put(v > 0 ? "Finf;" : "F-inf;");
    if (v == 0) v = 0;  // -0 and 0 are one value
    char buf[40];
    std::snprintf(buf, sizeof buf, "F%.17g;", v);
    return put(buf);
  }
  CanonicalRow& decimal(std::string_view canonical_text) { return put("D" + std::string(canonical_text) + ";"); }
  CanonicalRow& text(std::string_view v) {
    out_ += "T" + std::to_string(v.size()) + ":";
    out_.append(v);
    out_ += ';';
    return *this;
  }

  const std::string& str() const { return out_; }

 private:
  CanonicalRow& put(std::string_view s) {
    out_.append(s);
    return *this;
  }
  std::string out_;
};

}  // namespace perfgate
