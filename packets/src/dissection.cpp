#include "rdmascope/packets/dissection.h"

#include <algorithm>

namespace rdmascope::packets {

const char* severityName(Severity s) {
  switch (s) {
    case Severity::Note:
      return "Note";
    case Severity::Warning:
      return "Warning";
    case Severity::Error:
      return "Error";
  }
  return "Note";
}

const Node* Dissection::find(std::string_view key) const {
  for (const auto& n : nodes)
    if (n.key == key) return &n;
  return nullptr;
}

std::vector<const Node*> Dissection::findAll(std::string_view key) const {
  std::vector<const Node*> out;
  for (const auto& n : nodes)
    if (n.key == key) out.push_back(&n);
  return out;
}

std::vector<std::int32_t> Dissection::children(std::int32_t parent) const {
  std::vector<std::int32_t> out;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].parent == parent) out.push_back(static_cast<std::int32_t>(i));
  return out;
}

bool Dissection::hasErrors() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

}  // namespace rdmascope::packets
