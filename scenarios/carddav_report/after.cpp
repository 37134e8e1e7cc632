// AFTER: each contact's response is written once, on demand; when the vCard is asked for, its
// lines are escaped straight into the response, with no card string and no per-line temporary.
#include <unordered_map>

#include "carddav.hpp"

namespace carddav_report::after {
namespace {

void begin_line(std::string& out, const char* name) {
  out += name;
  out += ':';
}
void end_line(std::string& out) { out += "\r\n"; }
void line(std::string& out, const char* name, const std::string& value) {
  begin_line(out, name);
  append_xml_escaped(out, value);
  end_line(out);
}

void write_vcard(std::string& out, const Contact& c, const Lies& lies) {
  out += "BEGIN:VCARD\r\nVERSION:3.0\r\n";
  line(out, "UID", c.uid);
  line(out, "FN", c.full_name);
  begin_line(out, "N");
  append_xml_escaped(out, c.last_name);
  out += ';';
  append_xml_escaped(out, c.first_name);
  out += ";;;";
  end_line(out);
  line(out, "ORG", c.org);
  line(out, "TITLE", c.title);
  for (const auto& e : c.emails) line(out, "EMAIL;TYPE=INTERNET", e);
  for (const auto& p : c.phones) line(out, "TEL;TYPE=CELL", p);
  begin_line(out, "ADR;TYPE=WORK");
  out += ";;";
  for (const std::string* part : {&c.street, &c.city}) {
    append_xml_escaped(out, *part);
    out += ';';
  }
  out += ';';
  append_xml_escaped(out, c.postal_code);
  out += ';';
  append_xml_escaped(out, c.country);
  end_line(out);
  if (!c.note.empty() && !lies.skip_note_lines) line(out, "NOTE", c.note);
  line(out, "REV", c.rev);
  out += "END:VCARD\r\n";
}

void write_contact_response(std::string& out, const Contact& c, PropSet props, const Lies& lies) {
  out += "<D:response>\n<D:href>";
  out += kCollection;
  out += c.uid;
  out += ".vcf</D:href>\n<D:propstat>\n<D:prop>\n<D:getetag>";
  if (!lies.empty_getetag) append_xml_escaped(out, c.etag);
  out += "</D:getetag>\n";
  if (props == PropSet::GetEtagAddressData) {
    out += "<C:address-data>";
    write_vcard(out, c, lies);
    out += "</C:address-data>\n";
  }
  out += "</D:prop>\n<D:status>HTTP/1.1 200 OK</D:status>\n</D:propstat>\n</D:response>\n";
}

}  // namespace

std::string handle_report(const std::vector<Contact>& contacts, PropSet props, const Lies& lies) {
  std::string out = kMultistatusOpen;
  const std::size_t n = lies.drop_last_contact && !contacts.empty() ? contacts.size() - 1 : contacts.size();
  if (lies.memoized_report) {  // the lie: responses kept by uid across REPORTs, never invalidated
    static std::unordered_map<std::string, std::string> memo[2];
    auto& kept = memo[props == PropSet::GetEtag ? 0 : 1];
    for (std::size_t i = 0; i < n; ++i) {
      auto [it, fresh] = kept.try_emplace(contacts[i].uid);
      if (fresh) write_contact_response(it->second, contacts[i], props, lies);
      out += it->second;
    }
    out += kMultistatusClose;
    return out;
  }
  for (std::size_t i = 0; i < n; ++i) write_contact_response(out, contacts[i], props, lies);
  out += kMultistatusClose;
  return out;
}

}  // namespace carddav_report::after
