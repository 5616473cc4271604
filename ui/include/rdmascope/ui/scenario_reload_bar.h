#pragma once
/// @file scenario_reload_bar.h
/// Watches the scenario file the window shows and, when it changes on disk, offers to reload
/// it: a bar saying so with Reload and Ignore, hidden until then. Edit in an editor, save,
/// reload, step on.

#include <QByteArray>
#include <QString>
#include <QToolBar>

class QFileSystemWatcher;
class QLabel;
class QPushButton;
class QTimer;

namespace rdmascope::ui {

class ScenarioReloadBar : public QToolBar {
  Q_OBJECT
 public:
  explicit ScenarioReloadBar(QWidget* parent = nullptr);

  /// Watches `path` (forgetting any earlier file) and hides the offer.
  void watch(const QString& path);
  /// Watches nothing (a built-in or a capture is shown) and hides the offer.
  void stop();
  /// The file watched (empty when none).
  QString path() const { return path_; }
  /// Whether the offer to reload is shown.
  bool offering() const { return offering_; }
  /// Accepts the offer as the Reload button does.
  void reload();

 Q_SIGNALS:
  /// The watched file changed: the offer is shown.
  void changedOnDisk(const QString& path);
  /// The user asked to reload the file.
  void reloadRequested(const QString& path);

 private:
  void fileChanged();
  void offer();
  void dismiss();
  QByteArray contents() const;

  QFileSystemWatcher* watcher_;
  QTimer* settle_;  // editors write a file in several steps: offer once they are done
  QLabel* message_;
  QPushButton* reload_;
  QPushButton* ignore_;
  QString path_;
  QByteArray loaded_;  // the bytes last loaded (or offered)
  bool offering_ = false;
};

}  // namespace rdmascope::ui
