#include "rdmascope/ui/analysis_models.h"

#include <QBrush>
#include <QCoreApplication>

#include "rdmascope/ui/anomaly_text.h"
#include "rdmascope/ui/glossary.h"

namespace rdmascope::ui {

namespace {

QString qs(std::string_view s) {
  return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString connectionName(const CaptureAnalysis& a, int id) {
  const int row = a.rowOfConnection(id);
  if (row < 0) return QStringLiteral("-");
  const auto& c = a.report.connections[static_cast<std::size_t>(row)];
  return QStringLiteral("#%1 %2 \u2194 %3")
      .arg(id + 1)
      .arg(QString::fromStdString(c.a.address), QString::fromStdString(c.b.address));
}

}  // namespace

QString endpointText(const analysis::Endpoint& endpoint) {
  QString text = QString::fromStdString(endpoint.address);
  if (endpoint.qp) text += QStringLiteral("  QP 0x%1").arg(*endpoint.qp, 6, 16, QLatin1Char('0'));
  if (endpoint.port) {  // iWARP: the TCP port (IPv6 addresses in brackets, as in URLs)
    if (text.contains(QLatin1Char(':'))) text = QLatin1Char('[') + text + QLatin1Char(']');
    text += QStringLiteral(":%1").arg(*endpoint.port);
  }
  return text;
}

QString durationText(double s) {
  if (s < 0) return QStringLiteral("-");
  if (s < 1e-6) return QStringLiteral("%1 ns").arg(s * 1e9, 0, 'f', 0);
  if (s < 1e-3) return QStringLiteral("%1 us").arg(s * 1e6, 0, 'f', s < 1e-5 ? 2 : 1);
  if (s < 1.0) return QStringLiteral("%1 ms").arg(s * 1e3, 0, 'f', s < 1e-2 ? 2 : 1);
  return QStringLiteral("%1 s").arg(s, 0, 'f', 2);
}

QString byteRateText(double r) {
  if (r < 0) return QStringLiteral("-");
  static const char* units[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
  int u = 0;
  while (r >= 1000 && u < 4) {
    r /= 1000;
    ++u;
  }
  return QStringLiteral("%1 %2")
      .arg(r, 0, 'f', r < 10 ? 2 : (r < 100 ? 1 : 0))
      .arg(QLatin1String(units[u]));
}

AnomalyStyle anomalyStyle(analysis::AnomalyKind kind) {
  using K = analysis::AnomalyKind;
  switch (kind) {
    case K::Nak:
      return {QColor(0xd0, 0x20, 0x20), QStringLiteral("N"),
              QCoreApplication::translate("AnomalyStyle", "NAK")};
    case K::RnrNak:
      return {QColor(0xe6, 0x7e, 0x00), QStringLiteral("R"),
              QCoreApplication::translate("AnomalyStyle", "RNR NAK")};
    case K::Retransmission:
      return {QColor(0x8e, 0x24, 0xaa), QStringLiteral("\u21bb"),
              QCoreApplication::translate("AnomalyStyle", "Resend")};
    case K::PsnGap:
      return {QColor(0xb5, 0x8b, 0x00), QStringLiteral("G"),
              QCoreApplication::translate("AnomalyStyle", "PSN gap")};
    case K::Duplicate:
      return {QColor(0x1e, 0x6f, 0xd9), QStringLiteral("D"),
              QCoreApplication::translate("AnomalyStyle", "Duplicate")};
    case K::Timeout:
      return {QColor(0x6d, 0x4c, 0x41), QStringLiteral("T"),
              QCoreApplication::translate("AnomalyStyle", "Timeout")};
    case K::IcrcFailure:
      return {QColor(0xc2, 0x18, 0x5b), QStringLiteral("\u2717"),
              QCoreApplication::translate("AnomalyStyle", "ICRC failure")};
    case K::Cnp:
      return {QColor(0x00, 0x89, 0x7b), QStringLiteral("C"),
              QCoreApplication::translate("AnomalyStyle", "CNP")};
    case K::EcnCe:
    case K::Fecn:
    case K::Becn:
      return {QColor(0x43, 0xa0, 0x47), QStringLiteral("E"),
              QCoreApplication::translate("AnomalyStyle", "ECN mark")};
    case K::IncompleteMessage:
      return {QColor(0x61, 0x61, 0x61), QStringLiteral("?"),
              QCoreApplication::translate("AnomalyStyle", "Incomplete")};
    case K::SegmentGap:  // iWARP's TCP findings in the colours of their RoCE counterparts
      return {QColor(0xb5, 0x8b, 0x00), QStringLiteral("G"),
              QCoreApplication::translate("AnomalyStyle", "Segment gap")};
    case K::OutOfOrder:
      return {QColor(0x00, 0x83, 0x8f), QStringLiteral("O"),
              QCoreApplication::translate("AnomalyStyle", "Out of order")};
    case K::CrcFailure:
      return {QColor(0xc2, 0x18, 0x5b), QStringLiteral("\u2717"),
              QCoreApplication::translate("AnomalyStyle", "CRC failure")};
    case K::Terminate:
      return {QColor(0xd0, 0x20, 0x20), QStringLiteral("X"),
              QCoreApplication::translate("AnomalyStyle", "Terminate")};
    case K::MpaReject:
      return {QColor(0xd0, 0x20, 0x20), QStringLiteral("J"),
              QCoreApplication::translate("AnomalyStyle", "MPA reject")};
    case K::PauseStorm:
      return {QColor(0xad, 0x14, 0x57), QStringLiteral("P"),
              QCoreApplication::translate("AnomalyStyle", "Pause storm")};
    case K::VictimFlow:
      return {QColor(0x5e, 0x35, 0xb1), QStringLiteral("V"),
              QCoreApplication::translate("AnomalyStyle", "Victim flow")};
    case K::CnpWithoutMark:
      return {QColor(0x00, 0x89, 0x7b), QStringLiteral("c"),
              QCoreApplication::translate("AnomalyStyle", "CNP, no mark seen")};
    default:  // gap filled, reordered, repeated response, and kinds added later
      break;
  }
  return {QColor(0x78, 0x90, 0x9c), QStringLiteral("\u2022"),
          QCoreApplication::translate("AnomalyStyle", "Other")};
}

QString anomalyKindName(analysis::AnomalyKind kind) {
  using K = analysis::AnomalyKind;
  const char* name = nullptr;
  switch (kind) {
    case K::PsnGap:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "PSN gap");
      break;
    case K::Retransmission:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "Retransmission");
      break;
    case K::Duplicate:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "Duplicate");
      break;
    case K::GapFilled:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "Gap filled");
      break;
    case K::Reordered:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "Reordered");
      break;
    case K::Timeout:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "Timeout");
      break;
    case K::Nak:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "NAK");
      break;
    case K::RnrNak:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "RNR NAK");
      break;
    case K::Cnp:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "CNP");
      break;
    case K::EcnCe:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "ECN CE mark");
      break;
    case K::Fecn:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "FECN");
      break;
    case K::Becn:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "BECN");
      break;
    case K::IcrcFailure:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "ICRC failure");
      break;
    case K::RepeatedResponse:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "Repeated response");
      break;
    case K::IncompleteMessage:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "Incomplete message");
      break;
    case K::SegmentGap:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "TCP segment gap");
      break;
    case K::OutOfOrder:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "TCP out of order");
      break;
    case K::CrcFailure:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "MPA CRC failure");
      break;
    case K::Terminate:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "RDMAP Terminate");
      break;
    case K::MpaReject:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "MPA reject");
      break;
    case K::CmReject:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "CM reject");
      break;
    case K::PauseStorm:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "Pause storm");
      break;
    case K::VictimFlow:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "Victim flow");
      break;
    case K::CnpWithoutMark:
      name = QT_TRANSLATE_NOOP("AnomalyKind", "CNP without a mark");
      break;
  }
  if (!name) return qs(analysis::toString(kind));  // a kind added later: its identifier
  return QCoreApplication::translate("AnomalyKind", name);
}

const std::vector<analysis::AnomalyKind>& legendKinds() {
  using K = analysis::AnomalyKind;
  static const std::vector<K> kinds = {
      K::Nak,        K::RnrNak,         K::Retransmission,    K::PsnGap,
      K::Duplicate,  K::Timeout,        K::IcrcFailure,       K::Cnp,
      K::EcnCe,      K::SegmentGap,     K::OutOfOrder,        K::CrcFailure,
      K::Terminate,  K::MpaReject,      K::IncompleteMessage, K::PauseStorm,
      K::VictimFlow, K::CnpWithoutMark, K::GapFilled};
  return kinds;
}

bool anomalyKindApplies(analysis::AnomalyKind kind, analysis::Carrier carrier) {
  using K = analysis::AnomalyKind;
  const bool iwarp = carrier == analysis::Carrier::Iwarp;
  switch (kind) {
    case K::SegmentGap:
    case K::OutOfOrder:
    case K::CrcFailure:
    case K::Terminate:
    case K::MpaReject:
      return iwarp;
    case K::Retransmission:
    case K::Duplicate:
    case K::Timeout:
    case K::IncompleteMessage:
      return true;
    default:
      return !iwarp;
  }
}

// ---- conversations -----------------------------------------------------------------------------

ConversationModel::ConversationModel(QObject* parent) : QAbstractTableModel(parent) {}

void ConversationModel::setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis) {
  beginResetModel();
  analysis_ = std::move(analysis);
  rows_.clear();
  if (analysis_) {
    for (const auto& c : analysis_->report.connections) {
      Row r;
      analysis::LatencyStats latency;
      std::uint64_t completed = 0;
      for (const auto& d : c.dir) {
        completed += d.messages;
        r.messages += d.messages + d.failedMessages + d.incompleteMessages;
        r.bytes += d.payloadBytes;
        r.naks += d.naks;
        r.rnrNaks += d.rnrNaks;
        r.resends += d.resentFrames;
        r.gaps += d.psnGaps;
        r.icrc += d.icrcFailures;
        r.incomplete += d.incompleteMessages;
        latency.merge(d.latency);
      }
      const double span = c.lastTime - c.firstTime;
      r.throughput = span > 0 ? static_cast<double>(r.bytes) / span : -1;
      r.messageRate = span > 0 ? static_cast<double>(completed) / span : -1;
      if (latency.count()) {
        r.p50 = static_cast<double>(latency.percentile(50)) * 1e-9;
        r.p99 = static_cast<double>(latency.percentile(99)) * 1e-9;
      }
      rows_.push_back(r);
    }
  }
  endResetModel();
}

int ConversationModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ConversationModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

int ConversationModel::connectionAt(int row) const {
  if (!analysis_ || row < 0 || row >= rowCount()) return -1;
  return analysis_->report.connections[static_cast<std::size_t>(row)].id;
}

QVariant ConversationModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
  const auto& c = analysis_->report.connections[static_cast<std::size_t>(index.row())];
  const Row& r = rows_[static_cast<std::size_t>(index.row())];
  const auto col = static_cast<Column>(index.column());
  auto number = [&](std::uint64_t v) -> QVariant {
    if (role == kSortRole) return QVariant::fromValue<qulonglong>(v);
    return QString::number(v);
  };
  auto real = [&](double v, const QString& text) -> QVariant {
    if (role == kSortRole) return v;
    return text;
  };
  if (role == Qt::TextAlignmentRole)
    return col >= Frames ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                         : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
  if (role == Qt::ForegroundRole) {
    const bool trouble = (col == Naks && r.naks) || (col == RnrNaks && r.rnrNaks) ||
                         (col == Resends && r.resends) || (col == Gaps && r.gaps) ||
                         (col == IcrcFailures && r.icrc) || (col == Incomplete && r.incomplete);
    return trouble ? QVariant(QBrush(QColor(0xc0, 0x20, 0x20))) : QVariant();
  }
  if (role == Qt::ToolTipRole) {
    return tr("Connection #%1: %2 \u2194 %3\nFrames %4 to %5\nDisplay filter: %6")
        .arg(c.id + 1)
        .arg(endpointText(c.a), endpointText(c.b))
        .arg(c.firstFrame)
        .arg(c.lastFrame)
        .arg(QString::fromStdString(connectionFilter(c)));
  }
  if (role != Qt::DisplayRole && role != kSortRole) return {};
  switch (col) {
    case Carrier:
      return qs(analysis::toString(c.carrier));
    case Transport:
      return QString::fromStdString(c.transport);
    case EndpointA:
      return endpointText(c.a);
    case EndpointB:
      return endpointText(c.b);
    case Frames:
      return number(c.frames);
    case Messages:
      return number(r.messages);
    case Bytes:
      return number(r.bytes);
    case Throughput:
      return real(r.throughput, byteRateText(r.throughput));
    case MessageRate:
      return real(r.messageRate, r.messageRate < 0
                                     ? QStringLiteral("-")
                                     : QStringLiteral("%1/s").arg(r.messageRate, 0, 'f', 1));
    case LatencyP50:
      return real(r.p50, durationText(r.p50));
    case LatencyP99:
      return real(r.p99, durationText(r.p99));
    case Naks:
      return number(r.naks);
    case RnrNaks:
      return number(r.rnrNaks);
    case Resends:
      return number(r.resends);
    case Gaps:
      return number(r.gaps);
    case IcrcFailures:
      return number(r.icrc);
    case Incomplete:
      return number(r.incomplete);
    case ColumnCount:
      break;
  }
  return {};
}

QVariant ConversationModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
  static const char* names[] = {
      QT_TR_NOOP("Carrier"),    QT_TR_NOOP("Transport"),  QT_TR_NOOP("Endpoint A"),
      QT_TR_NOOP("Endpoint B"), QT_TR_NOOP("Frames"),     QT_TR_NOOP("Messages"),
      QT_TR_NOOP("Bytes"),      QT_TR_NOOP("Throughput"), QT_TR_NOOP("Msg rate"),
      QT_TR_NOOP("Lat. p50"),   QT_TR_NOOP("Lat. p99"),   QT_TR_NOOP("NAKs"),
      QT_TR_NOOP("RNR NAKs"),   QT_TR_NOOP("Resends"),    QT_TR_NOOP("Gaps"),
      QT_TR_NOOP("ICRC bad"),   QT_TR_NOOP("Incomplete")};
  static const char* tips[] = {
      QT_TR_NOOP("How the InfiniBand transport was carried"),
      QT_TR_NOOP("Service type of the QPs"),
      QT_TR_NOOP("The side that sent the first frame: address and QP number"),
      QT_TR_NOOP("The other side"),
      QT_TR_NOOP("Frames of this connection, both directions"),
      QT_TR_NOOP("Messages seen (completed, failed or incomplete)"),
      QT_TR_NOOP("Payload bytes of first transmissions"),
      QT_TR_NOOP("Payload bytes per second over the connection's active time"),
      QT_TR_NOOP("Completed messages per second"),
      QT_TR_NOOP("Median latency from a request's first packet to its ACK or response"),
      QT_TR_NOOP("99th percentile latency"),
      QT_TR_NOOP("NAKs other than RNR NAKs"),
      QT_TR_NOOP("Receiver-not-ready NAKs"),
      QT_TR_NOOP("Request frames sent again"),
      QT_TR_NOOP("PSN gaps (frames missing from the capture)"),
      QT_TR_NOOP("Frames with a wrong invariant CRC"),
      QT_TR_NOOP("Messages unfinished when the capture ended")};
  if (role == Qt::DisplayRole) return tr(names[section]);
  if (role == Qt::ToolTipRole) return tr(tips[section]);
  return {};
}

// ---- anomalies ---------------------------------------------------------------------------------

AnomalyModel::AnomalyModel(QObject* parent) : QAbstractTableModel(parent) {}

void AnomalyModel::setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis) {
  beginResetModel();
  analysis_ = std::move(analysis);
  endResetModel();
}

int AnomalyModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !analysis_) return 0;
  return static_cast<int>(analysis_->report.anomalies.size());
}

int AnomalyModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

const analysis::Anomaly* AnomalyModel::anomalyAt(int row) const {
  if (row < 0 || row >= rowCount()) return nullptr;
  return &analysis_->report.anomalies[static_cast<std::size_t>(row)];
}

qint64 AnomalyModel::frameAt(int row) const {
  const auto* a = anomalyAt(row);
  return a && a->frame > 0 ? static_cast<qint64>(a->frame - 1) : -1;
}

QVariant AnomalyModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.column() >= ColumnCount) return {};
  const auto* a = anomalyAt(index.row());
  if (!a) return {};
  const auto col = static_cast<Column>(index.column());
  if (role == Qt::DecorationRole && col == Kind) return anomalyStyle(a->kind).color;
  if (role == Qt::TextAlignmentRole)
    return col == Frame || col == Time ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                       : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole) {
    const QString term = Glossary::keyForAnomaly(a->kind);
    const QString detail = col == Kind
                               ? tr("%1 (%2 in the report of rdmascope-cli analyze)")
                                     .arg(anomalyKindName(a->kind), qs(analysis::toString(a->kind)))
                               : anomalyDetail(*a);
    return detail + (term.isEmpty() ? QString() : QStringLiteral("\n\n") + Glossary::tooltip(term));
  }
  if (role != Qt::DisplayRole && role != kSortRole) return {};
  switch (col) {
    case Kind:
      return anomalyKindName(a->kind);
    case Frame:
      return role == kSortRole ? QVariant::fromValue<qulonglong>(a->frame)
                               : QVariant(QString::number(a->frame));
    case Time:
      return role == kSortRole ? QVariant(a->time) : QVariant(QString::number(a->time, 'f', 6));
    case Connection:
      return connectionName(*analysis_, a->connection);
    case Detail:
      return anomalyDetail(*a);
    case ColumnCount:
      break;
  }
  return {};
}

QVariant AnomalyModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
      section >= ColumnCount)
    return {};
  static const char* names[] = {QT_TR_NOOP("Kind"), QT_TR_NOOP("Frame"), QT_TR_NOOP("Time"),
                                QT_TR_NOOP("Connection"), QT_TR_NOOP("Detail")};
  return tr(names[section]);
}

}  // namespace rdmascope::ui
