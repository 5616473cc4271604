// The scenario format's description in code (scenario_format.h) against its reference page
// (docs/scenario-format.md) and its JSON Schema (docs/scenario.schema.json): the same objects,
// the same keys, and on the page the same type, values, default and verbs mapping of each.
#include "rdmascope/verbs_backend/scenario_format.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::verbs_backend {
namespace {

using nlohmann::json;

std::string readDoc(const std::string& name) {
  std::ifstream in(std::string(RDMASCOPE_SOURCE_DIR) + "/docs/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string row(const FormatField& f) {
  std::string r = "| `";
  r.append(f.key).append("` | ").append(f.type).append(" | ").append(f.values).append(" | ");
  return r.append(f.defaultValue).append(" | ").append(f.verbs).append(" |");
}

// The page's sections: "### `name`..." headings, each with the rows of its field table and the
// JSON examples below it.
struct Section {
  std::vector<std::string> rows;
  std::vector<std::string> examples;
};

std::map<std::string, Section> pageSections(const std::string& page) {
  std::map<std::string, Section> out;
  static const std::regex heading("^#+ `([a-z_]+)`.*");
  std::istringstream in(page);
  Section* current = nullptr;
  std::string* example = nullptr;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (example) {
      if (line == "```")
        example = nullptr;
      else
        example->append(line).append("\n");
    } else if (std::regex_match(line, m, heading)) {
      current = &out[m[1]];
    } else if (line.rfind('#', 0) == 0) {
      current = nullptr;
    } else if (current && line.rfind("| `", 0) == 0) {
      current->rows.push_back(line);
    } else if (current && line == "```json") {
      example = &current->examples.emplace_back();
    }
  }
  return out;
}

TEST(ScenarioFormat, ThePageDocumentsEveryObjectAndKeyAsTheReaderHasThem) {
  const std::string page = readDoc("scenario-format.md");
  ASSERT_FALSE(page.empty()) << "docs/scenario-format.md";
  const auto sections = pageSections(page);
  std::set<std::string> documented;
  for (const auto& [name, section] : sections)
    if (!section.rows.empty()) documented.insert(name);
  std::set<std::string> described;
  for (const FormatObject& o : scenarioFormat()) {
    described.insert(std::string(o.name));
    const auto it = sections.find(std::string(o.name));
    std::string expected;
    for (const FormatField& f : o.fields)
      expected += row(f) + "\n";
    std::string found;
    if (it != sections.end())
      for (const std::string& r : it->second.rows)
        found += r + "\n";
    EXPECT_EQ(found, expected) << "the table of `" << o.name << "` (" << o.where
                               << ") on docs/scenario-format.md should be:\n"
                               << "| key | type | values | default | verbs |\n"
                               << "|---|---|---|---|---|\n"
                               << expected;
  }
  EXPECT_EQ(documented, described);
}

TEST(ScenarioFormat, EveryStepKindHasAnExampleThatIsJson) {
  const auto sections = pageSections(readDoc("scenario-format.md"));
  for (std::string_view kind : stepKinds()) {
    const auto it = sections.find(std::string(kind));
    ASSERT_NE(it, sections.end()) << kind;
    ASSERT_FALSE(it->second.examples.empty()) << "no ```json example for " << kind;
    for (const std::string& e : it->second.examples) {
      const json step = json::parse(e, nullptr, false);
      ASSERT_FALSE(step.is_discarded()) << kind << ":\n" << e;
      EXPECT_TRUE(step.contains(std::string(kind))) << kind << ":\n" << e;
    }
  }
}

// A step kind's example is a step of a scenario: put into a built-in after its connection, it
// reads (the references it makes are those of the built-ins: qp, cq, buf).
TEST(ScenarioFormat, EveryStepExampleReadsInsideABuiltin) {
  const auto sections = pageSections(readDoc("scenario-format.md"));
  for (std::string_view kind : stepKinds()) {
    const auto it = sections.find(std::string(kind));
    ASSERT_NE(it, sections.end()) << kind;
    for (const std::string& e : it->second.examples) {
      json j = builtinScenarioJson("rc-send-recv");
      j["steps"].push_back(json::parse(e));
      EXPECT_NO_THROW(parseScenario(j, "example")) << kind << ":\n" << e;
    }
  }
}

// The page's whole-file example is a scenario that runs as the page says: one SEND of 3000
// bytes, both completions successful and the memory equal.
TEST(ScenarioFormat, ThePagesWholeFileExampleRuns) {
  const std::string page = readDoc("scenario-format.md");
  const std::size_t section = page.find("## The whole file");
  ASSERT_NE(section, std::string::npos);
  const std::size_t begin = page.find("```json\n", section);
  const std::size_t end = page.find("\n```\n", begin);
  ASSERT_NE(end, std::string::npos);
  const Scenario s = parseScenarioText(page.substr(begin + 8, end - begin - 8), "page");
  EXPECT_EQ(s.title, "My first SEND");
  EXPECT_EQ(s.steps[8].title, "A SEND");
  const RunResult r = runScenarioInSim(s);
  EXPECT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.completionsText(),
            "host-a wr_id 1 SUCCESS SEND byte_len 3000\nhost-b wr_id 100 SUCCESS RECV byte_len "
            "3000\n");
}

TEST(ScenarioFormat, TheSchemaHasTheReadersObjectsAndKeys) {
  const json schema = json::parse(readDoc("scenario.schema.json"));
  for (const FormatObject& o : scenarioFormat()) {
    const json& node = o.name == "scenario" ? schema : schema.at("$defs").at(std::string(o.name));
    std::set<std::string> keys, required;
    for (const FormatField& f : o.fields) {
      keys.insert(std::string(f.key));
      if (f.defaultValue == "required") required.insert(std::string(f.key));
    }
    std::set<std::string> schemaKeys, schemaRequired;
    for (const auto& [key, value] : node.at("properties").items())
      schemaKeys.insert(key);
    for (const auto& key : node.value("required", json::array()))
      schemaRequired.insert(key.get<std::string>());
    EXPECT_EQ(schemaKeys, keys) << o.name;
    EXPECT_EQ(schemaRequired, required) << o.name;
    EXPECT_EQ(node.at("additionalProperties"), false) << o.name;
  }
  EXPECT_EQ(schema.at("$defs").size() + 1, scenarioFormat().size());
}

TEST(ScenarioFormat, TheReaderRefusesEveryKeyTheFormatDoesNotList) {
  // Each object of a built-in, given one key too many, is refused naming it.
  json base = builtinScenarioJson("tour");
  base["faults"] = {{"drop_psns", {{{"psn", 1}}}},
                    {"pauses", {{{"start_us", 1}, {"duration_us", 1}}}}};
  // Steps 0 to 7 connect (INIT, exchange, RTR, RTS); then a receive, a send, polls, a compare.
  const std::vector<std::string> objects = {"",
                                            "/link",
                                            "/faults",
                                            "/faults/drop_psns/0",
                                            "/faults/pauses/0",
                                            "/hosts/0",
                                            "/hosts/0/mrs/0",
                                            "/hosts/0/cqs/0",
                                            "/hosts/0/qps/0",
                                            "/steps/0",
                                            "/steps/0/modify_qp",
                                            "/steps/2/exchange",
                                            "/steps/4/modify_qp/av",
                                            "/steps/8/post_recv",
                                            "/steps/9/post_send",
                                            "/steps/9/post_send/sge/0",
                                            "/steps/10/poll_cq",
                                            "/steps/10/poll_cq/expect/0",
                                            "/steps/12/compare_memory"};
  ASSERT_NO_THROW(parseScenario(base, "t.json"));
  for (const std::string& at : objects) {
    json j = base;
    j[json::json_pointer(at)]["bogus"] = 1;
    try {
      parseScenario(j, "t.json");
      ADD_FAILURE() << at << " accepted an unknown key";
    } catch (const ScenarioError& e) {
      EXPECT_NE(std::string(e.what()).find("unknown key \"bogus\""), std::string::npos)
          << at << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace rdmascope::verbs_backend
