#pragma once
/// @file main_window.h
/// The rdmascope main window: scenario controls and views, the layer stacks, and the packet
/// pane, all kept in step with one current event or frame.

#include <QMainWindow>
#include <QString>
#include <memory>

#include "rdmascope/ui/frame_store.h"

class QLabel;

namespace rdmascope::ui {

class PacketPane;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Opens a pcap/pcapng file (progress dialog, cancellable). On failure shows a message box and
  /// the status line and returns false; the window stays usable and keeps what it showed.
  bool openCapture(const QString& path);
  /// The last error shown to the user (empty when none).
  QString lastError() const { return lastError_; }

  PacketPane* packetPane() const { return packets_; }
  FrameStore& frameStore() { return *store_; }

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createActions();
  void showError(const QString& title, const QString& message);
  void openCaptureDialog();

  std::unique_ptr<FrameStore> store_;
  PacketPane* packets_ = nullptr;
  QLabel* statusFrames_ = nullptr;
  QString lastError_;
  QString capturePath_;
};

}  // namespace rdmascope::ui
