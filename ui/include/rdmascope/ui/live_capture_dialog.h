#pragma once
/// @file live_capture_dialog.h
/// Live capture: lists libpcap's interfaces and the RDMA devices, captures on one (an interface
/// with a BPF capture filter; an RDMA device through a sniffer flow on a raw-packet QP, which
/// sees the traffic a RoCE NIC offloads) on a worker thread, and appends the frames to a
/// FrameStore as they arrive so the packet list decodes them live. The status shows the frames
/// and, for an RDMA device, the frames it dropped (receive queue overruns). When capturing is
/// not permitted, or the device has no sniffer support, it says so plainly.

#include <QDialog>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "rdmascope/ui/frame_store.h"

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTimer;

namespace rdmascope::packets_io {
class LiveCapture;
}
namespace rdmascope::verbs_backend {
class VerbsSniffer;
}

namespace rdmascope::ui {

class LiveCaptureDialog : public QDialog {
  Q_OBJECT
 public:
  explicit LiveCaptureDialog(QWidget* parent = nullptr);
  ~LiveCaptureDialog() override;

  /// Reads the interfaces again; false (with the reason shown) when libpcap cannot list them.
  bool refreshInterfaces();
  /// Starts capturing on an interface into `store` (cleared first, link type set from the
  /// interface). False with a one-line reason shown in the dialog.
  bool start(const QString& interfaceName, FrameStore* store);
  /// Stops the capture (the frames stay in the store).
  void stop();
  bool capturing() const { return capture_ != nullptr || sniffing(); }
  /// Moves frames the worker has captured into the store; returns how many.
  std::size_t drain();

  QListWidget* interfaceList() const { return list_; }
  QLineEdit* filterEdit() const { return filter_; }
  QLabel* statusLabel() const { return status_; }
  QString lastError() const { return lastError_; }
  /// Where Start puts frames (set by the main window).
  void setTarget(FrameStore* store) { target_ = store; }

 Q_SIGNALS:
  /// The store is about to be cleared for a new capture (readers of it must stop now).
  void storeAboutToClear();
  /// The store was cleared for a new capture.
  void captureStarting();
  /// Frames were appended to the store.
  void framesArrived(std::size_t count);
  void captureStopped();

 private:
  void showError(const QString& message);
  bool sniffing() const;
  /// "N frames", with the device's drops for an RDMA device.
  QString progressText() const;

  QListWidget* list_;
  QLineEdit* filter_;
  QLabel* status_;
  QPushButton* startButton_;
  QPushButton* stopButton_;
  QTimer* drainTimer_;
  FrameStore* target_ = nullptr;
  FrameStore* store_ = nullptr;
  std::unique_ptr<packets_io::LiveCapture> capture_;
#ifdef RDMASCOPE_HAVE_IBVERBS
  std::unique_ptr<verbs_backend::VerbsSniffer> sniffer_;
#endif
  QString captureName_;
  std::thread worker_;
  std::mutex mutex_;
  struct Pending {
    std::vector<std::uint8_t> bytes;
    std::int64_t timestampNs;
    std::uint32_t originalLength;
  };
  std::vector<Pending> pending_;
  std::string workerError_;
  QString lastError_;
};

}  // namespace rdmascope::ui
