#include "rdmascope/ui/main_window.h"

#include <QAction>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QSplitter>
#include <QStatusBar>
#include <QTextBrowser>
#include <QThread>
#include <QTimer>
#include <atomic>

#include "rdmascope/ui/capture_loader.h"
#include "rdmascope/ui/data_path_pane.h"
#include "rdmascope/ui/filter_bar.h"
#include "rdmascope/ui/layer_stacks_view.h"
#include "rdmascope/ui/packet_pane.h"

namespace rdmascope::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), store_(std::make_unique<FrameStore>()) {
  setWindowTitle(QStringLiteral("rdmascope"));
  setAcceptDrops(true);
  packets_ = new PacketPane(store_.get(), this);
  dataPath_ = new DataPathPane(this);
  explanation_ = new QTextBrowser(this);
  explanation_->setObjectName(QStringLiteral("explanation"));
  explanation_->setOpenLinks(false);
  rightSplit_ = new QSplitter(Qt::Vertical, this);
  rightSplit_->addWidget(dataPath_);
  rightSplit_->addWidget(explanation_);
  rightSplit_->setStretchFactor(0, 5);
  rightSplit_->setStretchFactor(1, 1);
  mainSplit_ = new QSplitter(Qt::Horizontal, this);
  mainSplit_->addWidget(packets_);
  mainSplit_->addWidget(rightSplit_);
  mainSplit_->setSizes({880, 720});
  rightSplit_->setSizes({800, 130});
  setCentralWidget(mainSplit_);
  connect(packets_, &PacketPane::frameSelected, this, &MainWindow::onFrameSelected);
  connect(dataPath_, &DataPathPane::explanationChanged, this,
          [this](const QString& text) { explain(tr("Data path"), text); });
  explain(tr("Welcome"),
          tr("Open a capture (Ctrl+O, or drop a file here) to decode it, or walk the data "
             "path of one message through each stack with the controls above."));
  statusFrames_ = new QLabel(this);
  statusBar()->addPermanentWidget(statusFrames_);
  createActions();
  resize(1500, 950);
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open Capture..."), this, &MainWindow::openCaptureDialog);
  open->setShortcut(QKeySequence::Open);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* filter = view->addAction(tr("Display &Filter"), this, [this] {
    packets_->filterBar()->lineEdit()->setFocus();
    packets_->filterBar()->lineEdit()->selectAll();
  });
  filter->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
}

void MainWindow::explain(const QString& title, const QString& text) {
  explanation_->setHtml(
      QStringLiteral("<h3 style='margin:2px'>%1</h3><p style='font-size:"
                     "11pt'>%2</p>")
          .arg(title.toHtmlEscaped(),
               text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
}

void MainWindow::onFrameSelected(qint64 frame) {
  if (frame < 0) {
    dataPath_->view()->setFrame(nullptr);
    return;
  }
  const auto d = packets_->packetModel()->dissection(static_cast<std::size_t>(frame));
  dataPath_->view()->setFrame(d.get());
  QString text = QString::fromStdString(d->summary.protocol + "  " + d->summary.info);
  for (const auto& diag : d->diagnostics)
    text += QStringLiteral("\n") + QString::fromStdString(diag.message);
  explain(tr("Frame %1").arg(frame + 1), text);
}

void MainWindow::openCaptureDialog() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open Capture"), QFileInfo(capturePath_).absolutePath(),
                                   tr("Captures (*.pcap *.pcapng *.cap *.pcap.gz);;All files (*)"));
  if (!path.isEmpty()) openCapture(path);
}

void MainWindow::showError(const QString& title, const QString& message) {
  lastError_ = message;
  statusBar()->showMessage(message);
  auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
  box->setObjectName(QStringLiteral("errorBox"));
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

bool MainWindow::openCapture(const QString& path) {
  auto loaded = std::make_unique<FrameStore>();
  std::atomic<bool> cancel{false};
  std::atomic<std::uint64_t> done{0}, total{0};
  LoadOutcome outcome;
  const std::string file = path.toStdString();
  QThread* worker = QThread::create([&] {
    outcome = loadCaptureFile(file, *loaded, &cancel, [&](std::uint64_t d, std::uint64_t t) {
      done = d;
      total = t;
    });
  });
  QProgressDialog progress(tr("Loading %1").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 1000,
                           this);
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(300);
  progress.setValue(0);
  connect(&progress, &QProgressDialog::canceled, [&cancel] { cancel = true; });
  QTimer tick;
  connect(&tick, &QTimer::timeout, [&] {
    const auto t = total.load();
    if (t) progress.setValue(static_cast<int>(std::min<std::uint64_t>(999, done * 1000 / t)));
  });
  QEventLoop loop;
  connect(worker, &QThread::finished, &loop, &QEventLoop::quit);
  tick.start(50);
  worker->start();
  loop.exec(QEventLoop::ExcludeUserInputEvents);
  worker->wait();
  delete worker;
  tick.stop();
  progress.reset();

  if (outcome.cancelled) {
    statusBar()->showMessage(tr("Loading %1 cancelled").arg(path), 5000);
    return false;
  }
  const QString error = QString::fromStdString(outcome.error);
  if (outcome.frames == 0 && !error.isEmpty()) {
    showError(tr("Cannot open capture"), error);
    return false;
  }
  // The pane keeps a pointer to the store: replace its contents, not the object.
  *store_ = std::move(*loaded);
  packets_->storeReset();
  capturePath_ = path;
  setWindowTitle(QStringLiteral("%1 - rdmascope").arg(QFileInfo(path).fileName()));
  statusFrames_->setText(tr("Packets: %1").arg(packets_->store().size()));
  if (!packets_->store().empty()) packets_->selectFrame(0);
  if (!error.isEmpty()) {
    showError(tr("Capture damaged"),
              tr("%1\nThe %2 frames before the damage are shown.").arg(error).arg(outcome.frames));
    return false;
  }
  lastError_.clear();
  statusBar()->showMessage(tr("Opened %1").arg(path), 5000);
  return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (urls.isEmpty() || !urls.front().isLocalFile()) return;
  event->acceptProposedAction();
  const QString path = urls.front().toLocalFile();
  // Opening runs a local event loop; leave the drop handler first.
  QTimer::singleShot(0, this, [this, path] { openCapture(path); });
}

}  // namespace rdmascope::ui
