#include <gtest/gtest.h>
#include <unistd.h>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QProgressDialog>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QTimer>

#include "../support/oracle.h"
#include "rdmascope/ui/backend_choice.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/real_run_controller.h"
#include "rdmascope/ui/scenario_controller.h"

#ifdef RDMASCOPE_HAVE_IBVERBS
#include "rdmascope/verbs_backend/ibv_backend.h"
#endif

namespace rdmascope::ui {
namespace {

QString scratch(const QString& name) {
  return QStringLiteral(RDMASCOPE_BINARY_DIR "/tests/ui/%1_%2").arg(::getpid()).arg(name);
}

void writeText(const QString& path, const QByteArray& text) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(text);
}

TEST(BackendChoice, ListsTheSimulatorEveryDeviceAndTheLab) {
  const BackendInventory inv = discoverBackends();
  ASSERT_FALSE(inv.options.empty());
  EXPECT_EQ(inv.options.front().kind, BackendOption::Kind::Simulator);
  QStringList devices;
  for (const auto& o : inv.options)
    if (o.kind == BackendOption::Kind::Device) devices << o.device;
#ifdef RDMASCOPE_HAVE_IBVERBS
  const auto listed = verbs_backend::IbvBackend::listDevices();
  QStringList expected;
  if (listed.ok())
    for (const auto& d : listed.value)
      expected << QString::fromStdString(d);
  EXPECT_EQ(devices, expected);
#endif
  const bool labHere = !findLabDir({}).isEmpty() && !findCliBinary({}).isEmpty() &&
                       !QStandardPaths::findExecutable("qemu-system-x86_64").isEmpty();
  const auto lab = std::count_if(inv.options.begin(), inv.options.end(),
                                 [](const auto& o) { return o.kind == BackendOption::Kind::Lab; });
  EXPECT_EQ(lab, labHere ? 1 : 0) << inv.labMissing.toStdString();
  EXPECT_EQ(inv.labMissing.isEmpty(), labHere);
  if (devices.isEmpty()) {
    EXPECT_TRUE(inv.tooltip.contains("No RDMA device")) << inv.tooltip.toStdString();
    EXPECT_TRUE(inv.tooltip.contains("lab")) << inv.tooltip.toStdString();
  }

  // The main window's backend box holds exactly these entries, with the tooltip.
  MainWindow w;
  auto* box = w.findChild<QComboBox*>("backendBox");
  ASSERT_NE(box, nullptr);
  ASSERT_EQ(box->count(), static_cast<int>(inv.options.size()));
  for (int i = 0; i < box->count(); ++i)
    EXPECT_EQ(box->itemText(i), inv.options[static_cast<std::size_t>(i)].label);
  EXPECT_EQ(box->toolTip(), inv.tooltip);
  EXPECT_EQ(box->currentIndex(), 0);
  EXPECT_EQ(w.realRun()->chosen().kind, BackendOption::Kind::Simulator);
  EXPECT_FALSE(w.realRun()->runIfReal("tour"));
}

TEST(BackendChoice, NetdevComesFromSysfs) {
  const QString root = scratch("sysfs");
  QDir(root).removeRecursively();
  writeText(root + "/rxe0/ports/1/gid_attrs/ndevs/0", "");
  writeText(root + "/rxe0/ports/1/gid_attrs/ndevs/1", "eth7\n");
  writeText(root + "/mlx5_0/ports/1/gid_attrs/ndevs/10", "ens2\n");
  writeText(root + "/mlx5_0/ports/1/gid_attrs/ndevs/2", "ens1\n");
  EXPECT_EQ(netdevOfDevice("rxe0", 1, root), "eth7");
  EXPECT_EQ(netdevOfDevice("mlx5_0", 1, root), "ens1");
  EXPECT_EQ(netdevOfDevice("rxe0", 2, root), "");
  EXPECT_EQ(netdevOfDevice("gone0", 1, root), "");
  QDir(root).removeRecursively();
}

TEST(BackendChoice, CompletionLinesAreFoundInProgramOutput) {
  const QString out =
      "# rdmascope scenario rc-send-recv -> /tmp/x\n"
      "# guest 1 output (/tmp/x/guest1/output.txt)\n"
      "server wr_id 1 SUCCESS RECV byte_len 5000 qp 0x000011\n"
      "note: posting\n"
      "client wr_id 2 SUCCESS SEND byte_len 5000 qp 0x0000a2\n"
      "client wr_id 3 REM_ACCESS_ERR\n"
      "rdmascope: rc-send-recv on rxe0: 1 completion\n"
      "30 frames: 30 good CRC, 0 bad CRC, 0 without CRC\n";
  const QStringList lines = completionLines(out);
  ASSERT_EQ(lines.size(), 3);
  // An error completion has no opcode or length (ibv_poll_cq(3)): formatCompletion stops there.
  EXPECT_EQ(lines[2], "client wr_id 3 REM_ACCESS_ERR");
  EXPECT_EQ(lines[0], "server wr_id 1 SUCCESS RECV byte_len 5000 qp 0x000011");
  EXPECT_EQ(withoutQpn(lines[1]), "client wr_id 2 SUCCESS SEND byte_len 5000");
}

TEST(RealRun, MissingCliIsOneClearLineAndTheAppKeepsRunning) {
  MainWindow w;
  QComboBox box;
  BackendSearch search;
  search.cliOverride = QStringLiteral("/nonexistent/bin/rdmascope-cli");
  search.probeDevices = false;
  RealRunController run(&w, &box, search);
  EXPECT_EQ(findCliBinary(search), "");
  QSignalSpy done(&run, &RealRunController::finished);
  EXPECT_FALSE(run.runInLab("rc-send-recv"));
  ASSERT_EQ(done.size(), 1);
  EXPECT_FALSE(done.front().front().toBool());
  EXPECT_TRUE(run.lastError().startsWith("rdmascope-cli not found"))
      << run.lastError().toStdString();
  EXPECT_TRUE(run.lastError().contains("/nonexistent/bin/rdmascope-cli"));
  EXPECT_FALSE(run.lastError().contains('\n'));
  EXPECT_TRUE(w.explanation()->toPlainText().contains("rdmascope-cli not found"));
  EXPECT_FALSE(run.busy());
  // Without a cli the lab is not offered, and the window still runs scenarios.
  for (const auto& o : run.inventory().options)
    EXPECT_NE(o.kind, BackendOption::Kind::Lab);
  EXPECT_TRUE(w.openScenario("rc-send-recv"));
  EXPECT_TRUE(w.scenario()->stepForward());
}

// The lab's stand-in: a cli whose `lab run NAME --out DIR ...` writes what `rdmascope-cli sim
// NAME` prints as guest 1's output, and its pcap as the capture. A lab run from the GUI shows
// the program it runs (the window opens it if it shows another) and compares the real
// completions with that recording's.
TEST(RealRun, ALabRunIsComparedWithTheProgramShown) {
  const QString cli = findCliBinary({});
  ASSERT_FALSE(cli.isEmpty()) << "rdmascope-cli is not built";
  const QString fake = scratch("fake-lab-cli.sh");
  writeText(fake, QStringLiteral("#!/bin/sh\n"
                                 "[ \"$1 $2 $4\" = \"lab run --out\" ] || exit 2\n"
                                 "mkdir -p \"$5/guest1\" \"$5/guest2\" || exit 1\n"
                                 "exec '%1' sim \"$3\" --trace none --pcap \"$5/capture.pcap\" "
                                 ">\"$5/guest1/output.txt\"\n")
                      .arg(cli)
                      .toUtf8());
  QFile::setPermissions(fake,
                        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
  MainWindow w(nullptr, QStringLiteral("rc-write"));
  QComboBox box;
  BackendSearch search;
  search.cliOverride = fake;
  search.probeDevices = false;
  RealRunController run(&w, &box, search);
  run.setOutputRoot(scratch("lab-out"));
  QSignalSpy done(&run, &RealRunController::finished);
  ASSERT_TRUE(run.runInLab(QStringLiteral("tour"))) << run.lastError().toStdString();
  ASSERT_NE(w.scenario()->recording(), nullptr);
  EXPECT_EQ(w.scenario()->recording()->source, "tour");
  QStringList shown;
  for (const auto& l : w.scenario()->recording()->completions)
    shown << QString::fromStdString(l);
  ASSERT_EQ(shown.size(), 6);
  ASSERT_TRUE(done.wait(60000)) << run.output().toStdString();
  EXPECT_TRUE(done.front().front().toBool()) << run.lastError().toStdString();
  EXPECT_EQ(run.simulatedCompletions(), shown);
  EXPECT_EQ(run.realCompletions(), shown);
  EXPECT_EQ(run.agreeingLines(), 6);
  EXPECT_GT(w.frameStore().size(), 10u);  // the capture is open
  EXPECT_TRUE(w.explanation()->toPlainText().contains(shown.back()));
  QDir(scratch("lab-out")).removeRecursively();
  QFile::remove(fake);
}

// A real lab run (two qemu guests, about 40 s): registered as ui.lab_run, label "lab". The
// window runs the tour it shows and compares the guests' completions with that recording's.
TEST(LabRun, TheTourShownThroughTheGui) {
  RDMASCOPE_NEED_ORACLES(Lab);
  MainWindow w;
  w.show();
  RealRunController* run = w.realRun();
  auto* box = w.findChild<QComboBox*>("backendBox");
  int lab = -1;
  for (std::size_t i = 0; i < run->inventory().options.size(); ++i)
    if (run->inventory().options[i].kind == BackendOption::Kind::Lab) lab = static_cast<int>(i);
  ASSERT_GE(lab, 0) << "the lab is not offered: " << run->inventory().labMissing.toStdString();
  box->setCurrentIndex(lab);
  run->setOutputRoot(QStringLiteral(RDMASCOPE_BINARY_DIR "/tests/ui"));
  QSignalSpy done(run, &RealRunController::finished);
  QSignalSpy progress(run, &RealRunController::progress);
  ASSERT_EQ(w.scenario()->recording()->source, "tour");
  QStringList program;
  for (const auto& l : w.scenario()->recording()->completions)
    program << withoutQpn(QString::fromStdString(l));
  ASSERT_TRUE(run->runIfReal("tour"));
  EXPECT_TRUE(run->busy());
  ASSERT_NE(run->progressDialog(), nullptr);
  EXPECT_TRUE(run->progressDialog()->isVisible());
  // The dialog says what the guests are doing while they boot and run.
  QStringList phases;
  QTimer watch;
  QObject::connect(&watch, &QTimer::timeout, [&] {
    if (run->progressDialog()) phases << run->progressDialog()->labelText();
  });
  watch.start(1000);
  ASSERT_TRUE(done.wait(360000)) << run->output().toStdString();
  watch.stop();
  EXPECT_TRUE(phases.join('\n').contains("guest 1 booting")) << phases.join('\n').toStdString();
  EXPECT_TRUE(phases.join('\n').contains("guest 2 running the scenario"))
      << phases.join('\n').toStdString();
  EXPECT_TRUE(done.front().front().toBool()) << run->lastError().toStdString() << "\n"
                                             << run->output().toStdString();
  EXPECT_GT(progress.size(), 0);
  // The capture is in the packet list; every frame is RoCEv2 with a good ICRC.
  ASSERT_GE(w.frameStore().size(), 2u);  // at least a request and its ACK
  for (std::size_t i = 0; i < w.frameStore().size(); ++i)
    EXPECT_EQ(w.frameStore().decode(i).crc, packets::CrcStatus::Good) << "frame " << i + 1;
  // Both sides' completions are shown, and equal the simulator's but for the QPNs.
  ASSERT_FALSE(run->realCompletions().isEmpty());
  ASSERT_EQ(run->realCompletions().size(), run->simulatedCompletions().size());
  QStringList real, sim;
  for (const auto& l : run->realCompletions())
    real << withoutQpn(l);
  for (const auto& l : run->simulatedCompletions())
    sim << withoutQpn(l);
  EXPECT_EQ(sim, program);
  real.sort();
  sim.sort();
  EXPECT_EQ(real, sim);
  const QString shown = w.explanation()->toPlainText();
  for (const auto& l : run->realCompletions())
    EXPECT_TRUE(shown.contains(l)) << l.toStdString();
  EXPECT_TRUE(shown.contains("simulator"));
  QDir(run->outDir()).removeRecursively();
}

}  // namespace
}  // namespace rdmascope::ui
