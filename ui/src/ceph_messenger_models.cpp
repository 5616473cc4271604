#include "rdmascope/ui/ceph_messenger_models.h"

#include <QCoreApplication>

namespace rdmascope::ui {

namespace {

QString who(int host) {
  return host == 0 ? QCoreApplication::translate("CephMessenger", "client")
                   : QCoreApplication::translate("CephMessenger", "OSD");
}

}  // namespace

QString stepText(const sim::CephStep& s) {
  using K = sim::CephStepKind;
  const QString w = who(s.host);
  switch (s.kind) {
    case K::SideChannelConnected:
      return QCoreApplication::translate(
          "CephMessenger", "The TCP connection between client and OSD is established.");
    case K::QpInfoSent:
      return QCoreApplication::translate(
                 "CephMessenger",
                 "%1 writes its QP information (lid:qpn:psn:peer_qpn:gid) to the TCP socket: %2")
          .arg(w, QString::fromStdString(s.text));
    case K::QpInfoReceived:
      return QCoreApplication::translate("CephMessenger", "%1 reads the peer's QP information: %2")
          .arg(w, QString::fromStdString(s.text));
    case K::QpReady:
      return QCoreApplication::translate(
                 "CephMessenger",
                 "%1 moves QP 0x%2 to RTR and RTS with the peer's QPN, PSN and GID.")
          .arg(w)
          .arg(s.qpn, 0, 16);
    case K::ReceivesPosted:
      return QCoreApplication::translate(
                 "CephMessenger",
                 "%1 posts %2 registered chunks (%3 bytes) to its shared receive queue.")
          .arg(w)
          .arg(s.chunks)
          .arg(s.bytes);
    case K::MessageSubmitted:
      return QCoreApplication::translate("CephMessenger", "%1 sends message %2 (%3 bytes).")
          .arg(w)
          .arg(s.message)
          .arg(s.bytes);
    case K::ChunkTaken:
      return QCoreApplication::translate("CephMessenger",
                                         "%1 takes send chunk %2 from the pool for %3 bytes.")
          .arg(w)
          .arg(s.chunk)
          .arg(s.bytes);
    case K::CopyIntoChunk:
      return QCoreApplication::translate(
                 "CephMessenger",
                 "%1's CPU copies %2 bytes of the bufferlist into registered chunk %3.")
          .arg(w)
          .arg(s.bytes)
          .arg(s.chunk);
    case K::ChunkInPlace:
      return QCoreApplication::translate(
                 "CephMessenger", "The bufferlist already lives in registered chunk %1: no copy.")
          .arg(s.chunk);
    case K::PostSend:
      return QCoreApplication::translate(
                 "CephMessenger",
                 "%1 posts %2 signalled SEND work request(s), %3 bytes, with one ibv_post_send.")
          .arg(w)
          .arg(s.chunks)
          .arg(s.bytes);
    case K::SendCompletion:
      return s.chunk < 0 ? QCoreApplication::translate("CephMessenger",
                                                       "%1 polls the send completion of the fin.")
                               .arg(w)
                         : QCoreApplication::translate("CephMessenger",
                                                       "%1 polls the send completion of chunk %2.")
                               .arg(w)
                               .arg(s.chunk);
    case K::ChunkReturned:
      return QCoreApplication::translate("CephMessenger",
                                         "Send chunk %1 goes back to the %2's pool.")
          .arg(s.chunk)
          .arg(w);
    case K::PoolEmpty:
      return QCoreApplication::translate(
                 "CephMessenger", "%1's send pool is empty: %2 bytes wait for send completions.")
          .arg(w)
          .arg(s.bytes);
    case K::RecvCompletion:
      return QCoreApplication::translate("CephMessenger",
                                         "%1 polls a receive completion: chunk %2 holds %3 bytes.")
          .arg(w)
          .arg(s.chunk)
          .arg(s.bytes);
    case K::Notified:
      return QCoreApplication::translate(
                 "CephMessenger",
                 "%1's dispatcher wakes the connection's worker (eventfd write and read).")
          .arg(w);
    case K::CopyOut:
      return QCoreApplication::translate("CephMessenger",
                                         "%1's CPU copies %2 bytes out of chunk %3 to the reader.")
          .arg(w)
          .arg(s.bytes)
          .arg(s.chunk);
    case K::ChunkReposted:
      return QCoreApplication::translate("CephMessenger",
                                         "%1 posts chunk %2 back to the shared receive queue.")
          .arg(w)
          .arg(s.chunk);
    case K::MessageDelivered:
      return QCoreApplication::translate("CephMessenger", "%1 holds all %2 bytes of message %3.")
          .arg(w)
          .arg(s.bytes)
          .arg(s.message);
    case K::FinSent:
      return QCoreApplication::translate("CephMessenger",
                                         "%1 closes: a zero-length signalled SEND (the fin).")
          .arg(w);
    case K::FinReceived:
      return QCoreApplication::translate(
                 "CephMessenger", "%1 gets a zero-length receive completion: the peer closed.")
          .arg(w);
    case K::SocketSend:
      return QCoreApplication::translate("CephMessenger", "%1 calls send() with %2 bytes.")
          .arg(w)
          .arg(s.bytes);
    case K::SocketCopyIn:
      return QCoreApplication::translate("CephMessenger",
                                         "%1's kernel copies %2 bytes into the socket send buffer.")
          .arg(w)
          .arg(s.bytes);
    case K::SocketRecv:
      return QCoreApplication::translate("CephMessenger", "%1 calls recv().").arg(w);
    case K::SocketCopyOut:
      return QCoreApplication::translate(
                 "CephMessenger", "%1's kernel copies %2 bytes from the socket to the reader.")
          .arg(w)
          .arg(s.bytes);
    case K::SocketClosed:
      return QCoreApplication::translate("CephMessenger", "The TCP connection closes.");
  }
  return {};
}

CephComparisonModel::CephComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void CephComparisonModel::clear() {
  beginResetModel();
  rows_.clear();
  endResetModel();
}

void CephComparisonModel::setReports(const sim::CephStackReport& rdma,
                                     const sim::CephStackReport& posix) {
  beginResetModel();
  rows_.clear();
  const sim::CephStackReport* r[2] = {&rdma, &posix};
  auto add = [this](const QString& name, auto text, auto value) {
    Row row;
    row.name = name;
    for (int i = 0; i < 2; ++i) {
      row.text[i] = text(i);
      if (const std::optional<double> v = value(i)) {
        row.value[i] = *v;
        row.hasValue[i] = true;
      }
    }
    rows_.push_back(std::move(row));
  };
  auto count = [&](const QString& name, auto field) {
    add(
        name, [&](int i) { return QString::number(field(*r[i])); },
        [&](int i) { return std::optional<double>(static_cast<double>(field(*r[i]))); });
  };
  auto perHost = [&](const QString& name, auto field) {
    add(
        name,
        [&](int i) {
          return QCoreApplication::translate("CephMessenger", "%1 / %2")
              .arg(field(r[i]->hosts[0]))
              .arg(field(r[i]->hosts[1]));
        },
        [&](int i) {
          return std::optional<double>(
              static_cast<double>(field(r[i]->hosts[0]) + field(r[i]->hosts[1])));
        });
  };
  count(QCoreApplication::translate("CephMessenger", "Frames on the wire"),
        [](const auto& x) { return x.frames.size(); });
  count(QCoreApplication::translate("CephMessenger", "RoCEv2 frames"),
        [](const auto& x) { return x.roceFrames; });
  count(QCoreApplication::translate("CephMessenger", "TCP frames"),
        [](const auto& x) { return x.tcpFrames; });
  count(QCoreApplication::translate("CephMessenger", "Wire bytes"),
        [](const auto& x) { return x.wireBytes; });
  count(QCoreApplication::translate("CephMessenger", "Message bytes delivered"),
        [](const auto& x) { return x.payloadBytes; });
  perHost(QCoreApplication::translate("CephMessenger", "CPU copies (client / OSD)"),
          [](const auto& h) { return h.copies; });
  perHost(QCoreApplication::translate("CephMessenger", "Bytes copied by the CPU (client / OSD)"),
          [](const auto& h) { return h.copyBytes; });
  perHost(QCoreApplication::translate("CephMessenger", "System calls (client / OSD)"),
          [](const auto& h) { return h.syscalls; });
  perHost(QCoreApplication::translate("CephMessenger", "Context switches (client / OSD)"),
          [](const auto& h) { return h.contextSwitches; });
  perHost(QCoreApplication::translate("CephMessenger", "Interrupts (client / OSD)"),
          [](const auto& h) { return h.interrupts; });
  perHost(QCoreApplication::translate("CephMessenger", "WQEs posted (client / OSD)"),
          [](const auto& h) { return h.doorbells; });
  perHost(QCoreApplication::translate("CephMessenger", "CQEs polled (client / OSD)"),
          [](const auto& h) { return h.cqPolls; });
  add(
      QCoreApplication::translate("CephMessenger", "CPU time, us (client / OSD)"),
      [&](int i) {
        return QCoreApplication::translate("CephMessenger", "%1 / %2")
            .arg(r[i]->hosts[0].cpuNs / 1000, 0, 'f', 1)
            .arg(r[i]->hosts[1].cpuNs / 1000, 0, 'f', 1);
      },
      [&](int i) { return std::optional<double>(r[i]->hosts[0].cpuNs + r[i]->hosts[1].cpuNs); });
  count(QCoreApplication::translate("CephMessenger", "SEND work requests"),
        [](const auto& x) { return x.sendWrs; });
  count(QCoreApplication::translate("CephMessenger", "Receive chunks reposted"),
        [](const auto& x) { return x.chunksReposted; });
  const std::size_t messages = std::max(rdma.latencyUs.size(), posix.latencyUs.size());
  for (std::size_t m = 0; m < messages; ++m) {
    add(
        QCoreApplication::translate("CephMessenger", "Latency of message %1, us").arg(m + 1),
        [&](int i) {
          return m < r[i]->latencyUs.size() ? QString::number(r[i]->latencyUs[m], 'f', 2)
                                            : QString();
        },
        [&](int i) {
          return m < r[i]->latencyUs.size() ? std::optional<double>(r[i]->latencyUs[m])
                                            : std::nullopt;
        });
  }
  add(
      QCoreApplication::translate("CephMessenger", "Close"),
      [&](int i) {
        if (i == 1) return QCoreApplication::translate("CephMessenger", "TCP FIN");
        return r[0]->finReceived ? QCoreApplication::translate("CephMessenger", "zero-length SEND")
                                 : QCoreApplication::translate("CephMessenger", "not seen");
      },
      [](int) { return std::optional<double>(); });
  add(
      QCoreApplication::translate("CephMessenger", "Data"),
      [&](int i) {
        return r[i]->dataIntact ? QCoreApplication::translate("CephMessenger", "intact")
                                : QCoreApplication::translate("CephMessenger", "NOT intact");
      },
      [&](int i) { return std::optional<double>(r[i]->dataIntact ? 1 : 0); });
  endResetModel();
}

int CephComparisonModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int CephComparisonModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant CephComparisonModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const Row& row = rows_[static_cast<std::size_t>(index.row())];
  if (role == Qt::DisplayRole)
    return index.column() == Name ? row.name : row.text[index.column() - 1];
  if (role == ValueRole && index.column() != Name && row.hasValue[index.column() - 1])
    return row.value[index.column() - 1];
  if (role == Qt::TextAlignmentRole && index.column() != Name)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant CephComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Name:
      return QCoreApplication::translate("CephMessenger", "Figure");
    case Rdma:
      return QCoreApplication::translate("CephMessenger", "async+rdma (RDMA stack)");
    case Posix:
      return QCoreApplication::translate("CephMessenger", "async+posix (TCP stack)");
    default:
      return {};
  }
}

int CephComparisonModel::rowNamed(const QString& name) const {
  for (std::size_t i = 0; i < rows_.size(); ++i)
    if (rows_[i].name == name) return static_cast<int>(i);
  return -1;
}

CephStepsModel::CephStepsModel(QObject* parent) : QAbstractTableModel(parent) {}

void CephStepsModel::setSteps(std::vector<sim::CephStep> steps) {
  beginResetModel();
  steps_ = std::move(steps);
  endResetModel();
}

int CephStepsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(steps_.size());
}

int CephStepsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant CephStepsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto& s = steps_[static_cast<std::size_t>(index.row())];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Time:
        return QString::number(s.time.micros(), 'f', 3);
      case Host:
        return who(s.host);
      case Step:
        return QString::fromUtf8(sim::toString(s.kind).data(),
                                 static_cast<qsizetype>(sim::toString(s.kind).size()));
      case Text:
        return stepText(s);
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole && index.column() == Text) return stepText(s);
  if (role == Qt::TextAlignmentRole && index.column() == Time)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant CephStepsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Time:
      return QCoreApplication::translate("CephMessenger", "Time (us)");
    case Host:
      return QCoreApplication::translate("CephMessenger", "Host");
    case Step:
      return QCoreApplication::translate("CephMessenger", "Step");
    case Text:
      return QCoreApplication::translate("CephMessenger", "What happened");
    default:
      return {};
  }
}

}  // namespace rdmascope::ui
