#include "rdmascope/ui/command_line.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QSignalBlocker>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "rdmascope/ui/analysis_controller.h"
#include "rdmascope/ui/congestion_run_view.h"
#include "rdmascope/ui/device_run.h"
#include "rdmascope/ui/fabric_session.h"
#include "rdmascope/ui/language.h"
#include "rdmascope/ui/lesson_pane.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/scenario_controller.h"

namespace rdmascope::ui {

int runGuiCommandLine(QApplication& app) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("See RDMA from the verbs call down to the bytes on the wire."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(
      QStringLiteral("capture"),
      QStringLiteral("A pcap or pcapng file to open (with --fabric: the fabric's socket)."),
      "[capture]");
  const QCommandLineOption step(QStringLiteral("event"),
                                QStringLiteral("Start the scenario at event N (1-based)."),
                                QStringLiteral("N"));
  const QCommandLineOption shot(QStringLiteral("screenshot"),
                                QStringLiteral("Save the window as a PNG and quit."),
                                QStringLiteral("file"));
  const QCommandLineOption tab(
      QStringLiteral("tab"),
      QStringLiteral("Show a lower tab (Conversations, Anomalies, Flow Graph, Plot, ...)."),
      QStringLiteral("name"));
  const QCommandLineOption size(QStringLiteral("size"),
                                QStringLiteral("Window size, WIDTHxHEIGHT (default 1600x1000)."),
                                QStringLiteral("WxH"));
  const QCommandLineOption frame(QStringLiteral("frame"),
                                 QStringLiteral("Select frame N (1-based) of the opened capture."),
                                 QStringLiteral("N"));
  const QCommandLineOption scenario(QStringLiteral("scenario"),
                                    QStringLiteral("Open a built-in scenario (with --device: run "
                                                   "it on the device)."),
                                    QStringLiteral("name"));
  const QCommandLineOption device(
      QStringLiteral("device"),
      QStringLiteral("Run --scenario on this RDMA device, capturing on its interface."),
      QStringLiteral("name"));
  const QCommandLineOption connect(
      QStringLiteral("connect"),
      QStringLiteral("With --device: play host 1; the peer at HOST runs rdmascope-cli verbs "
                     "--server."),
      QStringLiteral("host[:port]"));
  const QCommandLineOption serve(
      QStringLiteral("serve"),
      QStringLiteral("With --device: play host 0 and wait for the peer to connect."));
  const QCommandLineOption loopback(
      QStringLiteral("loopback"),
      QStringLiteral("With --device: both hosts on the device (nothing can be captured)."));
  const QCommandLineOption port(QStringLiteral("port"),
                                QStringLiteral("TCP port of the exchange with the peer (18515)."),
                                QStringLiteral("port"));
  const QCommandLineOption quit(QStringLiteral("quit-after-run"),
                                QStringLiteral("With --device: quit when the run has ended."));
  const QCommandLineOption fabric(
      QStringLiteral("fabric"),
      QStringLiteral("Attach to a running fabric (rdmascope-cli fabric) and show it live; the "
                     "socket is the argument, else the default one."));
  const QCommandLineOption wait(
      QStringLiteral("wait"),
      QStringLiteral("With --screenshot: take it MS milliseconds after starting (800), e.g. once "
                     "the programs on a --fabric have run."),
      QStringLiteral("MS"));
  const QCommandLineOption pause(
      QStringLiteral("pause"),
      QStringLiteral("With --fabric: pause it once attached (frames wait at the switch, programs "
                     "stop at their next verbs call) to step from there."));
  const QCommandLineOption congestion(
      QStringLiteral("congestion"),
      QStringLiteral("Run a congestion scenario file (PFC, ECN, DCQCN; examples/congestion) and "
                     "step through it."),
      QStringLiteral("file"));
  const QCommandLineOption at(
      QStringLiteral("at-us"),
      QStringLiteral("With --congestion: start at this simulated time in microseconds."),
      QStringLiteral("us"));
  const QCommandLineOption language(
      QStringLiteral("language"),
      QStringLiteral(
          "The GUI's language: system, en or zh_CN (default: View > Language's choice)."),
      QStringLiteral("lang"));
  const QCommandLineOption cm(
      QStringLiteral("cm"),
      QStringLiteral("Connect the scenario's RC QP with the simulated rdma_cm (CM REQ, REP, RTU "
                     "as steps and frames) instead of the out-of-band exchange."));
  const QCommandLineOption lesson(
      QStringLiteral("lesson"),
      QStringLiteral("Start a lesson of the Lessons menu (send-recv, write, errors, ...): its "
                     "scenario with questions before the steps."),
      QStringLiteral("id"));
  for (const auto* o :
       {&size, &frame, &step,   &shot, &tab,   &scenario,   &device, &connect,  &serve, &loopback,
        &port, &quit,  &fabric, &wait, &pause, &congestion, &at,     &language, &cm,    &lesson})
    parser.addOption(*o);
  parser.process(app);
  const QString lang = parser.isSet(language) ? parser.value(language) : savedLanguageChoice();
  if (lang != QLatin1String("system") && lang != QLatin1String("en") &&
      lang != QLatin1String("zh_CN")) {
    std::fprintf(stderr, "rdmascope: --language wants system, en or zh_CN, not '%s'\n",
                 qPrintable(lang));
    return 2;
  }
  installLanguage(resolveLanguage(lang));
  if (parser.isSet(cm) &&
      (parser.isSet(device) || parser.isSet(fabric) || parser.isSet(congestion))) {
    std::fprintf(stderr, "rdmascope: --cm applies to simulated scenarios only\n");
    return 2;
  }

  MainWindow window;
  if (parser.isSet(size)) {
    const QStringList wh = parser.value(size).split(QLatin1Char('x'));
    bool okW = false, okH = false;
    const int w = wh.size() == 2 ? wh[0].toInt(&okW) : 0;
    const int h = wh.size() == 2 ? wh[1].toInt(&okH) : 0;
    if (!okW || !okH || w < 200 || h < 200 || w > 7680 || h > 4320) {
      std::fprintf(stderr,
                   "rdmascope: --size wants WIDTHxHEIGHT from 200x200 to 7680x4320, e.g. "
                   "1100x700, not '%s'\n",
                   qPrintable(parser.value(size)));
      return 2;
    }
    window.resize(w, h);
  }
  window.show();
  if (parser.isSet(device)) {
    DeviceRunRequest request;
    QString error;
    // The range and the message of rdmascope-cli verbs --port.
    bool portOk = true;
    const uint portNumber = parser.isSet(port) ? parser.value(port).toUInt(&portOk) : 0;
    if (parser.isSet(port) && (!portOk || portNumber < 1 || portNumber > 65535)) {
      std::fprintf(stderr, "rdmascope: --port: '%s' is not an integer from 1 to 65535\n",
                   qPrintable(parser.value(port)));
      return 2;
    }
    if (!deviceRunFromArguments(parser.value(device), parser.value(connect), parser.isSet(serve),
                                parser.isSet(loopback), parser.value(scenario),
                                static_cast<int>(portNumber), request, error)) {
      std::fprintf(stderr, "rdmascope: %s\n", qPrintable(error));
      return 2;
    }
    startScriptedDeviceRun(window, request, parser.value(shot), parser.isSet(quit));
    return QApplication::exec();
  }
  if (parser.isSet(pause) && !parser.isSet(fabric)) {
    std::fprintf(stderr, "rdmascope: --pause applies to --fabric only\n");
    return 2;
  }
  if (parser.isSet(fabric)) {
    const QStringList args = parser.positionalArguments();
    if (args.size() > 1 || parser.isSet(scenario) || parser.isSet(step)) {
      std::fprintf(stderr,
                   "rdmascope: --fabric takes one socket path and no --scenario or --event\n");
      return 2;
    }
    if (!window.attachFabric(args.isEmpty() ? QString() : args.front())) {
      std::fprintf(stderr, "rdmascope: --fabric: %s\n", qPrintable(window.lastError()));
      return 2;
    }
    if (parser.isSet(pause)) window.fabricSession()->pause();
  }
  if (parser.isSet(at) && !parser.isSet(congestion)) {
    std::fprintf(stderr, "rdmascope: --at-us applies to --congestion only\n");
    return 2;
  }
  if (parser.isSet(congestion)) {
    if (parser.isSet(scenario) || parser.isSet(step) || parser.isSet(fabric)) {
      std::fprintf(stderr, "rdmascope: --congestion takes no --scenario, --event or --fabric\n");
      return 2;
    }
    if (!window.openCongestionScenario(parser.value(congestion))) {
      std::fprintf(stderr, "rdmascope: --congestion: %s\n", qPrintable(window.lastError()));
      return 2;
    }
    if (parser.isSet(at)) {
      bool ok = false;
      const double us = parser.value(at).toDouble(&ok);
      const double total = window.congestionRun()->run()->duration().micros();
      if (!ok || us < 0 || us > total) {
        std::fprintf(stderr, "rdmascope: --at-us: '%s' is not a time from 0 to %g\n",
                     qPrintable(parser.value(at)), total);
        return 2;
      }
      window.congestionRun()->run()->setTime(
          sim::SimTime::ps(static_cast<std::int64_t>(us * 1e6 + 0.5)));
    }
  }
  if (parser.isSet(cm)) {
    window.scenario()->setConnectWithCm(true);
    const QSignalBlocker quiet(window.cmAction());
    window.cmAction()->setChecked(true);
    if (!parser.isSet(scenario) && window.scenario()->loaded())
      window.openScenario(QString::fromStdString(window.scenario()->recording()->source));
  }
  if (parser.isSet(scenario) && !window.openScenario(parser.value(scenario))) {
    std::fprintf(stderr, "rdmascope: --scenario: %s\n", qPrintable(window.lastError()));
    return 2;
  }
  if (parser.isSet(lesson)) {
    if (parser.isSet(scenario) || parser.isSet(congestion) || parser.isSet(fabric) ||
        !parser.positionalArguments().isEmpty()) {
      std::fprintf(stderr,
                   "rdmascope: --lesson runs its own scenario: no --scenario, --congestion, "
                   "--fabric or capture\n");
      return 2;
    }
    QString error;
    if (!lessonPane(window)->start(parser.value(lesson), error)) {
      std::fprintf(stderr, "rdmascope: --lesson: %s\n", qPrintable(error));
      return 2;
    }
  }
  if (!parser.positionalArguments().isEmpty() && !parser.isSet(fabric) &&
      !window.openCapture(parser.positionalArguments()[0])) {
    // The error box stays open for a person; a screenshot run has nobody to read it.
    std::fprintf(stderr, "rdmascope: %s\n", qPrintable(window.lastError()));
    if (parser.isSet(shot)) return 2;
  }
  if (parser.isSet(step)) {
    bool ok = false;
    const int n = parser.value(step).toInt(&ok);
    const int events = window.scenario()->eventCount();
    if (!ok || n < 1 || n > events) {
      std::fprintf(stderr, "rdmascope: --event: '%s' is not an integer from 1 to %d\n",
                   qPrintable(parser.value(step)), events);
      return 2;
    }
    window.scenario()->goTo(n - 1);
  }
  if (parser.isSet(frame)) {
    bool ok = false;
    const qulonglong n = parser.value(frame).toULongLong(&ok);
    if (!ok || n == 0 || !window.packetPane()->selectFrame(n - 1)) {
      if (parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "rdmascope: --frame '%s': open a capture to select a frame of it\n",
                     qPrintable(parser.value(frame)));
      } else {
        std::fprintf(stderr, "rdmascope: --frame: '%s' is not a frame of the capture (1 to %zu)\n",
                     qPrintable(parser.value(frame)), window.packetPane()->store().size());
      }
      return 2;
    }
  }
  if (parser.isSet(tab)) {
    QTabWidget* tabs = window.lowerTabs();
    QStringList names;
    int found = -1;
    // The tab's name as shown (in the GUI's language) or in English (the tab's data).
    for (int i = 0; i < tabs->count(); ++i) {
      const QString name = tabs->tabText(i).remove(QLatin1Char('&'));
      const QString english = tabs->tabBar()->tabData(i).toString();
      names << (english.isEmpty() || english == name
                    ? name
                    : QStringLiteral("%1 (%2)").arg(english, name));
      const QString wanted = parser.value(tab);
      if (found < 0 && !wanted.isEmpty() &&
          (name.startsWith(wanted, Qt::CaseInsensitive) ||
           english.startsWith(wanted, Qt::CaseInsensitive)))
        found = i;
    }
    if (found < 0) {
      std::fprintf(stderr, "rdmascope: --tab: no tab '%s' (tabs: %s)\n",
                   qPrintable(parser.value(tab)), qPrintable(names.join(QStringLiteral(", "))));
      return 2;
    }
    tabs->setCurrentIndex(found);
  }
  if (parser.isSet(shot)) {
    bool okWait = true;
    const int ms = parser.isSet(wait) ? parser.value(wait).toInt(&okWait) : 800;
    if (!okWait || ms < 0 || ms > 3600000) {
      std::fprintf(stderr,
                   "rdmascope: --wait: '%s' is not a number of milliseconds (0 to 3600000)\n",
                   qPrintable(parser.value(wait)));
      return 2;
    }
    QTimer::singleShot(ms, &window, [&window, file = parser.value(shot)] {
      window.analysis()->waitForIdle();
      const bool ok = window.grab().save(file);
      QApplication::exit(ok ? 0 : 1);
    });
  }
  return QApplication::exec();
}

}  // namespace rdmascope::ui

namespace rdmascope::ui {

bool chooseGuiPlatform(int argc, char** argv) {
  const auto set = [](const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
  };
  if (set("DISPLAY") || set("WAYLAND_DISPLAY") || set("QT_QPA_PLATFORM")) return true;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") break;
    if (a == "-h" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version" ||
        a == "--screenshot" || a.starts_with("--screenshot=")) {
      setenv("QT_QPA_PLATFORM", "offscreen", 1);
      return true;
    }
  }
  std::fprintf(stderr,
               "rdmascope: no display (DISPLAY and WAYLAND_DISPLAY are unset): run it in a desktop "
               "session or under xvfb-run, or use --screenshot PNG or rdmascope-cli\n");
  return false;
}

}  // namespace rdmascope::ui
