#include "rdmascope/ui/live_capture_dialog.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <functional>

#include "rdmascope/packets_io/live_capture.h"
#ifdef RDMASCOPE_HAVE_IBVERBS
#include "rdmascope/verbs_backend/verbs_sniffer.h"
#endif

namespace rdmascope::ui {

LiveCaptureDialog::LiveCaptureDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Live Capture"));
  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("interfaceList"));
  filter_ = new QLineEdit(QString::fromLatin1(packets_io::kDefaultCaptureFilter), this);
  filter_->setObjectName(QStringLiteral("captureFilter"));
  filter_->setToolTip(tr("A BPF capture filter (empty: every frame)"));
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("captureStatus"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  startButton_ = new QPushButton(tr("Start"), this);
  stopButton_ = new QPushButton(tr("Stop"), this);
  stopButton_->setEnabled(false);
  auto* refresh = new QPushButton(tr("Refresh"), this);
  auto* close = new QPushButton(tr("Close"), this);
  drainTimer_ = new QTimer(this);
  drainTimer_->setInterval(100);

  auto* filterRow = new QHBoxLayout;
  filterRow->addWidget(new QLabel(tr("Capture filter:"), this));
  filterRow->addWidget(filter_, 1);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(refresh);
  buttons->addStretch(1);
  buttons->addWidget(startButton_);
  buttons->addWidget(stopButton_);
  buttons->addWidget(close);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new QLabel(tr("Interfaces (from libpcap) and RDMA devices:"), this));
  layout->addWidget(list_, 1);
  layout->addLayout(filterRow);
  layout->addWidget(status_);
  layout->addLayout(buttons);
  resize(560, 420);

  connect(refresh, &QPushButton::clicked, this, &LiveCaptureDialog::refreshInterfaces);
  connect(close, &QPushButton::clicked, this, &QDialog::hide);
  connect(startButton_, &QPushButton::clicked, this, [this] {
    const auto* item = list_->currentItem();
    if (!item) {
      showError(tr("Choose an interface first."));
      return;
    }
    start(item->data(Qt::UserRole).toString(), target_);
  });
  connect(stopButton_, &QPushButton::clicked, this, &LiveCaptureDialog::stop);
  connect(list_, &QListWidget::itemDoubleClicked, this,
          [this](QListWidgetItem* item) { start(item->data(Qt::UserRole).toString(), target_); });
  connect(drainTimer_, &QTimer::timeout, this, [this] { drain(); });
  refreshInterfaces();
}

LiveCaptureDialog::~LiveCaptureDialog() {
  stop();
}

void LiveCaptureDialog::showError(const QString& message) {
  lastError_ = message;
  status_->setStyleSheet(QStringLiteral("QLabel { color: #a40000; font-weight: bold; }"));
  status_->setText(message);
}

bool LiveCaptureDialog::refreshInterfaces() {
  list_->clear();
  std::string error;
  const auto interfaces = packets_io::LiveCapture::listInterfaces(error);
  if (!error.empty()) {
    showError(QString::fromStdString(error));
    return false;
  }
  for (const auto& i : interfaces) {
    QString text = QString::fromStdString(i.name);
    if (!i.description.empty())
      text += QStringLiteral("  \u2014  ") + QString::fromStdString(i.description);
    if (!i.addresses.empty()) {
      QStringList a;
      for (const auto& s : i.addresses)
        a << QString::fromStdString(s);
      text += QStringLiteral("  [") + a.join(QStringLiteral(", ")) + QStringLiteral("]");
    }
    if (!i.up) text += tr("  (down)");
    auto* item = new QListWidgetItem(text, list_);
    item->setData(Qt::UserRole, QString::fromStdString(i.name));
  }
  std::size_t devices = 0;
#ifdef RDMASCOPE_HAVE_IBVERBS
  for (const auto& d : verbs_backend::VerbsSniffer::listDevices()) {
    QString text = QString::fromStdString(d.name) + QStringLiteral("  \u2014  ") +
                   tr("RDMA device (sniffer flow)");
    if (!d.linkLayer.empty()) text += QStringLiteral(", ") + QString::fromStdString(d.linkLayer);
    if (!d.netdev.empty()) text += tr(", netdev %1").arg(QString::fromStdString(d.netdev));
    if (!d.active) text += tr("  (down)");
    auto* item = new QListWidgetItem(text, list_);
    item->setData(Qt::UserRole, QString::fromStdString(d.name));
    ++devices;
  }
#endif
  if (interfaces.empty() && devices == 0) {
    showError(tr("libpcap lists no capture interfaces on this machine."));
  }
  return true;
}

bool LiveCaptureDialog::sniffing() const {
#ifdef RDMASCOPE_HAVE_IBVERBS
  return sniffer_ != nullptr;
#else
  return false;
#endif
}

QString LiveCaptureDialog::progressText() const {
  QString text = tr("%1 frames captured").arg(store_ ? store_->size() : 0);
#ifdef RDMASCOPE_HAVE_IBVERBS
  if (sniffer_) {
    const auto st = sniffer_->stats();
    text += st.dropsKnown
                ? tr(", %1 dropped by the device (receive queue overruns)").arg(st.dropped)
                : tr(", drops unknown (the device exposes no out_of_buffer counter)");
    text += sniffer_->timestampSource() == verbs_backend::TimestampSource::Hardware
                ? tr(", hardware timestamps")
                : tr(", software timestamps");
  }
#endif
  return text;
}

bool LiveCaptureDialog::start(const QString& interfaceName, FrameStore* store) {
  stop();
  if (!store) return false;
  std::string error;
  std::unique_ptr<packets_io::LiveCapture> capture;
  packets::LinkType link = packets::LinkType::Ethernet;
  // The worker's loop: one frame into `pending_`; false when the capture ended.
  std::function<bool()> step;
#ifdef RDMASCOPE_HAVE_IBVERBS
  std::unique_ptr<verbs_backend::VerbsSniffer> sniffer;
  if (verbs_backend::VerbsSniffer::isDevice(interfaceName.toStdString())) {
    sniffer = verbs_backend::VerbsSniffer::open(interfaceName.toStdString(), error);
    if (!sniffer) {
      showError(QString::fromStdString(error));
      return false;
    }
    link = sniffer->infiniband() ? packets::LinkType::InfiniBand : packets::LinkType::Ethernet;
    verbs_backend::VerbsSniffer* v = sniffer.get();
    step = [this, v] {
      verbs_backend::SniffedFrame f;
      const auto r = v->next(f, 200);
      std::lock_guard lock(mutex_);
      if (r == verbs_backend::VerbsSniffer::Result::Frame) {
        pending_.push_back({std::vector<std::uint8_t>(f.data.begin(), f.data.end()), f.timestampNs,
                            f.originalLength});
      } else if (r == verbs_backend::VerbsSniffer::Result::Error) {
        workerError_ = v->error();
      }
      return r == verbs_backend::VerbsSniffer::Result::Frame ||
             r == verbs_backend::VerbsSniffer::Result::Timeout;
    };
  }
#endif
  if (!step) {
    packets_io::LiveOptions options;
    options.filter = filter_->text().trimmed().toStdString();
    capture = packets_io::LiveCapture::open(interfaceName.toStdString(), error, options);
    if (!capture) {
      showError(QString::fromStdString(error));
      return false;
    }
    link = capture->linkType();
    packets_io::LiveCapture* cap = capture.get();
    step = [this, cap] {
      packets_io::FrameView view;
      const auto r = cap->next(view, 200);
      std::lock_guard lock(mutex_);
      if (r == packets_io::LiveCapture::Result::Frame) {
        pending_.push_back({std::vector<std::uint8_t>(view.data.begin(), view.data.end()),
                            view.timestampNs, view.originalLength});
      } else if (r == packets_io::LiveCapture::Result::Error) {
        workerError_ = cap->error();
      }
      return r == packets_io::LiveCapture::Result::Frame ||
             r == packets_io::LiveCapture::Result::Timeout;
    };
  }
  Q_EMIT storeAboutToClear();
  store_ = store;
  store_->clear(link);
  Q_EMIT captureStarting();
  capture_ = std::move(capture);
#ifdef RDMASCOPE_HAVE_IBVERBS
  sniffer_ = std::move(sniffer);
#endif
  captureName_ = interfaceName;
  {
    std::lock_guard lock(mutex_);
    pending_.clear();
    workerError_.clear();
  }
  lastError_.clear();
  status_->setStyleSheet({});
  status_->setText(tr("Capturing on %1 ...").arg(interfaceName));
  startButton_->setEnabled(false);
  stopButton_->setEnabled(true);
  worker_ = std::thread([step] {
    while (step()) {
    }
  });
  drainTimer_->start();
  return true;
}

std::size_t LiveCaptureDialog::drain() {
  std::vector<Pending> frames;
  std::string error;
  {
    std::lock_guard lock(mutex_);
    frames.swap(pending_);
    error.swap(workerError_);
  }
  if (store_)
    for (const auto& f : frames)
      store_->append(f.bytes, f.timestampNs, f.originalLength);
  if (!frames.empty() || sniffing()) {
    status_->setText(tr("Capturing on %1: %2").arg(captureName_, progressText()));
  }
  if (!frames.empty()) Q_EMIT framesArrived(frames.size());
  if (!error.empty()) {
    stop();
    showError(QString::fromStdString(error));
  }
  return frames.size();
}

void LiveCaptureDialog::stop() {
  if (!capturing()) return;
  if (capture_) capture_->stop();
#ifdef RDMASCOPE_HAVE_IBVERBS
  if (sniffer_) sniffer_->stop();
#endif
  if (worker_.joinable()) worker_.join();
  drain();
  drainTimer_->stop();
  if (lastError_.isEmpty()) status_->setText(tr("Stopped: %1").arg(progressText()));
  capture_.reset();
#ifdef RDMASCOPE_HAVE_IBVERBS
  sniffer_.reset();
#endif
  startButton_->setEnabled(true);
  stopButton_->setEnabled(false);
  Q_EMIT captureStopped();
}

}  // namespace rdmascope::ui
