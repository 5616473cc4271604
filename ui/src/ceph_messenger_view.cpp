#include "rdmascope/ui/ceph_messenger_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "rdmascope/ui/ceph_messenger_models.h"
#include "rdmascope/ui/frame_store.h"
#include "rdmascope/ui/packet_pane.h"

namespace rdmascope::ui {

namespace {

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent, int stretchColumn) {
  auto* t = new QTableView(parent);
  t->setModel(model);
  t->verticalHeader()->hide();
  t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 4);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->setWordWrap(false);
  t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  t->horizontalHeader()->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
  return t;
}

}  // namespace

CephMessengerView::CephMessengerView(QWidget* parent)
    : QWidget(parent), store_(std::make_unique<FrameStore>()) {
  setWindowTitle(tr("Ceph messenger: RDMA and TCP stacks - rdmascope"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);

  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Message size (KiB):"), this));
  size_ = new QSpinBox(this);
  size_->setRange(1, static_cast<int>(sim::kCephMaxMessageBytes / 1024));
  size_->setValue(300);
  size_->setToolTip(
      tr("Bytes of each message; the RDMA stack cuts it into 128 KiB chunks "
         "(ms_async_rdma_buffer_size)."));
  controls->addWidget(size_);
  controls->addWidget(new QLabel(tr("Messages:"), this));
  count_ = new QSpinBox(this);
  count_->setRange(1, 20);
  count_->setValue(3);
  controls->addWidget(count_);
  registered_ = new QCheckBox(tr("Bufferlist already in registered chunks"), this);
  registered_->setToolTip(
      tr("The client builds each message inside registered send chunks, so "
         "the RDMA stack posts them without copying."));
  controls->addWidget(registered_);
  runButton_ = new QPushButton(tr("&Run"), this);
  controls->addWidget(runButton_);
  controls->addStretch(1);
  controls->addWidget(new QLabel(tr("Frames of:"), this));
  framesOf_ = new QComboBox(this);
  framesOf_->addItem(tr("async+rdma"), static_cast<int>(sim::CephStack::Rdma));
  framesOf_->addItem(tr("async+posix"), static_cast<int>(sim::CephStack::Posix));
  controls->addWidget(framesOf_);
  layout->addLayout(controls);

  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(summary_);

  auto* vertical = new QSplitter(Qt::Vertical, this);
  auto* top = new QSplitter(Qt::Horizontal, vertical);
  comparison_ = new CephComparisonModel(this);
  rdmaSteps_ = new CephStepsModel(this);
  posixSteps_ = new CephStepsModel(this);
  auto group = [&](const QString& title, QAbstractItemModel* model, int stretch) {
    auto* box = new QGroupBox(title, top);
    auto* l = new QVBoxLayout(box);
    l->setContentsMargins(4, 4, 4, 4);
    auto* t = makeTable(model, box, stretch);
    l->addWidget(t);
    return t;
  };
  group(tr("async+rdma: the RDMA stack's steps"), rdmaSteps_, CephStepsModel::Text);
  group(tr("async+posix: the TCP stack's steps"), posixSteps_, CephStepsModel::Text);
  table_ = group(tr("Both stacks counted"), comparison_, CephComparisonModel::Name);
  top->setStretchFactor(0, 2);
  top->setStretchFactor(1, 2);
  top->setStretchFactor(2, 3);
  packets_ = new PacketPane(store_.get(), vertical);
  vertical->setStretchFactor(0, 1);
  vertical->setStretchFactor(1, 1);
  layout->addWidget(vertical, 1);

  connect(runButton_, &QPushButton::clicked, this, [this] { runFromControls(); });
  connect(framesOf_, &QComboBox::currentIndexChanged, this, [this](int) {
    showFramesOf(static_cast<sim::CephStack>(framesOf_->currentData().toInt()));
  });
}

CephMessengerView::~CephMessengerView() = default;

QString CephMessengerView::errorText() const {
  return summary_->property("error").toString();
}

bool CephMessengerView::runFromControls() {
  sim::CephMessengerOptions o;
  o.messageBytes = static_cast<std::uint64_t>(size_->value()) * 1024;
  o.messages = static_cast<std::uint32_t>(count_->value());
  o.preRegistered = registered_->isChecked();
  return run(o);
}

bool CephMessengerView::run(const sim::CephMessengerOptions& o) {
  std::string error;
  auto rdma = sim::runCephMessenger(sim::CephStack::Rdma, o, error);
  auto posix = rdma ? sim::runCephMessenger(sim::CephStack::Posix, o, error) : std::nullopt;
  if (!rdma || !posix) {
    summary_->setProperty("error", QString::fromStdString(error));
    summary_->setText(tr("Cannot run the Ceph messenger: %1").arg(QString::fromStdString(error)));
    return false;
  }
  summary_->setProperty("error", QString());
  rdma_ = std::move(rdma);
  posix_ = std::move(posix);
  comparison_->setReports(*rdma_, *posix_);
  // The figures stay whole: the splitter gives the table at least its columns' width.
  table_->resizeColumnsToContents();
  table_->setMinimumWidth(table_->horizontalHeader()->length() + 2 * table_->frameWidth() + 24);
  rdmaSteps_->setSteps(rdma_->steps);
  posixSteps_->setSteps(posix_->steps);
  const double cpuRdma = (rdma_->hosts[0].cpuNs + rdma_->hosts[1].cpuNs) / 1000;
  const double cpuTcp = (posix_->hosts[0].cpuNs + posix_->hosts[1].cpuNs) / 1000;
  summary_->setText(
      tr("%1 message(s) of %2 bytes from a client to an OSD. async+rdma: QP information over a "
         "TCP side channel, %3 KiB registered chunks, %4 bytes copied by the CPUs, %5 us of CPU. "
         "async+posix: %6 bytes copied, %7 system calls, %8 us of CPU.")
          .arg(o.messages)
          .arg(o.messageBytes)
          .arg(o.bufferSize / 1024)
          .arg(rdma_->hosts[0].copyBytes + rdma_->hosts[1].copyBytes)
          .arg(cpuRdma, 0, 'f', 1)
          .arg(posix_->hosts[0].copyBytes + posix_->hosts[1].copyBytes)
          .arg(posix_->hosts[0].syscalls + posix_->hosts[1].syscalls)
          .arg(cpuTcp, 0, 'f', 1));
  showFramesOf(static_cast<sim::CephStack>(framesOf_->currentData().toInt()));
  return true;
}

void CephMessengerView::showFramesOf(sim::CephStack stack) {
  const int index = framesOf_->findData(static_cast<int>(stack));
  if (index >= 0 && framesOf_->currentIndex() != index) {
    framesOf_->setCurrentIndex(index);  // comes back here through the signal
    return;
  }
  const auto& report = stack == sim::CephStack::Rdma ? rdma_ : posix_;
  store_->clear(packets::LinkType::Ethernet);
  if (report) {
    std::size_t bytes = 0;
    for (const auto& f : report->frames)
      bytes += f.bytes.size();
    store_->reserve(report->frames.size(), bytes);
    for (const auto& f : report->frames)
      store_->append(f.bytes, f.timePs / 1000);
  }
  packets_->storeReset();
}

}  // namespace rdmascope::ui
