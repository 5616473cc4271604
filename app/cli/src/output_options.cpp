#include "output_options.h"

#include <CLI/CLI.hpp>

#include "numeric_options.h"
#include "rdmascope/packets/field_registry.h"

namespace rdmascope::cli {

void reportError(std::ostream& err, const std::string& message) {
  err << "rdmascope-cli: " << message << '\n';
}

void addOutputOptions(CLI::App& c, OutputArgs& a) {
  c.add_flag("-V", a.verbose, "Print the full detail tree of every packet (as tshark -V)");
  c.add_option("-T", a.format, "Output format: fields (with -e) or json")
      ->check(CLI::IsMember({"fields", "json", "text"}));
  c.add_option("-e", a.fields, "Field key to print with -T fields (repeatable)")
      ->allow_extra_args(false);
  c.add_option("-E", a.fieldOptions,
               "Field output option: header=y|n, separator=/t|/s|CHAR, aggregator=CHAR, "
               "occurrence=f|l|a")
      ->allow_extra_args(false);
  c.add_option("-Y", a.displayFilter,
               "Display filter (Wireshark syntax), e.g. 'udp.dstport == 4791'");
  addRocePortOption(c, a.rocePort);
}

void addRocePortOption(CLI::App& c, unsigned& port) {
  checkRange(c.add_option("--roce-port", port, "UDP destination port that carries RoCEv2")
                 ->capture_default_str(),
             kPortRange);
}

bool prepareOutput(const OutputArgs& a, PrintOptions& print,
                   std::optional<packets::DisplayFilter>& filter,
                   packets::DecodeOptions& decodeOptions, std::ostream& err) {
  decodeOptions.roceV2Port = static_cast<std::uint16_t>(a.rocePort);
  if (a.format == "fields") {
    if (a.fields.empty()) {
      reportError(err, "-T fields needs at least one -e FIELD");
      return false;
    }
    print.format = PrintOptions::Format::Fields;
  } else if (a.format == "json") {
    print.format = PrintOptions::Format::Json;
  } else {
    print.format = a.verbose ? PrintOptions::Format::Tree : PrintOptions::Format::Summary;
  }
  if (!a.fields.empty() && a.format != "fields") {
    reportError(err, "-e needs -T fields");
    return false;
  }
  for (const auto& key : a.fields)
    if (!packets::isKnownFieldKey(key)) {
      reportError(err, "unknown field '" + key + "' in -e");
      return false;
    }
  print.fields = a.fields;
  for (const auto& opt : a.fieldOptions) {
    const auto eq = opt.find('=');
    const std::string name = opt.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : opt.substr(eq + 1);
    if (name == "header" && (value == "y" || value == "n")) {
      print.header = value == "y";
    } else if (name == "separator" && !value.empty()) {
      print.separator = value == "/t" ? "\t" : value == "/s" ? " " : value;
    } else if (name == "aggregator" && !value.empty()) {
      print.aggregator = value == "/s" ? " " : value;
    } else if (name == "occurrence" && (value == "f" || value == "l" || value == "a")) {
      print.occurrence = value[0];
    } else {
      reportError(err, "invalid -E option '" + opt +
                           "' (header=y|n, separator=/t|/s|C, aggregator=C, occurrence=f|l|a)");
      return false;
    }
  }
  if (!a.displayFilter.empty()) {
    std::string error;
    filter = packets::DisplayFilter::compile(a.displayFilter, error);
    if (!filter) {
      // A long filter is not echoed: the error quotes the part at fault.
      reportError(err, a.displayFilter.size() <= 60
                           ? "invalid display filter '" + a.displayFilter + "': " + error
                           : "invalid display filter: " + error);
      return false;
    }
  }
  return true;
}

}  // namespace rdmascope::cli
