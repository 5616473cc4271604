#include "rdmascope/ui/transport_choice.h"

#include <QComboBox>

#include "rdmascope/sim/network.h"
#include "rdmascope/ui/transport_recording.h"

namespace rdmascope::ui {

namespace {

bool isWireFormat(int transport) {
  return transport != kTransportIwarp && transport != kTransportTcpSockets;
}

QString iwarpCounterpart(const QString& verbs) {
  if (verbs == QLatin1String("rc-write") || verbs == QLatin1String("uc-write"))
    return QStringLiteral("iwarp-write");
  if (verbs == QLatin1String("rc-read")) return QStringLiteral("iwarp-read");
  return QStringLiteral("iwarp-send-recv");
}

QString verbsCounterpart(const QString& transfer) {
  if (transfer == QLatin1String("iwarp-write")) return QStringLiteral("rc-write");
  if (transfer == QLatin1String("iwarp-read")) return QStringLiteral("rc-read");
  return QStringLiteral("rc-send-recv");
}

}  // namespace

void TransportChoice::addItems(QComboBox& box) {
  box.addItem(tr("iWARP"), kTransportIwarp);
  box.addItem(tr("TCP sockets"), kTransportTcpSockets);
}

int TransportChoice::transportOf(const QString& scenario) {
  switch (transportOfScenario(scenario.toStdString())) {
    case RecordingTransport::Iwarp:
      return kTransportIwarp;
    case RecordingTransport::TcpSockets:
    case RecordingTransport::CephPosix:
      return kTransportTcpSockets;
    case RecordingTransport::Verbs:
    case RecordingTransport::CephRdma:
      break;
  }
  return -1;
}

TransportDecision TransportChoice::forScenario(const QString& scenario, int transport,
                                               const QString& transportName) {
  TransportDecision d{scenario, transport, {}};
  const int needs = transportOf(scenario);
  if (needs == kTransportIwarp && transport != needs) {
    d.transport = needs;
    d.note = tr("%1 runs over iWARP (RDMAP, DDP and MPA over TCP in the RNIC), not over %2: "
                "Transport set to iWARP.")
                 .arg(scenario, transportName);
  } else if (needs == kTransportTcpSockets && transport != needs) {
    d.transport = needs;
    d.note = tr("%1 runs over the kernel's TCP/IP sockets, not over %2: Transport set to TCP "
                "sockets.")
                 .arg(scenario, transportName);
  } else if (needs < 0 && !isWireFormat(transport)) {
    d.transport = static_cast<int>(sim::WireFormat::RoceV2Ipv4);
    d.note = tr("%1 is a verbs scenario for RoCE or InfiniBand, not for %2: Transport set to "
                "RoCEv2 (IPv4).")
                 .arg(scenario, transportName);
  }
  return d;
}

TransportDecision TransportChoice::forTransport(const QString& scenario, int transport,
                                                const QString& transportName) {
  TransportDecision d{scenario, transport, {}};
  const int has = transportOf(scenario);
  if (transport == kTransportIwarp && has != kTransportIwarp) {
    d.scenario = has < 0 ? iwarpCounterpart(scenario) : QStringLiteral("iwarp-send-recv");
    d.note = tr("%1 does not run over iWARP: showing %2, its iWARP counterpart.")
                 .arg(scenario, d.scenario);
  } else if (transport == kTransportTcpSockets && has != kTransportTcpSockets) {
    d.scenario = QStringLiteral("tcp-stream");
    d.note = tr("%1 does not run over TCP sockets: showing tcp-stream, the same kind of "
                "transfer through send() and recv().")
                 .arg(scenario);
  } else if (isWireFormat(transport) && has >= 0) {
    d.scenario = verbsCounterpart(scenario);
    d.note = tr("%1 runs only over %2: showing %3, its verbs counterpart, over %4.")
                 .arg(scenario, has == kTransportIwarp ? tr("iWARP") : tr("TCP sockets"),
                      d.scenario, transportName);
  }
  return d;
}

QString TransportChoice::cmNote(const QString& scenario) {
  const int has = transportOf(scenario);
  if (has == kTransportIwarp)
    return tr("Connect with rdma_cm: %1 always connects through rdma_cm (bind, listen, connect, "
              "accept, then the MPA Request and Reply).")
        .arg(scenario);
  if (has == kTransportTcpSockets)
    return tr("Connect with rdma_cm does not apply to %1: sockets connect with connect() and "
              "accept().")
        .arg(scenario);
  return {};
}

}  // namespace rdmascope::ui
