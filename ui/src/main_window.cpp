#include "rdmascope/ui/main_window.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QSaveFile>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QThread>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <atomic>

#include "rdmascope/simdev/fabric_protocol.h"
#include "rdmascope/ui/analysis_controller.h"
#include "rdmascope/ui/capture_loader.h"
#include "rdmascope/ui/capture_saver.h"
#include "rdmascope/ui/capture_transport.h"
#include "rdmascope/ui/ceph_messenger_view.h"
#include "rdmascope/ui/comparison_view.h"
#include "rdmascope/ui/congestion_run_view.h"
#include "rdmascope/ui/congestion_view.h"
#include "rdmascope/ui/data_path_pane.h"
#include "rdmascope/ui/example_menu.h"
#include "rdmascope/ui/fabric_session.h"
#include "rdmascope/ui/fabric_view.h"
#include "rdmascope/ui/filter_bar.h"
#include "rdmascope/ui/glossary_dialog.h"
#include "rdmascope/ui/host_pane.h"
#include "rdmascope/ui/host_state_models.h"
#include "rdmascope/ui/ladder_view.h"
#include "rdmascope/ui/language.h"
#include "rdmascope/ui/layer_stacks_view.h"
#include "rdmascope/ui/lesson_pane.h"
#include "rdmascope/ui/live_capture_dialog.h"
#include "rdmascope/ui/packet_context_menus.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/psn_base.h"
#include "rdmascope/ui/real_run_controller.h"
#include "rdmascope/ui/scenario_controller.h"
#include "rdmascope/ui/scenario_narration.h"
#include "rdmascope/ui/scenario_reload_bar.h"
#include "rdmascope/ui/time_display_format.h"
#include "rdmascope/ui/transfer_follower.h"
#include "rdmascope/ui/transport_choice.h"
#include "rdmascope/ui/transport_host_pane.h"

namespace rdmascope::ui {

MainWindow::MainWindow(QWidget* parent, const QString& startScenario)
    : QMainWindow(parent), store_(std::make_unique<FrameStore>()) {
  setWindowTitle(QStringLiteral("rdmascope"));
  setAcceptDrops(true);
  packets_ = new PacketPane(store_.get(), this);
  dataPath_ = new DataPathPane(this);
  explanation_ = new QTextBrowser(this);
  explanation_->setObjectName(QStringLiteral("explanation"));
  explanation_->setOpenLinks(false);
  hosts_[0] = new HostPane(tr("Host A"), this);
  hosts_[1] = new HostPane(tr("Host B"), this);
  transportPanes_[0] = new TransportHostPane(tr("Host A"), this);
  transportPanes_[1] = new TransportHostPane(tr("Host B"), this);
  ladder_ = new LadderView(this);
  eventModel_ = new EventListModel(this);
  eventView_ = new QTableView(this);
  eventView_->setObjectName(QStringLiteral("eventList"));
  eventView_->setModel(eventModel_);
  eventView_->verticalHeader()->hide();
  eventView_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  eventView_->verticalHeader()->setDefaultSectionSize(eventView_->fontMetrics().height() + 4);
  eventView_->horizontalHeader()->setStretchLastSection(true);
  eventView_->setSelectionBehavior(QAbstractItemView::SelectRows);
  eventView_->setSelectionMode(QAbstractItemView::SingleSelection);
  eventView_->setShowGrid(false);
  eventView_->setWordWrap(false);
  const int cw = eventView_->fontMetrics().horizontalAdvance(QLatin1Char('0'));
  eventView_->setColumnWidth(EventListModel::Index, cw * 5);
  eventView_->setColumnWidth(EventListModel::Time, cw * 9);
  eventView_->setColumnWidth(EventListModel::Host, cw * 8);
  eventView_->setColumnWidth(EventListModel::Kind, cw * 14);

  scenario_ = new ScenarioController(store_.get(), packets_, {hosts_[0], hosts_[1]}, ladder_,
                                     dataPath_->view(), eventModel_, this);
  scenario_->setTransportPanes({transportPanes_[0], transportPanes_[1]});

  // Hosts on both sides with the ladder of frames between them; below, the packets and the
  // layer stacks.
  auto* middle = new QSplitter(Qt::Vertical, this);
  middle->addWidget(ladder_);
  middle->addWidget(explanation_);
  middle->setSizes({380, 170});
  middle->setChildrenCollapsible(false);
  auto* top = new QSplitter(Qt::Horizontal, this);
  // Each side holds the verbs host pane and the TCP/iWARP one; one of them shows.
  QWidget* sides[2];
  for (int h = 0; h < 2; ++h) {
    sides[h] = new QWidget(this);
    auto* sl = new QVBoxLayout(sides[h]);
    sl->setContentsMargins(0, 0, 0, 0);
    sl->addWidget(hosts_[h]);
    sl->addWidget(transportPanes_[h]);
    transportPanes_[h]->hide();
  }
  top->addWidget(sides[0]);
  top->addWidget(middle);
  top->addWidget(sides[1]);
  top->setSizes({600, 400, 600});
  congestion_ = new CongestionRunView(this);
  congestion_->hide();
  top->insertWidget(0, congestion_);
  connect(congestion_, &CongestionRunView::stepped, this, &MainWindow::showCongestionStep);
  lowerTabs_ = new QTabWidget(this);
  // Each tab keeps its English name as its data: `--tab` finds it by that name in any language.
  const auto addLowerTab = [this](QWidget* page, const char* english) {
    const int i = lowerTabs_->addTab(page, tr(english));
    lowerTabs_->tabBar()->setTabData(i, QString::fromLatin1(english));
  };
  addLowerTab(dataPath_, QT_TR_NOOP("Layer stacks"));
  addLowerTab(eventView_, QT_TR_NOOP("Events"));
  comparison_ = new ComparisonView(this);
  comparison_->setObjectName(QStringLiteral("comparisonView"));
  addLowerTab(comparison_, QT_TR_NOOP("Comparison"));
  analysis_ = new AnalysisController(this);
  addLowerTab(analysis_->conversationsPage(), QT_TR_NOOP("Conversations"));
  addLowerTab(analysis_->anomaliesPage(), QT_TR_NOOP("Anomalies"));
  addLowerTab(analysis_->flowGraphPage(), QT_TR_NOOP("Flow Graph"));
  addLowerTab(analysis_->plotPage(), QT_TR_NOOP("Plot"));
  addLowerTab(analysis_->congestionPage(), QT_TR_NOOP("Congestion"));
  auto* bottom = new QSplitter(Qt::Horizontal, this);
  bottom->addWidget(packets_);
  bottom->addWidget(lowerTabs_);
  // The lower tabs never get narrower than every tab whole (narrow padding: at 1280 wide the
  // packet list's Info needs the room) nor than the four layer stacks need (the Chinese tabs
  // are narrower); above that the two share the width.
  lowerTabs_->setStyleSheet(QStringLiteral("QTabBar::tab { padding: 3px 6px; }"));
  lowerTabs_->setMinimumWidth(
      std::max(lowerTabs_->tabBar()->sizeHint().width() +
                   fontMetrics().horizontalAdvance(QStringLiteral(" (0000)")) + 12,
               fontMetrics().horizontalAdvance(QLatin1Char('x')) * 92));
  bottom->setSizes({820, 780});
  mainSplit_ = new QSplitter(Qt::Vertical, this);
  mainSplit_->setObjectName(QStringLiteral("mainSplit"));
  mainSplit_->addWidget(top);
  scenarioTop_ = top;
  mainSplit_->addWidget(bottom);
  mainSplit_->setSizes({520, 440});
  mainSplit_->setChildrenCollapsible(false);
  setCentralWidget(mainSplit_);

  statusFrames_ = new QLabel(this);
  // Wide enough for any count up front: a permanent status-bar widget is not re-laid out
  // when its text grows, so "Frames on the wire: 10" showed only its first digit.
  statusFrames_->setMinimumWidth(
      statusFrames_->fontMetrics().horizontalAdvance(tr("Frames on the wire: 00000000")) + 8);
  statusBar()->addPermanentWidget(statusFrames_);
  statusAnalysis_ = new QLabel(this);
  statusAnalysis_->setObjectName(QStringLiteral("statusAnalysis"));
  statusBar()->addPermanentWidget(statusAnalysis_);
  runTimer_ = new QTimer(this);
  createActions();
  installGlossary(this, explanation_);
  auto* bar = addToolBar(tr("Scenario"));
  bar->setObjectName(QStringLiteral("scenarioBar"));
  bar->setMovable(false);
  bar->addWidget(createScenarioBar());
  addToolBarBreak();
  reloadBar_ = new ScenarioReloadBar(this);
  addToolBar(reloadBar_);
  reloadBar_->hide();
  connect(reloadBar_, &ScenarioReloadBar::reloadRequested, this, [this] { reloadScenarioFile(); });

  connect(packets_, &PacketPane::frameSelected, this, &MainWindow::onFrameSelected);
  transfer_ = new TransferFollower(scenario_, comparison_, dataPath_->view(), this);
  connect(dataPath_, &DataPathPane::explanationChanged, this,
          [this](const QString& text) { explain(tr("Data path"), text); });
  connect(scenario_, &ScenarioController::currentChanged, this, &MainWindow::onEventChanged);
  connect(eventView_, &QTableView::activated, this,
          [this](const QModelIndex& idx) { scenario_->goTo(idx.row()); });
  connect(eventView_, &QTableView::clicked, this,
          [this](const QModelIndex& idx) { scenario_->goTo(idx.row()); });
  connect(runTimer_, &QTimer::timeout, this, [this] {
    if (!(congestionMode() ? congestion_->stepForward() : scenario_->stepForward()))
      setRunning(false);
  });
  // The analysis thread reads the store: stop it before anything replaces the frames.
  connect(scenario_, &ScenarioController::storeAboutToChange, analysis_,
          &AnalysisController::clear);
  connect(analysis_, &AnalysisController::frameActivated, this, &MainWindow::showFrame);
  connect(analysis_, &AnalysisController::connectionChosen, this,
          [this](int, const QString& filter) {
            // A click on a new row also changes the current row: filter once.
            if (filter.isEmpty() ||
                (packets_->packetModel()->filtered() && packets_->filterBar()->text() == filter))
              return;
            packets_->filterBar()->setText(filter);
            packets_->filterBar()->apply();
          });
  connect(analysis_, &AnalysisController::analysisChanged, this, &MainWindow::analysisChanged);
  connect(analysis_, &AnalysisController::progress, this, [this](int permille) {
    statusAnalysis_->setText(tr("Analysing... %1%").arg(permille / 10));
  });

  resize(1600, 1000);
  // Start with the focus on a view that leaves Left/Right/Space to the step actions.
  ladder_->setFocusPolicy(Qt::StrongFocus);
  ladder_->setFocus();
  if (!startScenario.isEmpty()) openScenario(startScenario);
}

MainWindow::~MainWindow() {
  // The analysis thread reads the store, which goes before the controller (a child) would.
  analysis_->cancel();
}

void MainWindow::showFrame(qint64 frame) {
  if (frame < 0) return;
  if (scenario_->loaded()) scenario_->goToFrame(static_cast<std::size_t>(frame));
  packets_->selectFrame(static_cast<std::size_t>(frame));
}

void MainWindow::analysisChanged() {
  const int tab = lowerTabs_->indexOf(analysis_->anomaliesPage());
  const auto report = analysis_->analysis();
  if (!report) {
    lowerTabs_->setTabText(tab, tr("Anomalies"));
    statusAnalysis_->clear();
    return;
  }
  // A scenario stepped so far has put only some frames on the wire: count their anomalies.
  const auto n = scenario_->loaded() ? analysis_->anomalyCountUpTo(scenario_->framesShown())
                                     : analysis_->anomalyCount();
  lowerTabs_->setTabText(tab, tr("Anomalies (%1)").arg(n));
  statusAnalysis_->setText(
      tr("Connections: %1  Anomalies: %2").arg(report->report.summary.connections).arg(n));
}

void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open Capture..."), this, &MainWindow::openCaptureDialog);
  open->setShortcut(QKeySequence::Open);
  QAction* save = file->addAction(tr("&Save Frames As..."), this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Frames"),
                                                      QFileInfo(capturePath_).absolutePath(),
                                                      tr("pcap (*.pcap);;pcapng (*.pcapng)"));
    if (!path.isEmpty()) saveFrames(path);
  });
  save->setObjectName(QStringLiteral("saveFramesAction"));
  save->setShortcut(QKeySequence::Save);
  QAction* live = file->addAction(tr("&Live Capture..."), this, [this] {
    liveCaptureDialog()->show();
    liveCaptureDialog()->raise();
  });
  live->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
  file->addAction(tr("Open Sce&nario File..."), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), {},
                                                      tr("Scenarios (*.json);;All files (*)"));
    if (!path.isEmpty()) openScenarioFile(path);
  });
  file->addAction(tr("Open &Congestion Scenario..."), this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Congestion Scenario"), {},
                                     tr("Congestion scenarios (*.json);;All files (*)"));
    if (!path.isEmpty()) openCongestionScenario(path);
  });
  QMenu* examples = file->addMenu(tr("Open &Example"));
  examples->setObjectName(QStringLiteral("openExampleMenu"));
  fillExampleMenu(*examples, *this, QCoreApplication::applicationDirPath());
  file->addAction(tr("Save Scenario &As..."), this, [this] {
    if (!scenario_->loaded()) {
      showError(tr("Cannot save the scenario"), tr("No scenario is shown."));
      return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save Scenario As"),
        QString::fromStdString(scenario_->recording()->name) + QStringLiteral(".json"),
        tr("Scenario files (*.json);;All files (*)"));
    if (!path.isEmpty()) saveScenarioAs(path);
  });
  QMenu* scenarios = file->addMenu(tr("Built-in &Scenario"));
  for (const auto& s : builtInScenarios())
    scenarios->addAction(narration(s.title), this,
                         [this, id = s.id] { openScenario(QString::fromStdString(id)); });
  scenarios->addSeparator();
  scenarios
      ->addAction(tr("Ceph &Messenger (RDMA and TCP Stacks)"), this,
                  [this] { showCephMessenger(); })
      ->setObjectName(QStringLiteral("cephMessengerAction"));
  QAction* fabric = file->addAction(tr("Attach to &Fabric..."), this, [this] {
    const QString fallback = fabric_ && !fabric_->socketPath().isEmpty()
                                 ? fabric_->socketPath()
                                 : QString::fromStdString(simdev::defaultFabricSocket());
    bool ok = false;
    const QString path =
        QInputDialog::getText(this, tr("Attach to Fabric"),
                              tr("Socket of the running fabric (rdmascope-cli fabric prints it):"),
                              QLineEdit::Normal, fallback, &ok);
    if (ok) attachFabric(path.trimmed());
  });
  fabric->setObjectName(QStringLiteral("attachFabricAction"));
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* go = menuBar()->addMenu(tr("&Go"));
  runAction_ = go->addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run / Pause"), this,
                             [this] { setRunning(!running()); });
  runAction_->setShortcut(QKeySequence(Qt::Key_Space));
  // In a congestion run a step is a slice of simulated time.
  QAction* next = go->addAction(style()->standardIcon(QStyle::SP_MediaSeekForward),
                                tr("Step &Forward"), this, [this] {
                                  if (congestionMode())
                                    congestion_->stepForward();
                                  else
                                    scenario_->stepForward();
                                });
  next->setShortcut(QKeySequence(Qt::Key_Right));
  QAction* back = go->addAction(style()->standardIcon(QStyle::SP_MediaSeekBackward),
                                tr("Step &Back"), this, [this] {
                                  if (congestionMode())
                                    congestion_->stepBack();
                                  else
                                    scenario_->stepBack();
                                });
  back->setShortcut(QKeySequence(Qt::Key_Left));
  QAction* restart = go->addAction(style()->standardIcon(QStyle::SP_MediaSkipBackward),
                                   tr("&Restart"), this, [this] {
                                     if (congestionMode())
                                       congestion_->run()->setTime({});
                                     else
                                       scenario_->goTo(-1);
                                   });
  restart->setShortcut(QKeySequence(Qt::Key_Home));
  QAction* end =
      go->addAction(style()->standardIcon(QStyle::SP_MediaSkipForward), tr("&End"), this, [this] {
        if (congestionMode())
          congestion_->run()->setTime(congestion_->run()->duration());
        else
          scenario_->goTo(scenario_->eventCount() - 1);
      });
  end->setShortcut(QKeySequence(Qt::Key_End));
  for (QAction* a : {runAction_, next, back, restart, end})
    addAction(a);
  go->addSeparator();
  nextCongestionEvent_ =
      go->addAction(tr("&Next Congestion Event"), this, [this] { congestion_->nextEvent(); });
  nextCongestionEvent_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Right));
  previousCongestionEvent_ = go->addAction(tr("&Previous Congestion Event"), this,
                                           [this] { congestion_->previousEvent(); });
  previousCongestionEvent_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Left));
  nextCongestionEvent_->setEnabled(false);
  previousCongestionEvent_->setEnabled(false);
  go->addAction(packets_->contextMenus()->goToPacketAction());

  go->addSeparator();
  cmAction_ = go->addAction(tr("Connect with &rdma_cm"));
  cmAction_->setObjectName(QStringLiteral("cmAction"));
  cmAction_->setCheckable(true);
  cmAction_->setToolTip(
      tr("Connect the RC QP as rdma_cm does (CM REQ, REP, RTU as frames) instead of the "
         "out-of-band exchange over TCP"));
  connect(cmAction_, &QAction::toggled, this, [this](bool on) {
    scenario_->setConnectWithCm(on);
    if (!scenario_->loaded() || congestionMode()) return;
    if (!reloadBar_->path().isEmpty())
      reloadScenarioFile();
    else
      openScenario(QString::fromStdString(scenario_->recording()->source));
  });

  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* filter = view->addAction(tr("Display &Filter"), this, [this] {
    packets_->filterBar()->lineEdit()->setFocus();
    packets_->filterBar()->lineEdit()->selectAll();
  });
  filter->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
  view->addAction(tr("&Layer Stacks"), this, [this] { lowerTabs_->setCurrentWidget(dataPath_); });
  view->addAction(tr("&Events"), this, [this] { lowerTabs_->setCurrentWidget(eventView_); });
  view->addAction(tr("&Comparison"), this, [this] { lowerTabs_->setCurrentWidget(comparison_); });
  view->addSeparator();
  addTimeDisplayFormatMenu(*view, *packets_);
  addPsnBaseAction(*view);
  addLanguageMenu(*view, *this);

  QMenu* stats = menuBar()->addMenu(tr("&Statistics"));
  const struct {
    QString text;
    QWidget* page;
    Qt::Key key;
  } pages[] = {{tr("&Conversations"), analysis_->conversationsPage(), Qt::Key_C},
               {tr("&Anomalies"), analysis_->anomaliesPage(), Qt::Key_A},
               {tr("&Flow Graph"), analysis_->flowGraphPage(), Qt::Key_G},
               {tr("&Plot (Latency and Throughput)"), analysis_->plotPage(), Qt::Key_P}};
  for (const auto& pg : pages) {
    QAction* a = stats->addAction(pg.text, this, [this, page = pg.page] {
      lowerTabs_->setCurrentWidget(page);
      page->setFocus();
    });
    a->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | pg.key));
  }
  stats->addSeparator();
  stats->addAction(tr("&Clear Conversation Filter"), this, [this] {
    packets_->filterBar()->setText({});
    packets_->filterBar()->apply();
  });
  addLessonsMenu(*menuBar(), *this);
}

QWidget* MainWindow::createScenarioBar() {
  auto* w = new QWidget(this);
  auto* l = new QHBoxLayout(w);
  l->setContentsMargins(4, 2, 4, 2);
  l->setSpacing(6);
  scenarioBox_ = new QComboBox(w);
  scenarioBox_->setObjectName(QStringLiteral("scenarioBox"));
  for (const auto& s : builtInScenarios())
    scenarioBox_->addItem(narration(s.title), QString::fromStdString(s.id));
  scenarioBox_->setToolTip(narration(builtInScenarios().front().description));
  wireBox_ = new QComboBox(w);
  wireBox_->setObjectName(QStringLiteral("wireBox"));
  wireBox_->addItem(tr("RoCEv2 (IPv4)"), static_cast<int>(sim::WireFormat::RoceV2Ipv4));
  wireBox_->addItem(tr("RoCEv2 (IPv6)"), static_cast<int>(sim::WireFormat::RoceV2Ipv6));
  wireBox_->addItem(tr("RoCEv1"), static_cast<int>(sim::WireFormat::RoceV1));
  wireBox_->addItem(tr("InfiniBand"), static_cast<int>(sim::WireFormat::InfiniBand));
  TransportChoice::addItems(*wireBox_);
  backendBox_ = new QComboBox(w);
  backendBox_->setObjectName(QStringLiteral("backendBox"));
  realRun_ = new RealRunController(this, backendBox_);
  // Long scenario titles and device names would set the window's minimum width: the boxes
  // show their start (the popup lists them whole).
  for (QComboBox* box : {scenarioBox_, backendBox_})
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  scenarioBox_->setMinimumContentsLength(32);  // the tour's title, whole
  backendBox_->setMinimumContentsLength(18);
  // Narrower than that on a laptop screen (1280 wide), whole titles from about 1400.
  scenarioBox_->setMinimumWidth(scenarioBox_->fontMetrics().horizontalAdvance(QLatin1Char('x')) *
                                20);
  backendBox_->setMinimumWidth(backendBox_->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 12);
  auto tool = [w](QAction* a) {
    auto* b = new QToolButton(w);
    b->setDefaultAction(a);
    b->setAutoRaise(true);
    return b;
  };
  const auto acts = actions();
  eventSpin_ = new QSpinBox(w);
  eventSpin_->setObjectName(QStringLiteral("eventSpin"));
  eventSpin_->setKeyboardTracking(false);
  eventSpin_->setToolTip(tr("Jump to an event (0: before the first)"));
  eventTotal_ = new QLabel(w);
  speed_ = new QSlider(Qt::Horizontal, w);
  speed_->setRange(1, 40);
  speed_->setValue(4);
  speed_->setFixedWidth(110);
  speed_->setToolTip(tr("Events per second when running"));
  auto* speedLabel = new QLabel(tr("4 events/s"), w);
  speedLabel->setMinimumWidth(speedLabel->fontMetrics().horizontalAdvance(tr("40 events/s")) + 4);

  l->addWidget(new QLabel(tr("Scenario:"), w));
  l->addWidget(scenarioBox_);
  l->addWidget(new QLabel(tr("Transport:"), w));
  l->addWidget(wireBox_);
  l->addWidget(new QLabel(tr("Backend:"), w));
  l->addWidget(backendBox_);
  l->addSpacing(12);
  // Stepping applies to a scenario only: a capture shows what mode the window is in instead.
  stepControls_ = new QWidget(w);
  stepControls_->setObjectName(QStringLiteral("stepControls"));
  auto* sl = new QHBoxLayout(stepControls_);
  sl->setContentsMargins(0, 0, 0, 0);
  sl->setSpacing(6);
  for (QAction* a : acts) {
    if (a == runAction_) continue;
    if (a->text().contains(tr("Forward")) || a->text().contains(tr("&End"))) continue;
    sl->addWidget(tool(a));
  }
  sl->addWidget(tool(runAction_));
  for (QAction* a : acts)
    if (a->text().contains(tr("Forward")) || a->text().contains(tr("&End"))) sl->addWidget(tool(a));
  sl->addSpacing(8);
  sl->addWidget(new QLabel(tr("Event:"), stepControls_));
  sl->addWidget(eventSpin_);
  sl->addWidget(eventTotal_);
  sl->addSpacing(8);
  sl->addWidget(new QLabel(tr("Speed:"), stepControls_));
  sl->addWidget(speed_);
  sl->addWidget(speedLabel);
  l->addWidget(stepControls_);
  modeLabel_ = new QLabel(w);
  modeLabel_->setObjectName(QStringLiteral("modeLabel"));
  modeLabel_->hide();
  l->addWidget(modeLabel_);
  l->addStretch(1);

  scenarioBox_->setPlaceholderText(tr("Run a scenario..."));
  auto reload = [this] {
    if (scenarioBox_->currentIndex() < 0) scenarioBox_->setCurrentIndex(0);
    if (!realRun_->runIfReal(scenarioBox_->currentData().toString()))
      openScenario(scenarioBox_->currentData().toString());
  };
  connect(scenarioBox_, &QComboBox::activated, this, reload);
  connect(wireBox_, &QComboBox::activated, this,
          [this] { chooseTransport(wireBox_->currentData().toInt()); });
  connect(backendBox_, &QComboBox::activated, this, reload);
  connect(eventSpin_, &QSpinBox::valueChanged, this, [this](int v) {
    if (congestionMode()) {
      if (v != congestion_->run()->sliceIndex()) congestion_->run()->goToSlice(v);
    } else if (v - 1 != scenario_->current()) {
      scenario_->goTo(v - 1);
    }
  });
  connect(speed_, &QSlider::valueChanged, this, [this, speedLabel](int v) {
    speedLabel->setText(tr("%1 events/s").arg(v));
    runTimer_->setInterval(1000 / v);
  });
  runTimer_->setInterval(1000 / speed_->value());
  return w;
}

bool MainWindow::chooseTransport(int transport) {
  const int at = wireBox_->findData(transport);
  if (at < 0) return false;
  wireBox_->setCurrentIndex(at);
  if (scenarioBox_->currentIndex() < 0) scenarioBox_->setCurrentIndex(0);
  const TransportDecision d = TransportChoice::forTransport(scenarioBox_->currentData().toString(),
                                                            transport, wireBox_->currentText());
  if (realRun_->runIfReal(d.scenario)) return true;
  const bool ok = openScenario(d.scenario);
  if (ok && !d.note.isEmpty()) statusBar()->showMessage(d.note, 15000);
  return ok;
}

CephMessengerView* MainWindow::showCephMessenger() {
  if (!ceph_) {
    ceph_ = new CephMessengerView(this);
    ceph_->setWindowFlag(Qt::Window);
    ceph_->resize(size());
    ceph_->runFromControls();
  }
  ceph_->show();
  ceph_->raise();
  return ceph_;
}

bool MainWindow::openScenario(const QString& id) {
  setRunning(false);
  leaveFabric();
  QString error;
  QString note;
  if (wireBox_) {
    const TransportDecision d =
        TransportChoice::forScenario(id, wireBox_->currentData().toInt(), wireBox_->currentText());
    wireBox_->setCurrentIndex(wireBox_->findData(d.transport));
    note = d.note;
  }
  if (note.isEmpty() && scenario_->connectWithCm()) note = TransportChoice::cmNote(id);
  const int chosen = wireBox_ ? wireBox_->currentData().toInt() : 0;
  const auto wire = chosen == kTransportIwarp || chosen == kTransportTcpSockets
                        ? sim::WireFormat::RoceV2Ipv4
                        : static_cast<sim::WireFormat>(chosen);
  bool loaded = scenario_->load(id.toStdString(), wire, error);
  if (!loaded && scenario_->connectWithCm() && TransportChoice::transportOf(id) < 0) {
    // A scenario the rdma_cm cannot connect (UD, UC, two QPs) runs with the exchange instead.
    note = tr("%1; it runs with the out-of-band exchange instead.").arg(error);
    scenario_->setConnectWithCm(false);
    loaded = scenario_->load(id.toStdString(), wire, error);
    scenario_->setConnectWithCm(true);
  }
  if (!loaded) {
    showError(tr("Cannot run scenario"), error);
    return false;
  }
  analysis_->start(store_.get());
  capturePath_.clear();
  reloadBar_->stop();
  const int idx = scenarioBox_ ? scenarioBox_->findData(id) : -1;
  if (idx >= 0) scenarioBox_->setCurrentIndex(idx);
  setWindowTitle(tr("%1 - rdmascope").arg(id));
  setScenarioMode(true);
  lastError_.clear();
  onEventChanged(scenario_->current());
  reportProblem();
  if (!note.isEmpty()) statusBar()->showMessage(note, 15000);
  return true;
}

bool MainWindow::openScenarioFile(const QString& path) {
  setRunning(false);
  leaveFabric();
  QString error;
  // A scenario file is verbs: from iWARP or TCP sockets the box goes back to a wire format.
  const TransportDecision d = TransportChoice::forScenario(
      QFileInfo(path).fileName(), wireBox_->currentData().toInt(), wireBox_->currentText());
  wireBox_->setCurrentIndex(wireBox_->findData(d.transport));
  if (!d.note.isEmpty()) statusBar()->showMessage(d.note, 15000);
  const auto wire = static_cast<sim::WireFormat>(wireBox_->currentData().toInt());
  if (!scenario_->loadFile(path.toStdString(), wire, error)) {
    showError(tr("Cannot run scenario"), error);
    return false;
  }
  analysis_->start(store_.get());
  capturePath_.clear();
  setWindowTitle(tr("%1 - rdmascope").arg(QFileInfo(path).fileName()));
  setScenarioMode(true);
  reloadBar_->watch(path);
  lastError_.clear();
  onEventChanged(scenario_->current());
  reportProblem();
  return true;
}

bool MainWindow::reloadScenarioFile() {
  const QString path = reloadBar_->path();
  if (path.isEmpty()) return false;
  const int event = scenario_->current();
  if (!openScenarioFile(path)) return false;
  scenario_->goTo(std::min(event, scenario_->eventCount() - 1));
  statusBar()->showMessage(tr("Reloaded %1").arg(QFileInfo(path).fileName()), 5000);
  return true;
}

bool MainWindow::saveScenarioAs(const QString& path) {
  const ScenarioRecording* rec = scenario_->recording();
  if (!rec) {
    showError(tr("Cannot save the scenario"), tr("No scenario is shown."));
    return false;
  }
  if (rec->scenarioText.empty()) {
    showError(tr("Cannot save the scenario"),
              tr("%1 runs on the TCP model, not from a scenario file: there is nothing to save.")
                  .arg(QString::fromStdString(rec->name)));
    return false;
  }
  QSaveFile file(path);
  const QByteArray text = QByteArray::fromStdString(rec->scenarioText);
  if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit()) {
    showError(tr("Cannot save the scenario"),
              tr("%1: cannot be written: %2").arg(path, file.errorString()));
    return false;
  }
  reloadBar_->watch(path);
  statusBar()->showMessage(tr("Saved %1; edits to it are offered for reload").arg(path), 5000);
  return true;
}

void MainWindow::setScenarioMode(bool on, const QString& capture) {
  leaveCongestion();
  const bool was = ladder_->isVisibleTo(this);
  const ScenarioRecording* rec = scenario_->recording();
  const bool transport = on && rec && rec->transport != RecordingTransport::Verbs;
  for (int h = 0; h < 2; ++h) {
    hosts_[h]->setVisible(on && !transport);
    transportPanes_[h]->setVisible(transport);
    hosts_[h]->parentWidget()->setVisible(on);
  }
  ladder_->setVisible(on);
  if (on != was) mainSplit_->setSizes(on ? QList<int>{540, 420} : QList<int>{90, 870});
  // A capture has no events to step: the stepping controls and keys go, the bar names the
  // capture, and the scenario box offers to run a scenario again.
  stepControls_->setVisible(on);
  for (QAction* a : actions())
    a->setEnabled(on);
  modeLabel_->setVisible(!on);
  modeLabel_->setText(on ? QString()
                         : tr("<b>Capture mode:</b> %1 — pick a scenario to step through one")
                               .arg(capture.toHtmlEscaped()));
  if (!on) {
    scenarioBox_->setCurrentIndex(-1);
    reloadBar_->stop();
  }
}

FabricSession* MainWindow::fabricSession() {
  if (fabric_) return fabric_;
  fabric_ = new FabricSession(store_.get(), this);
  fabricView_ = new FabricView(fabric_, store_.get(), this);
  fabricView_->hide();
  mainSplit_->insertWidget(0, fabricView_);
  connect(fabricView_, &FabricView::frameActivated, this, &MainWindow::showFrame);
  // The session refills the window's store: what reads it stops first, as for a live capture.
  connect(fabric_, &FabricSession::storeAboutToChange, this, [this] {
    setRunning(false);
    if (live_) live_->stop();
    analysis_->clear();
    scenario_->unload();
  });
  connect(fabric_, &FabricSession::storeReset, this, [this] {
    packets_->storeReset();
    analysis_->beginLive(store_.get());
    capturePath_.clear();
    statusFrames_->setText(tr("Packets: %1").arg(store_->size()));
  });
  connect(fabric_, &FabricSession::framesAppended, this, [this] {
    if (packets_->packetModel()->rowCount() == 0 && !store_->empty()) {
      packets_->storeReset();
      packets_->selectFrame(0);
    } else {
      packets_->storeAppended();
    }
    statusFrames_->setText(tr("Packets: %1").arg(store_->size()));
    analysis_->liveAppended();
  });
  connect(fabric_, &FabricSession::closed, this, [this](const QString& why) {
    analysis_->endLive();
    statusBar()->showMessage(tr("The fabric went away: %1").arg(why));
  });
  return fabric_;
}

bool MainWindow::attachFabric(const QString& socketPath) {
  QString error;
  if (!fabricSession()->attach(socketPath, error)) {
    showError(tr("Cannot attach to the fabric"), error);
    return false;
  }
  setFabricMode(true);
  setWindowTitle(tr("Fabric %1 - rdmascope").arg(fabric_->socketPath()));
  explain(tr("Fabric"),
          tr("Attached to the fabric at %1. Each program attached to a host has a pane with its "
             "PDs, MRs, QPs, queues and CQs; the timeline lists its verbs calls among the frames "
             "they produced. Pause holds the frames at the switch and stops every program at "
             "its next verbs call; Step call and Step frame let one through.")
              .arg(fabric_->socketPath()));
  lastError_.clear();
  statusBar()->showMessage(tr("Attached to the fabric at %1").arg(fabric_->socketPath()), 5000);
  return true;
}

void MainWindow::leaveFabric() {
  if (!fabric_) return;
  fabric_->detach();
  setFabricMode(false);
}

void MainWindow::setFabricMode(bool on) {
  if (!fabricView_) return;
  const bool was = fabricView_->isVisibleTo(this);
  if (on) {
    setScenarioMode(false);
    modeLabel_->setText(tr("<b>Fabric mode:</b> %1 — live; pick a scenario to leave it")
                            .arg(fabric_->socketPath().toHtmlEscaped()));
    eventSpin_->setRange(0, 0);
    eventTotal_->setText(tr("(fabric)"));
  }
  fabricView_->setVisible(on);
  scenarioTop_->setVisible(!on);
  if (on && !was) mainSplit_->setSizes({600, 400});
  if (!on && was) mainSplit_->setSizes({90, 870});
}

void MainWindow::reportProblem() {
  const auto* rec = scenario_->recording();
  if (rec && !rec->problem.empty())
    statusBar()->showMessage(tr("Scenario: %1").arg(QString::fromStdString(rec->problem)));
}

void MainWindow::setRunning(bool run) {
  if (run && congestionMode()) {
    if (congestion_->run()->time() >= congestion_->run()->duration())
      congestion_->run()->setTime({});
    runTimer_->start();
  } else if (run && scenario_->loaded()) {
    if (scenario_->current() + 1 >= scenario_->eventCount()) scenario_->goTo(-1);
    runTimer_->start();
  } else {
    runTimer_->stop();
  }
  if (runAction_)
    runAction_->setIcon(style()->standardIcon(runTimer_->isActive() ? QStyle::SP_MediaPause
                                                                    : QStyle::SP_MediaPlay));
}

bool MainWindow::running() const {
  return runTimer_->isActive();
}

void MainWindow::onEventChanged(int event) {
  if (eventSpin_) {
    const QSignalBlocker block(eventSpin_);
    eventSpin_->setRange(0, scenario_->eventCount());
    eventSpin_->setValue(event + 1);
    eventTotal_->setText(tr("of %1").arg(scenario_->eventCount()));
  }
  if (event >= 0) {
    const QModelIndex row = eventModel_->index(event, 0);
    eventView_->selectionModel()->setCurrentIndex(
        row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    eventView_->scrollTo(row, QAbstractItemView::PositionAtCenter);
  } else {
    eventView_->clearSelection();
  }
  explanation_->setHtml(
      explanationHtml(scenario_->title(), scenario_->explanation(), scenario_->explanationTerms()));
  explanation_->setToolTip(scenario_->explanationDetail());
  analysisChanged();
  statusFrames_->setText(tr("Frames on the wire: %1").arg(scenario_->framesShown()));
}

void MainWindow::explain(const QString& title, const QString& text) {
  explanation_->setHtml(explanationHtml(title, text, {}));
  explanation_->setToolTip(QString());
}

void MainWindow::onFrameSelected(qint64 frame) {
  analysis_->setCurrentFrame(frame);
  if (frame < 0) {
    dataPath_->view()->setFrame(nullptr);
    if (fabricView_) fabricView_->setCurrentFrame(-1);
    return;
  }
  const auto d = packets_->packetModel()->dissection(static_cast<std::size_t>(frame));
  dataPath_->view()->setFrame(d.get());
  if (fabricView_ && fabricView_->isVisible()) fabricView_->setCurrentFrame(frame);
  if (scenario_->loaded() || congestionMode()) return;  // the scenario's explanation stays
  QString text = QString::fromStdString(d->summary.protocol + "  " + d->summary.info);
  for (const auto& diag : d->diagnostics)
    text += QStringLiteral("\n") + QString::fromStdString(diag.message);
  explain(tr("Frame %1").arg(frame + 1), text);
}

LiveCaptureDialog* MainWindow::liveCaptureDialog() {
  if (live_) return live_;
  live_ = new LiveCaptureDialog(this);
  live_->setTarget(store_.get());
  connect(live_, &LiveCaptureDialog::captureStarting, this, [this] {
    setRunning(false);
    leaveFabric();
    scenario_->unload();
    setScenarioMode(false, tr("live capture"));
    packets_->storeReset();
    analysis_->beginLive(store_.get());
    capturePath_.clear();
    eventSpin_->setRange(0, 0);
    eventTotal_->setText(tr("(live capture)"));
    setWindowTitle(tr("Live capture - rdmascope"));
  });
  connect(live_, &LiveCaptureDialog::framesArrived, this, [this] {
    if (packets_->packetModel()->rowCount() == 0 && packets_->store().size() > 0) {
      packets_->storeReset();
      packets_->selectFrame(0);
    } else {
      packets_->storeAppended();
    }
    statusFrames_->setText(tr("Packets: %1").arg(packets_->store().size()));
    analysis_->liveAppended();
  });
  connect(live_, &LiveCaptureDialog::captureStopped, analysis_, &AnalysisController::endLive);
  connect(live_, &LiveCaptureDialog::storeAboutToClear, analysis_, &AnalysisController::clear);
  return live_;
}

bool MainWindow::saveFrames(const QString& path) {
  std::string error;
  if (!saveCaptureFile(*store_, path.toStdString(), error)) {
    showError(tr("Save Frames"), QString::fromStdString(error));
    return false;
  }
  statusBar()->showMessage(
      tr("Saved %1 frames to %2").arg(store_->size()).arg(QDir::toNativeSeparators(path)), 5000);
  return true;
}

void MainWindow::openCaptureDialog() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open Capture"), QFileInfo(capturePath_).absolutePath(),
                                   tr("Captures (*.pcap *.pcapng *.cap *.erf);;All files (*)"));
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
  setRunning(false);
  if (live_) live_->stop();
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
  leaveFabric();
  scenario_->unload();
  setScenarioMode(false, tr("%1 (%2 frames)").arg(QFileInfo(path).fileName()).arg(outcome.frames));
  explain(tr("Capture"), tr("%1: %2 frames. Select a frame to see its headers, its bytes and "
                            "the layers it has in each stack.")
                             .arg(QFileInfo(path).fileName())
                             .arg(outcome.frames));
  // The pane keeps a pointer to the store: replace its contents, not the object.
  analysis_->clear();
  *store_ = std::move(*loaded);
  packets_->storeReset();
  analysis_->start(store_.get());
  capturePath_ = path;
  selectCaptureTransport(*wireBox_, detectCaptureTransport(*store_));
  setWindowTitle(QStringLiteral("%1 - rdmascope").arg(QFileInfo(path).fileName()));
  statusFrames_->setText(tr("Packets: %1").arg(packets_->store().size()));
  eventSpin_->setRange(0, 0);
  eventTotal_->setText(tr("(capture)"));
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
