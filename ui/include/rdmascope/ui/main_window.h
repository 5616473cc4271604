#pragma once
/// @file main_window.h
/// The rdmascope main window: scenario controls and views, the layer stacks, and the packet
/// pane, all kept in step with one current event or frame.

#include <QMainWindow>
#include <QString>
#include <memory>

#include "rdmascope/ui/frame_store.h"

class QLabel;
class QSplitter;
class QTextBrowser;

namespace rdmascope::ui {

class DataPathPane;
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
  DataPathPane* dataPathPane() const { return dataPath_; }
  QTextBrowser* explanation() const { return explanation_; }
  /// Shows text in the explanation pane (the current event's or step's explanation).
  void explain(const QString& title, const QString& text);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createActions();
  void showError(const QString& title, const QString& message);
  void openCaptureDialog();

  std::unique_ptr<FrameStore> store_;
  void onFrameSelected(qint64 frame);

  PacketPane* packets_ = nullptr;
  DataPathPane* dataPath_ = nullptr;
  QTextBrowser* explanation_ = nullptr;
  QSplitter* mainSplit_ = nullptr;
  QSplitter* rightSplit_ = nullptr;
  QLabel* statusFrames_ = nullptr;
  QString lastError_;
  QString capturePath_;
};

}  // namespace rdmascope::ui
