#include "rdmascope/ui/transport_host_pane.h"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "rdmascope/ui/transport_state_model.h"

namespace rdmascope::ui {

namespace {

int scaled(std::uint64_t v) {
  return static_cast<int>(std::min<std::uint64_t>(v, 0x7fffffff));
}

}  // namespace

TransportHostPane::TransportHostPane(const QString& title, QWidget* parent) : QWidget(parent) {
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(4, 4, 4, 4);
  title_ = new QLabel(this);
  title_->setObjectName(QStringLiteral("transportHostTitle"));
  QFont bold = title_->font();
  bold.setBold(true);
  title_->setFont(bold);
  setTitle(title);
  sendLabel_ = new QLabel(this);
  sendLabel_->setWordWrap(true);
  sendBar_ = new QProgressBar(this);
  sendBar_->setObjectName(QStringLiteral("sendBuffer"));
  sendBar_->setTextVisible(false);
  recvLabel_ = new QLabel(this);
  recvLabel_->setWordWrap(true);
  recvBar_ = new QProgressBar(this);
  recvBar_->setObjectName(QStringLiteral("receiveBuffer"));
  recvBar_->setTextVisible(false);
  stepsLabel_ = new QLabel(tr("Connection (rdma_cm and MPA):"), this);
  steps_ = new QListWidget(this);
  steps_->setObjectName(QStringLiteral("connectionSteps"));
  steps_->setMaximumHeight(fontMetrics().height() * 7);
  model_ = new TransportStateModel(this);
  table_ = new QTableView(this);
  table_->setObjectName(QStringLiteral("transportState"));
  table_->setModel(model_);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setColumnWidth(
      TransportStateModel::Quantity,
      fontMetrics().horizontalAdvance(QStringLiteral("Copied receive buffer → app  ")));
  table_->setShowGrid(false);
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  table_->setFocusPolicy(Qt::NoFocus);
  l->addWidget(title_);
  l->addWidget(stepsLabel_);
  l->addWidget(steps_);
  l->addWidget(sendLabel_);
  l->addWidget(sendBar_);
  l->addWidget(recvLabel_);
  l->addWidget(recvBar_);
  l->addWidget(table_, 1);
  setState(RecordingTransport::TcpSockets, nullptr, nullptr);
}

void TransportHostPane::setTitle(const QString& title) {
  title_->setText(title);
}

QString TransportHostPane::connectionStepName(sim::Narrative step, const IwarpHostState& s) {
  using N = sim::Narrative;
  switch (step) {
    case N::RdmaCmBind:
      return tr("rdma_bind_addr: port %1").arg(s.port);
    case N::RdmaCmListen:
      return tr("rdma_listen: waits for connection requests");
    case N::RdmaCmResolve:
      return tr("rdma_resolve_addr, rdma_resolve_route");
    case N::RdmaCmConnect:
      return tr("rdma_connect: the RNIC opens TCP to port %1").arg(s.port);
    case N::TcpEstablished:
      return tr("TCP connection established (SYN, SYN-ACK, ACK)");
    case N::MpaRequestSent:
      return tr("MPA Request sent");
    case N::MpaRequestReceived:
      return tr("MPA Request received: event CONNECT_REQUEST");
    case N::RdmaCmAccept:
      return tr("rdma_accept");
    case N::MpaReplySent:
      return tr("MPA Reply sent");
    case N::MpaReplyReceived:
      return tr("MPA Reply received");
    case N::RdmaCmEstablished:
      return tr("event ESTABLISHED: DDP segments may flow");
    default:
      return QString::fromUtf8(sim::toString(step).data(),
                               static_cast<qsizetype>(sim::toString(step).size()));
  }
}

void TransportHostPane::setState(RecordingTransport transport, const TransportHostState* state,
                                 const TransportHostState* previous) {
  const bool iwarp = transport == RecordingTransport::Iwarp;
  model_->setState(transport, state, previous);
  stepsLabel_->setVisible(iwarp);
  steps_->setVisible(iwarp);
  if (isCeph(transport)) {
    setCephState(transport, state);
    return;
  }
  sendLabel_->setVisible(true);
  sendBar_->setVisible(true);
  recvLabel_->setVisible(!iwarp);
  recvBar_->setVisible(!iwarp);
  const SocketBufferState empty;
  const SocketBufferState& s = state ? state->socket : empty;
  // Scaled to the message: SO_SNDBUF (4 MiB) would hide a 64 KiB transfer in one pixel.
  sendBar_->setRange(0, std::max(1, scaled(std::min(s.message, s.sendCapacity))));
  sendBar_->setValue(scaled(s.sendQueued));
  recvBar_->setRange(0, std::max(1, scaled(s.recvCapacity)));
  recvBar_->setValue(scaled(std::min(s.recvQueued, s.recvCapacity)));
  if (iwarp)
    sendLabel_->setText(
        tr("TCP send queue in the RNIC: %1 bytes, %2 in flight").arg(s.sendQueued).arg(s.inFlight));
  else
    sendLabel_->setText(
        tr("Socket send buffer (SO_SNDBUF %2 bytes): %1 bytes queued, %3 in flight, %4 "
           "acknowledged")
            .arg(s.sendQueued)
            .arg(s.sendCapacity)
            .arg(s.inFlight)
            .arg(s.acked));
  recvLabel_->setText(tr("Socket receive buffer: %1 bytes waiting, %2 copied to the application")
                          .arg(s.recvQueued)
                          .arg(s.copiedOut));
  steps_->clear();
  if (state) {
    const auto& done = state->iwarp.connection;
    const std::size_t before = previous ? previous->iwarp.connection.size() : 0;
    for (std::size_t i = 0; i < done.size(); ++i) {
      auto* item = new QListWidgetItem(
          QStringLiteral("%1. %2").arg(i + 1).arg(connectionStepName(done[i], state->iwarp)),
          steps_);
      if (i >= before) {
        QFont f = item->font();
        f.setBold(true);
        item->setFont(f);
      }
    }
    if (!done.empty()) steps_->scrollToBottom();
  }
}

void TransportHostPane::setCephState(RecordingTransport transport,
                                     const TransportHostState* state) {
  // The RDMA stack's chunk pools; the POSIX stack's socket buffers are the kernel's (its
  // counters are in the table).
  const bool rdma = transport == RecordingTransport::CephRdma;
  sendLabel_->setVisible(rdma);
  sendBar_->setVisible(rdma);
  recvLabel_->setVisible(rdma);
  recvBar_->setVisible(rdma);
  if (!rdma) return;
  if (!state) {
    sendBar_->setRange(0, 1);
    sendBar_->setValue(0);
    recvBar_->setRange(0, 1);
    recvBar_->setValue(0);
    sendLabel_->setText(tr("Send pool: no registered chunks yet"));
    recvLabel_->setText(tr("Shared receive queue: no chunks posted yet"));
    return;
  }
  const CephHostState& c = state->ceph;
  const std::uint32_t inUse = c.sendPool - std::min(c.sendPool, c.sendPoolFree);
  // Scaled to the chunks a message needs at most, so that three chunks are visible.
  sendBar_->setRange(0, static_cast<int>(std::max<std::uint32_t>(1, std::min(c.sendPool, 8u))));
  sendBar_->setValue(static_cast<int>(std::min(inUse, 8u)));
  sendLabel_->setText(tr("Send pool: %1 of %2 registered chunks of %3 KiB carry SENDs")
                          .arg(inUse)
                          .arg(c.sendPool)
                          .arg(c.chunkBytes / 1024));
  recvBar_->setRange(0, static_cast<int>(std::max<std::uint32_t>(1, c.srqDepth)));
  recvBar_->setValue(static_cast<int>(std::min(c.srqPosted, c.srqDepth)));
  recvLabel_->setText(
      tr("Shared receive queue: %1 of %2 chunks posted, %3 received and not yet copied out")
          .arg(c.srqPosted)
          .arg(c.srqDepth)
          .arg(c.chunksHeld));
}

}  // namespace rdmascope::ui
