#include "rdmascope/ui/live_capture_dialog.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include "rdmascope/packets_io/live_capture.h"

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
  layout->addWidget(new QLabel(tr("Interfaces (from libpcap):"), this));
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
  if (interfaces.empty()) showError(tr("libpcap lists no capture interfaces on this machine."));
  return true;
}

bool LiveCaptureDialog::start(const QString& interfaceName, FrameStore* store) {
  stop();
  if (!store) return false;
  packets_io::LiveOptions options;
  options.filter = filter_->text().trimmed().toStdString();
  std::string error;
  auto capture = packets_io::LiveCapture::open(interfaceName.toStdString(), error, options);
  if (!capture) {
    showError(QString::fromStdString(error));
    return false;
  }
  Q_EMIT storeAboutToClear();
  store_ = store;
  store_->clear(capture->linkType());
  Q_EMIT captureStarting();
  capture_ = std::move(capture);
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
  packets_io::LiveCapture* cap = capture_.get();
  worker_ = std::thread([this, cap] {
    packets_io::FrameView view;
    for (;;) {
      const auto r = cap->next(view, 200);
      if (r == packets_io::LiveCapture::Result::Frame) {
        std::lock_guard lock(mutex_);
        pending_.push_back({std::vector<std::uint8_t>(view.data.begin(), view.data.end()),
                            view.timestampNs, view.originalLength});
      } else if (r == packets_io::LiveCapture::Result::Stopped) {
        return;
      } else if (r == packets_io::LiveCapture::Result::Error) {
        std::lock_guard lock(mutex_);
        workerError_ = cap->error();
        return;
      }
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
  if (!frames.empty()) {
    status_->setText(tr("Capturing on %1: %2 frames")
                         .arg(QString::fromStdString(capture_ ? capture_->interfaceName() : ""))
                         .arg(store_ ? store_->size() : 0));
    Q_EMIT framesArrived(frames.size());
  }
  if (!error.empty()) {
    stop();
    showError(QString::fromStdString(error));
  }
  return frames.size();
}

void LiveCaptureDialog::stop() {
  if (!capture_) return;
  capture_->stop();
  if (worker_.joinable()) worker_.join();
  drain();
  drainTimer_->stop();
  capture_.reset();
  startButton_->setEnabled(true);
  stopButton_->setEnabled(false);
  if (lastError_.isEmpty())
    status_->setText(tr("Stopped: %1 frames captured").arg(store_ ? store_->size() : 0));
  Q_EMIT captureStopped();
}

}  // namespace rdmascope::ui
