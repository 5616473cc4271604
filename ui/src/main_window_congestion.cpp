// MainWindow's congestion mode: a congestion scenario (congestion_run_view.h) shown above the
// ladder and the explanation, its captured frames in the packet pane and the analysis.
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include "rdmascope/ui/analysis_controller.h"
#include "rdmascope/ui/congestion_ladder.h"
#include "rdmascope/ui/congestion_run_view.h"
#include "rdmascope/ui/congestion_view.h"
#include "rdmascope/ui/host_pane.h"
#include "rdmascope/ui/ladder_view.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_list_model.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/scenario_controller.h"
#include "rdmascope/ui/scenario_reload_bar.h"

namespace rdmascope::ui {

bool MainWindow::congestionMode() const {
  return congestion_ && congestion_->isVisibleTo(this) && congestion_->run()->loaded();
}

bool MainWindow::openCongestionScenario(const QString& path) {
  setRunning(false);
  leaveFabric();
  QString error;
  if (!congestion_->open(path, error)) {
    showError(tr("Cannot run the congestion scenario"), error);
    return false;
  }
  // The analysis thread reads the store: stop it before the frames change.
  analysis_->clear();
  scenario_->unload();
  packets_->packetModel()->setFrameLimit(0);
  congestion_->run()->fillStore(*store_);
  packets_->storeReset();
  analysis_->start(store_.get());
  capturePath_.clear();
  setScenarioMode(true);
  hosts_[0]->hide();
  hosts_[1]->hide();
  congestion_->show();
  if (auto* top = qobject_cast<QSplitter*>(scenarioTop_))
    top->setSizes({width() * 5 / 8, 0, width() * 3 / 8, 0});
  // The fabric and its plots need the height more than the packets do (once the window is
  // laid out: before, the splitter scales whatever it is given to its default proportions).
  QTimer::singleShot(0, this, [this] {
    if (congestionMode()) {
      const int h = mainSplit_->height();
      mainSplit_->setSizes({h * 3 / 5, h - h * 3 / 5});
    }
  });
  QStringList lanes;
  auto rows = congestionLadder(*congestion_->run(), lanes);
  if (lanes.size() < 2) lanes = QStringList{tr("(no port captured)"), QString()};
  ladder_->setHostNames(lanes);
  ladder_->setFrames(std::move(rows));
  scenarioBox_->setCurrentIndex(-1);
  reloadBar_->stop();
  lowerTabs_->setCurrentWidget(analysis_->congestionPage());
  nextCongestionEvent_->setEnabled(true);
  previousCongestionEvent_->setEnabled(true);
  setWindowTitle(tr("%1 - rdmascope").arg(QFileInfo(path).fileName()));
  lastError_.clear();
  showCongestionStep();
  const auto warnings = congestion_->run()->fabric().configWarnings();
  statusBar()->showMessage(warnings.empty()
                               ? tr("Ran %1: %2 frames captured on its ports, %3 events")
                                     .arg(QFileInfo(path).fileName())
                                     .arg(congestion_->run()->frames().size())
                                     .arg(congestion_->run()->events().size())
                               : tr("Warning: %1").arg(QString::fromStdString(warnings.front())));
  return true;
}

void MainWindow::leaveCongestion() {
  if (!congestion_ || !congestion_->isVisibleTo(this)) return;
  congestion_->hide();
  hosts_[0]->show();
  hosts_[1]->show();
  nextCongestionEvent_->setEnabled(false);
  previousCongestionEvent_->setEnabled(false);
  if (auto* top = qobject_cast<QSplitter*>(scenarioTop_)) top->setSizes({0, 600, 400, 600});
}

void MainWindow::showCongestionStep() {
  if (!congestion_->isVisibleTo(this)) return;
  const CongestionRun& run = *congestion_->run();
  const std::size_t shown = std::min(run.framesUpTo(), store_->size());
  packets_->packetModel()->setFrameLimit(shown);
  if (shown > 0) packets_->selectFrame(shown - 1);
  explain(run.stepTitle(), run.stepExplanation());
  ladder_->setVisibleCount(static_cast<int>(shown));
  ladder_->setCurrentFrame(static_cast<int>(shown) - 1);
  {
    const QSignalBlocker block(eventSpin_);
    eventSpin_->setRange(0, run.sliceCount());
    eventSpin_->setValue(run.sliceIndex());
  }
  eventTotal_->setText(tr("of %1 slices of %2 us").arg(run.sliceCount()).arg(run.slice().micros()));
  statusFrames_->setText(tr("Frames on the wire: %1").arg(shown));
}

}  // namespace rdmascope::ui
