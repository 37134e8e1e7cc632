// The names an enum is written as — in a manifest, results.json, baseline.json, a program's
// report line — kept in one table per enum beside the enum itself, so a kind is spelled once
// and compared as a value everywhere else. An enum E takes part by declaring, in its own
// namespace, `constexpr std::array<std::pair<E, std::string_view>, N> names(E)` listing every
// value once; an enum declared without initializers writes it as its names in declaration order,
// so each value is spelled once, in the enum:
//
//   enum class Better { Lower, Higher };
//   constexpr auto names(Better) { return in_declaration_order<Better>({"lower", "higher"}); }
//
//   perfgate::name_of(Better::Higher)            // "higher"
//   perfgate::from_name<Better>("lower")         // Better::Lower; nullopt for an unknown name
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace perfgate {

template <typename E, std::size_t N>
constexpr std::array<std::pair<E, std::string_view>, N> in_declaration_order(const std::string_view (&names)[N]) {
  std::array<std::pair<E, std::string_view>, N> table{};
  for (std::size_t i = 0; i < N; ++i) table[i] = {static_cast<E>(i), names[i]};
  return table;
}

// The name `table` gives `value`: names(E) itself, or a printer's own words for E.
template <typename E, std::size_t N>
constexpr std::string_view name_in(const std::array<std::pair<E, std::string_view>, N>& table, E value) {
  for (const auto& [v, name] : table)
    if (v == value) return name;
  return "?";  // unreachable while the table lists every value
}

template <typename E>
constexpr std::string_view name_of(E value) {
  return name_in(names(E{}), value);
}

template <typename E>
constexpr std::optional<E> from_name(std::string_view name) {
  for (const auto& [v, n] : names(E{}))
    if (n == name) return v;
  return std::nullopt;
}

// Every value, in the table's order.
template <typename E>
std::vector<E> all_values() {
  std::vector<E> out;
  for (const auto& entry : names(E{})) out.push_back(entry.first);
  return out;
}

// Every name, in the table's order: what a message lists as allowed.
template <typename E>
std::vector<std::string> all_names() {
  std::vector<std::string> out;
  for (const auto& entry : names(E{})) out.emplace_back(entry.second);
  return out;
}

}  // namespace perfgate
