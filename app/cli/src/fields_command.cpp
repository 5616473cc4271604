// `rdmascope-cli fields`: the display-filter and -e field keys, one a line (as tshark -G fields
// lists its own), with the field's name where a header table defines it.
#include <CLI/CLI.hpp>
#include <memory>
#include <ostream>
#include <string_view>

#include "commands.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/packets/field_registry.h"

namespace rdmascope::cli {

void addFieldsCommand(CLI::App& app, Action& action) {
  CLI::App* c = app.add_subcommand(
      "fields", "List the field keys of display filters (-Y) and -T fields -e, with their names");
  auto namesOnly = std::make_shared<bool>(false);
  c->add_flag("--keys", *namesOnly, "Only the keys, without the names");
  c->callback([namesOnly, &action] {
    action = [namesOnly](std::ostream& out, std::ostream&) {
      for (const std::string_view key : packets::knownFieldKeys()) {
        out << key;
        if (!*namesOnly) {
          if (const packets::FieldDef* def = packets::findFieldDef(key)) out << '\t' << def->name;
        }
        out << '\n';
      }
      return kExitOk;
    };
  });
}

}  // namespace rdmascope::cli
