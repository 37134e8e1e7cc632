// XML escaping for what a program writes into XML: a scenario's response bodies (CardDAV
// multistatus) and the harness's JUnit file alike.
//   Text:      & < > " become entities; everything else is kept as written (line breaks
//              included), so escaped multi-line content keeps its lines.
//   Attribute: also ' and the whitespace an attribute value would fold (\n \t \r) become
//              character references.
// Either way a control character XML 1.0 does not allow, even escaped, is dropped.
#pragma once

#include <string>
#include <string_view>

namespace perfgate {

enum class XmlEscape { Text, Attribute };

inline void append_xml_escaped(std::string& out, std::string_view text, XmlEscape where = XmlEscape::Text) {
  const bool attribute = where == XmlEscape::Attribute;
  for (const char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += attribute ? "&apos;" : "'";
        break;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        break;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        break;
      case '\r':
        out += attribute ? "&#13;" : "\r";
        break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) continue;
        out += ch;
    }
  }
}

inline std::string xml_escaped(std::string_view text, XmlEscape where = XmlEscape::Text) {
  std::string out;
  out.reserve(text.size());
  append_xml_escaped(out, text, where);
  return out;
}

}  // namespace perfgate
