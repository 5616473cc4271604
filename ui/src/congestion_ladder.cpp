#include "rdmascope/ui/congestion_ladder.h"

#include <QCoreApplication>
#include <map>
#include <set>

#include "rdmascope/packets/ib_opcodes.h"
#include "rdmascope/ui/congestion_run.h"

namespace rdmascope::ui {

namespace {

class CongestionLadderText {
  Q_DECLARE_TR_FUNCTIONS(CongestionLadderText)
};

unsigned be16(const std::vector<std::uint8_t>& b, std::size_t at) {
  return at + 1 < b.size() ? (static_cast<unsigned>(b[at]) << 8) | b[at + 1] : 0;
}

// The label of one frame: PFC, or RoCEv2 over IPv4 (optionally VLAN tagged); anything else by
// its EtherType.
QString frameLabel(const std::vector<std::uint8_t>& b) {
  std::size_t l2 = 12;
  unsigned type = be16(b, l2);
  if (type == 0x8100) {
    l2 += 4;
    type = be16(b, l2);
  }
  const std::size_t l3 = l2 + 2;
  if (type == 0x8808 && be16(b, l3) == 0x0101) {
    const unsigned enable = be16(b, l3 + 2);
    QString text;
    for (int p = 0; p < 8; ++p) {
      if (!(enable & (1u << p))) continue;
      const unsigned quanta = be16(b, l3 + 4 + 2 * static_cast<std::size_t>(p));
      text += text.isEmpty() ? QString() : QStringLiteral("; ");
      text += quanta == 0 ? CongestionLadderText::tr("PFC XON P%1").arg(p)
                          : CongestionLadderText::tr("PFC PAUSE P%1 quanta %2").arg(p).arg(quanta);
    }
    return text.isEmpty() ? CongestionLadderText::tr("PFC (no priority)") : text;
  }
  if (type != 0x0800 || b.size() < l3 + 20)
    return CongestionLadderText::tr("EtherType 0x%1").arg(type, 4, 16, QLatin1Char('0'));
  const bool ce = (b[l3 + 1] & 3) == 3;
  const std::size_t l4 = l3 + static_cast<std::size_t>(b[l3] & 0x0f) * 4;
  if (b[l3 + 9] != 17 || be16(b, l4 + 2) != 4791 || b.size() < l4 + 8 + 12)
    return CongestionLadderText::tr("IPv4");
  const std::uint8_t opcode = b[l4 + 8];
  const std::uint32_t psn = (static_cast<std::uint32_t>(b[l4 + 8 + 9]) << 16) |
                            (static_cast<std::uint32_t>(b[l4 + 8 + 10]) << 8) | b[l4 + 8 + 11];
  const auto* info = packets::ibOpcodeInfo(opcode);
  QString name =
      info ? QString::fromUtf8(info->name.data(), static_cast<qsizetype>(info->name.size()))
           : CongestionLadderText::tr("opcode 0x%1").arg(opcode, 2, 16, QLatin1Char('0'));
  if (name.startsWith(QLatin1String("RC "))) name = name.mid(3);
  QString text = opcode == 0x81 ? name : QStringLiteral("%1  PSN %2").arg(name).arg(psn);
  if (ce) text = CongestionLadderText::tr("CE  %1").arg(text);
  return text;
}

}  // namespace

std::vector<LadderFrame> congestionLadder(const CongestionRun& run, QStringList& lanes) {
  lanes.clear();
  const auto& ports = run.ports();
  auto lane = [&lanes](const std::string& node) {
    const QString n = QString::fromStdString(node);
    int i = static_cast<int>(lanes.indexOf(n));
    if (i < 0) {
      lanes << n;
      i = static_cast<int>(lanes.size()) - 1;
    }
    return i;
  };
  std::map<std::string, std::string> peerNode;
  for (const auto& p : ports)
    peerNode[p.name] = p.node;
  // lifelines in the scenario's node order: the ends of every captured port's link
  std::set<std::string> ends;
  for (const auto& f : run.frames()) {
    const auto& port = ports[static_cast<std::size_t>(f.port)];
    ends.insert(port.node);
    ends.insert(peerNode[port.peer]);
  }
  for (const auto& n : run.spec().nodes)
    if (ends.count(n.name)) lane(n.name);
  std::vector<LadderFrame> out;
  out.reserve(run.frames().size());
  for (const auto& f : run.frames()) {
    const auto& port = ports[static_cast<std::size_t>(f.port)];
    LadderFrame row;
    row.fromHost = lane(port.node);
    row.toHost = lane(peerNode[port.peer]);
    row.label = frameLabel(f.bytes);
    row.sentUs = f.time.micros();
    row.detail = CongestionLadderText::tr("%1 sent by %2 at %3 us")
                     .arg(row.label, QString::fromStdString(port.name))
                     .arg(row.sentUs, 0, 'f', 3);
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace rdmascope::ui
