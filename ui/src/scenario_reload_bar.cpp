#include "rdmascope/ui/scenario_reload_bar.h"

#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QLabel>
#include <QPushButton>
#include <QTimer>

namespace rdmascope::ui {

ScenarioReloadBar::ScenarioReloadBar(QWidget* parent)
    : QToolBar(tr("Scenario file"), parent),
      watcher_(new QFileSystemWatcher(this)),
      settle_(new QTimer(this)),
      message_(new QLabel(this)),
      reload_(new QPushButton(tr("&Reload"), this)),
      ignore_(new QPushButton(tr("&Ignore"), this)) {
  setObjectName(QStringLiteral("scenarioReloadBar"));
  setMovable(false);
  message_->setObjectName(QStringLiteral("reloadMessage"));
  reload_->setObjectName(QStringLiteral("reloadButton"));
  ignore_->setObjectName(QStringLiteral("ignoreButton"));
  addWidget(message_);
  addWidget(reload_);
  addWidget(ignore_);
  settle_->setSingleShot(true);
  settle_->setInterval(150);
  connect(watcher_, &QFileSystemWatcher::fileChanged, this, &ScenarioReloadBar::fileChanged);
  // A save by rename replaces the file in its directory: the directory tells of it.
  connect(watcher_, &QFileSystemWatcher::directoryChanged, this, &ScenarioReloadBar::fileChanged);
  connect(settle_, &QTimer::timeout, this, &ScenarioReloadBar::offer);
  connect(reload_, &QPushButton::clicked, this, &ScenarioReloadBar::reload);
  connect(ignore_, &QPushButton::clicked, this, &ScenarioReloadBar::dismiss);
  hide();
}

void ScenarioReloadBar::watch(const QString& path) {
  stop();
  path_ = QFileInfo(path).absoluteFilePath();
  loaded_ = contents();
  watcher_->addPath(path_);
  watcher_->addPath(QFileInfo(path_).absolutePath());
}

void ScenarioReloadBar::stop() {
  settle_->stop();
  if (!watcher_->files().isEmpty()) watcher_->removePaths(watcher_->files());
  if (!watcher_->directories().isEmpty()) watcher_->removePaths(watcher_->directories());
  path_.clear();
  dismiss();
}

void ScenarioReloadBar::fileChanged() {
  if (path_.isEmpty()) return;
  // Replaced by a rename, the file is no longer watched: watch the new one.
  if (!watcher_->files().contains(path_) && QFileInfo::exists(path_)) watcher_->addPath(path_);
  settle_->start();
}

void ScenarioReloadBar::offer() {
  // Only a change of the file's bytes counts (the directory also tells of other files).
  if (path_.isEmpty() || !QFileInfo::exists(path_) || contents() == loaded_) return;
  message_->setText(tr("%1 changed on disk.").arg(QFileInfo(path_).fileName()));
  offering_ = true;
  show();
  Q_EMIT changedOnDisk(path_);
}

QByteArray ScenarioReloadBar::contents() const {
  QFile f(path_);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void ScenarioReloadBar::dismiss() {
  offering_ = false;
  hide();
}

void ScenarioReloadBar::reload() {
  const QString path = path_;
  dismiss();
  loaded_ = contents();  // offered again only when it changes again
  if (!path.isEmpty()) Q_EMIT reloadRequested(path);
}

}  // namespace rdmascope::ui
