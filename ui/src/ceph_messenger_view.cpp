#include "rdmascope/ui/ceph_messenger_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
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
  // The steps of either stack in tabs, so that a step's sentence has the width it needs at a
  // laptop's size; the selected step's whole sentence below them.
  auto* stepsBox = new QWidget(top);
  auto* stepsLayout = new QVBoxLayout(stepsBox);
  stepsLayout->setContentsMargins(0, 0, 0, 0);
  stepTabs_ = new QTabWidget(stepsBox);
  stepTabs_->setObjectName(QStringLiteral("cephStepTabs"));
  rdmaTable_ = makeTable(rdmaSteps_, stepTabs_, CephStepsModel::Text);
  posixTable_ = makeTable(posixSteps_, stepTabs_, CephStepsModel::Text);
  stepTabs_->addTab(rdmaTable_, tr("async+rdma: the RDMA stack's steps"));
  stepTabs_->addTab(posixTable_, tr("async+posix: the TCP stack's steps"));
  stepText_ = new QLabel(stepsBox);
  stepText_->setObjectName(QStringLiteral("cephStepText"));
  stepText_->setWordWrap(true);
  stepText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  stepText_->setMinimumHeight(stepText_->fontMetrics().lineSpacing() * 2 + 4);
  stepText_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  stepsLayout->addWidget(stepTabs_, 1);
  stepsLayout->addWidget(stepText_);
  auto* box = new QGroupBox(tr("Both stacks counted"), top);
  auto* l = new QVBoxLayout(box);
  l->setContentsMargins(4, 4, 4, 4);
  table_ = makeTable(comparison_, box, CephComparisonModel::Name);
  l->addWidget(table_);
  top->setStretchFactor(0, 3);
  top->setStretchFactor(1, 2);
  packets_ = new PacketPane(store_.get(), vertical);
  vertical->setStretchFactor(0, 1);
  vertical->setStretchFactor(1, 1);
  layout->addWidget(vertical, 1);

  connect(runButton_, &QPushButton::clicked, this, [this] { runFromControls(); });
  connect(framesOf_, &QComboBox::currentIndexChanged, this, [this](int) {
    showFramesOf(static_cast<sim::CephStack>(framesOf_->currentData().toInt()));
  });
  // The steps' tab and the frames shown follow each other.
  connect(stepTabs_, &QTabWidget::currentChanged, this, [this](int tab) {
    showFramesOf(tab == 1 ? sim::CephStack::Posix : sim::CephStack::Rdma);
    showStepText();
  });
  for (QTableView* t : {rdmaTable_, posixTable_})
    connect(t->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { showStepText(); });
}

void CephMessengerView::showStepText() {
  QTableView* t = stepTabs_->currentIndex() == 1 ? posixTable_ : rdmaTable_;
  const int row = std::max(0, t->currentIndex().row());
  const QAbstractItemModel* m = t->model();
  if (row >= m->rowCount()) {
    stepText_->clear();
    return;
  }
  stepText_->setText(tr("%1 us, %2: %3")
                         .arg(m->index(row, CephStepsModel::Time).data().toString(),
                              m->index(row, CephStepsModel::Host).data().toString(),
                              m->index(row, CephStepsModel::Text).data().toString()));
}

QString CephMessengerView::stepSentence() const {
  return stepText_->text();
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
  // The figures' names whole beside the two value columns (sized to their contents).
  int needed = 0;
  for (int r = 0; r < comparison_->rowCount(); ++r)
    needed =
        std::max(needed, table_->fontMetrics().horizontalAdvance(
                             comparison_->index(r, CephComparisonModel::Name).data().toString()));
  needed += 16;
  for (int c = 0; c < comparison_->columnCount(); ++c)
    if (c != CephComparisonModel::Name) needed += table_->columnWidth(c);
  table_->setMinimumWidth(needed + 2 * table_->frameWidth() +
                          table_->verticalScrollBar()->sizeHint().width() + 4);
  rdmaSteps_->setSteps(rdma_->steps);
  posixSteps_->setSteps(posix_->steps);
  for (QTableView* t : {rdmaTable_, posixTable_})
    t->setCurrentIndex(t->model()->index(0, CephStepsModel::Text));
  showStepText();
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
  const int tab = stack == sim::CephStack::Posix ? 1 : 0;
  if (stepTabs_->currentIndex() != tab) {
    stepTabs_->setCurrentIndex(tab);  // comes back here through the signal
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
  // The detail tree and the bytes show a frame from the start: the first.
  if (!store_->empty()) packets_->selectFrame(0);
}

}  // namespace rdmascope::ui
