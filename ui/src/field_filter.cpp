#include "rdmascope/ui/field_filter.h"

#include <optional>
#include <string>

#include "rdmascope/packets/display_filter.h"
#include "rdmascope/ui/packet_list_model.h"

namespace rdmascope::ui {

namespace {

// A candidate is kept only when it compiles and selects the frame it came from, so a value
// printed in a form the filter language reads differently never yields a wrong filter.
bool selects(const packets::Dissection& d, const std::string& text) {
  std::string error;
  const auto f = packets::DisplayFilter::compile(text, error);
  return f && f->matches(d);
}

std::string colonBytes(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    if (!out.empty()) out += ':';
    out += hex.substr(i, 2);
  }
  return out;
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

std::optional<std::size_t> nodeWithKey(const packets::Dissection& d, std::string_view key) {
  for (std::size_t n = 0; n < d.nodes.size(); ++n)
    if (d.nodes[n].key == key) return n;
  return std::nullopt;
}

// The address node a Source or Destination cell shows: a node whose value is the cell's text,
// preferring keys that name the direction (ip.src, eth.dst, infiniband.lrh.dlid, ...).
std::optional<std::size_t> addressNode(const packets::Dissection& d, const std::string& shown,
                                       bool source) {
  if (shown.empty()) return std::nullopt;
  std::optional<std::size_t> any;
  for (std::size_t n = d.nodes.size(); n-- > 0;) {
    const auto& node = d.nodes[n];
    if (node.key.empty() || node.value != shown) continue;
    const std::string_view k = node.key;
    const bool directed = source ? (k.ends_with("src") || k.ends_with("slid") ||
                                    k.ends_with("sgid") || k.ends_with("srcport"))
                                 : (k.ends_with("dst") || k.ends_with("dlid") ||
                                    k.ends_with("dgid") || k.ends_with("dstport"));
    if (directed) return n;
    if (!any) any = n;
  }
  return any;
}

}  // namespace

QString filterForNode(const packets::Dissection& d, std::size_t node) {
  if (node >= d.nodes.size()) return {};
  const auto& n = d.nodes[node];
  if (n.key.empty()) return {};
  const std::string key(n.key);
  // A protocol or header row stands for its presence, as Wireshark filters a protocol.
  bool container = false;
  for (std::size_t c = node + 1; c < d.nodes.size() && !container; ++c)
    container = d.nodes[c].parent == static_cast<std::int32_t>(node);
  if (!n.value.empty() && !container) {
    const std::string candidates[] = {key + " == " + n.value, key + " == " + colonBytes(n.value),
                                      key + " == " + quoted(n.value)};
    for (const auto& c : candidates)
      if (selects(d, c)) return QString::fromStdString(c);
  }
  return selects(d, key) ? QString::fromStdString(key) : QString();
}

QString fieldKeyForColumn(const packets::Dissection& d, int column) {
  std::optional<std::size_t> n;
  switch (column) {
    case PacketListModel::Number:
      return QStringLiteral("frame.number");
    case PacketListModel::Time:
      return QStringLiteral("frame.time_relative");
    case PacketListModel::Length:
      return QStringLiteral("frame.len");
    case PacketListModel::Source:
      n = addressNode(d, d.summary.source, true);
      break;
    case PacketListModel::Destination:
      n = addressNode(d, d.summary.destination, false);
      break;
    case PacketListModel::Protocol:
      // The innermost protocol: the last top-level node with a key.
      for (std::size_t i = d.nodes.size(); i-- > 0;)
        if (d.nodes[i].parent < 0 && !d.nodes[i].key.empty() && d.nodes[i].key != "frame" &&
            !d.nodes[i].key.starts_with("data")) {
          n = i;
          break;
        }
      break;
    default:
      break;
  }
  if (!n) return {};
  const auto key = d.nodes[*n].key;
  return QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size()));
}

QString filterForColumn(const packets::Dissection& d, int column, std::size_t frameNumber,
                        std::size_t length) {
  switch (column) {
    case PacketListModel::Number: {
      const std::string f = "frame.number == " + std::to_string(frameNumber);
      return selects(d, f) ? QString::fromStdString(f) : QString();
    }
    case PacketListModel::Length: {
      const std::string f = "frame.len == " + std::to_string(length);
      return selects(d, f) ? QString::fromStdString(f) : QString();
    }
    case PacketListModel::Time:
      if (const auto n = nodeWithKey(d, "frame.time_relative")) return filterForNode(d, *n);
      return {};
    case PacketListModel::Protocol: {
      const std::string key = fieldKeyForColumn(d, column).toStdString();
      return !key.empty() && selects(d, key) ? QString::fromStdString(key) : QString();
    }
    case PacketListModel::Source:
      if (const auto n = addressNode(d, d.summary.source, true)) return filterForNode(d, *n);
      return {};
    case PacketListModel::Destination:
      if (const auto n = addressNode(d, d.summary.destination, false)) return filterForNode(d, *n);
      return {};
    default:
      return {};
  }
}

}  // namespace rdmascope::ui
