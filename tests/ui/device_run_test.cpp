#include "rdmascope/ui/device_run.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <QLabel>
#include <QLineEdit>
#include <QProgressDialog>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTextBrowser>

#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/real_run_controller.h"
#include "rdmascope/ui/scenario_controller.h"

namespace rdmascope::ui {
namespace {

using Peer = DeviceRunRequest::Peer;

TEST(DeviceRunArguments, PeerAddressesWithAndWithoutPort) {
  struct Case {
    const char* text;
    const char* host;
    int port;
  };
  for (const Case& c : {Case{"10.9.0.2", "10.9.0.2", 18515}, Case{" peer:7000 ", "peer", 7000},
                        Case{"[fe80::1]:19000", "fe80::1", 19000},
                        Case{"fe80::1", "fe80::1", 18515}, Case{"[::1]", "::1", 18515}}) {
    QString host, error;
    std::uint16_t port = 18515;
    EXPECT_TRUE(parsePeerAddress(c.text, host, port, error))
        << c.text << ": " << error.toStdString();
    EXPECT_EQ(host, c.host) << c.text;
    EXPECT_EQ(port, c.port) << c.text;
  }
  struct Bad {
    const char* text;
    const char* error;
  };
  for (const Bad& b : {Bad{"", "no peer host given: enter HOST or HOST:PORT"},
                       Bad{"peer:", "'peer:': the port must be a number from 1 to 65535"},
                       Bad{"peer:0", "'peer:0': the port must be a number from 1 to 65535"},
                       Bad{"peer:70000", "'peer:70000': the port must be a number from 1 to 65535"},
                       Bad{"peer:http", "'peer:http': the port must be a number from 1 to 65535"},
                       Bad{":18515", "':18515' is not a host name or address"},
                       Bad{"two words", "'two words' is not a host name or address"},
                       Bad{"[::1", "'[::1': an IPv6 address in [ ] lacks its ']'"},
                       Bad{"[::1]x", "'[::1]x': expected ':PORT' after ']'"}}) {
    QString host = "kept", error;
    std::uint16_t port = 1;
    EXPECT_FALSE(parsePeerAddress(b.text, host, port, error)) << b.text;
    EXPECT_EQ(error, b.error) << b.text;
    EXPECT_EQ(host, "kept");
    EXPECT_EQ(port, 1);
  }
}

TEST(DeviceRunArguments, CommandLineGivesOneRequestOrOneLineSayingWhatIsWrong) {
  DeviceRunRequest r;
  QString error;
  ASSERT_TRUE(deviceRunFromArguments("rxe0", "10.9.0.2", false, false, "rc-send-recv", 0, r, error))
      << error.toStdString();
  EXPECT_EQ(r.device, "rxe0");
  EXPECT_EQ(r.scenario, "rc-send-recv");
  EXPECT_EQ(r.peer, Peer::Connect);
  EXPECT_EQ(r.host, "10.9.0.2");
  EXPECT_EQ(r.port, 18515);
  // HOST:PORT wins over --port, --port over the default.
  ASSERT_TRUE(deviceRunFromArguments("rxe0", "h:7001", false, false, "rc-write", 7000, r, error));
  EXPECT_EQ(r.port, 7001);
  ASSERT_TRUE(deviceRunFromArguments("rxe0", "", true, false, "rc-read", 7000, r, error));
  EXPECT_EQ(r.peer, Peer::Serve);
  EXPECT_EQ(r.port, 7000);
  ASSERT_TRUE(deviceRunFromArguments("rxe0", "", false, true, "rc-read", 0, r, error));
  EXPECT_EQ(r.peer, Peer::Loopback);

  const DeviceRunRequest before = r;
  struct Bad {
    const char* connect;
    bool serve, loopback;
    const char* device;
    const char* scenario;
    int port;
    const char* error;
  };
  const char* oneOf = "--device needs exactly one of --connect HOST[:PORT], --serve or --loopback";
  for (const Bad& b : {Bad{"", false, false, "rxe0", "rc-read", 0, oneOf},
                       Bad{"h", true, false, "rxe0", "rc-read", 0, oneOf},
                       Bad{"", true, true, "rxe0", "rc-read", 0, oneOf},
                       Bad{"h", false, false, "rxe0", "no-such", 0,
                           "'no-such' is neither a built-in scenario nor a file"},
                       Bad{"h", false, false, "rxe0", "", 0, "no scenario given"},
                       Bad{"h", false, false, "", "rc-read", 0, "no RDMA device given"},
                       Bad{"", true, false, "rxe0", "rc-read", 70000,
                           "--port 70000: the port must be a number from 1 to 65535"},
                       Bad{"h:x", false, false, "rxe0", "rc-read", 0,
                           "'h:x': the port must be a number from 1 to 65535"}}) {
    error.clear();
    EXPECT_FALSE(deviceRunFromArguments(b.device, b.connect, b.serve, b.loopback, b.scenario,
                                        b.port, r, error));
    EXPECT_EQ(error, b.error);
    EXPECT_FALSE(error.contains('\n'));
    EXPECT_EQ(r.scenario, before.scenario);  // untouched on error
  }
}

TEST(DeviceRunArguments, ThePeersCommandMirrorsThisSide) {
  DeviceRunRequest r;
  r.device = "rxe0";
  r.scenario = "rc-send-recv";
  r.host = "10.9.0.2";
  EXPECT_EQ(peerCommand(r), "rdmascope-cli verbs --device rxe0 --scenario rc-send-recv --server");
  r.port = 7000;
  EXPECT_EQ(peerCommand(r),
            "rdmascope-cli verbs --device rxe0 --scenario rc-send-recv --server --port 7000");
  r.peer = Peer::Serve;
  EXPECT_EQ(peerCommand(r, "10.9.0.1"),
            "rdmascope-cli verbs --device rxe0 --scenario rc-send-recv --connect 10.9.0.1 --port "
            "7000");
  r.port = 18515;
  EXPECT_EQ(peerCommand(r),
            "rdmascope-cli verbs --device rxe0 --scenario rc-send-recv --connect THIS_MACHINE");
  r.peer = Peer::Loopback;
  EXPECT_EQ(peerCommand(r), "");
  EXPECT_EQ(interfaceAddresses("lo"), QStringList{"127.0.0.1"});
  EXPECT_TRUE(interfaceAddresses("no-such-if0").isEmpty());
}

TEST(DeviceRunDialog, ShowsThePeersCommandAndRefusesAnIncompleteRequest) {
  DeviceRunDialog d("rxe0", "rc-write", "lo");
  d.show();
  auto* command = d.findChild<QLineEdit*>("peerCommand");
  auto* error = d.findChild<QLabel*>("deviceRunError");
  ASSERT_NE(command, nullptr);
  ASSERT_NE(error, nullptr);
  EXPECT_TRUE(command->isReadOnly());
  EXPECT_TRUE(d.findChild<QRadioButton*>("peerConnect")->isChecked());
  EXPECT_EQ(d.command(), "rdmascope-cli verbs --device rxe0 --scenario rc-write --server");
  // No host yet: Run is refused with the reason, and the dialog stays open.
  d.accept();
  EXPECT_TRUE(d.isVisible());
  EXPECT_EQ(error->text(), "no peer host given: enter HOST or HOST:PORT");
  d.hostEdit()->setText("peer:9000");
  // For looking at: the dialog as a user sees it.
  const QString shot =
      QStringLiteral(RDMASCOPE_BINARY_DIR "/tests/ui/%1_device_run_dialog.png").arg(::getpid());
  EXPECT_TRUE(d.grab().save(shot));
  EXPECT_EQ(d.command(),
            "rdmascope-cli verbs --device rxe0 --scenario rc-write --server --port 9000");
  EXPECT_EQ(error->text(), "");
  DeviceRunRequest r = d.request();
  EXPECT_EQ(r.peer, Peer::Connect);
  EXPECT_EQ(r.host, "peer");
  EXPECT_EQ(r.port, 9000);
  d.hostEdit()->setText("peer:99999");
  d.accept();
  EXPECT_TRUE(d.isVisible());
  EXPECT_EQ(error->text(), "'peer:99999': the port must be a number from 1 to 65535");
  // Waiting for the peer: it connects to this machine's address on the device's interface.
  d.findChild<QRadioButton*>("peerServe")->setChecked(true);
  EXPECT_FALSE(d.hostEdit()->isEnabled());
  EXPECT_TRUE(d.portSpin()->isEnabled());
  d.portSpin()->setValue(18600);
  EXPECT_EQ(d.command(),
            "rdmascope-cli verbs --device rxe0 --scenario rc-write --connect 127.0.0.1 --port "
            "18600");
  EXPECT_EQ(d.request().peer, Peer::Serve);
  EXPECT_EQ(d.error(), "");
  QSignalSpy accepted(&d, &QDialog::accepted);
  d.accept();
  EXPECT_EQ(accepted.size(), 1);
  // Both hosts here: nothing to run elsewhere, and it says why nothing can be captured.
  d.findChild<QRadioButton*>("peerLoopback")->setChecked(true);
  EXPECT_EQ(d.request().peer, Peer::Loopback);
  EXPECT_TRUE(d.command().startsWith("(nothing"));
  bool explained = false;
  for (auto* l : d.findChildren<QLabel*>())
    explained |= l->text().contains("no frame can be captured");
  EXPECT_TRUE(explained);
}

TEST(DeviceRunDialog, RoundTripsARequest) {
  DeviceRunDialog d("mlx5_0", "rc-read", "");
  DeviceRunRequest r;
  r.device = "mlx5_0";
  r.scenario = "rc-read";
  r.peer = Peer::Serve;
  r.port = 20000;
  d.setRequest(r);
  EXPECT_EQ(d.request().peer, Peer::Serve);
  EXPECT_EQ(d.request().port, 20000);
  EXPECT_EQ(d.command(),
            "rdmascope-cli verbs --device mlx5_0 --scenario rc-read --connect THIS_MACHINE "
            "--port 20000");
}

TEST(DeviceRun, ErrorsAreOneLineAndTheWindowKeepsWorking) {
  MainWindow w;
  RealRunController* run = w.realRun();
  QSignalSpy done(run, &RealRunController::finished);
  DeviceRunRequest r;
  r.device = "gone0";
  r.scenario = "rc-send-recv";
  r.host = "10.9.0.2";
  // The device is gone: it has no interface to capture on.
  EXPECT_FALSE(run->runDevice(r));
  ASSERT_EQ(done.size(), 1);
  EXPECT_FALSE(done.back().front().toBool());
  EXPECT_TRUE(run->lastError().startsWith("gone0 has no network interface to capture on"))
      << run->lastError().toStdString();
  // Both hosts on a device that is not there: libibverbs' reason, in one line.
  r.peer = Peer::Loopback;
  EXPECT_FALSE(run->runDevice(r));
  ASSERT_EQ(done.size(), 2);
  EXPECT_FALSE(run->lastError().isEmpty());
  EXPECT_TRUE(run->lastError().contains("gone0") || run->lastError().contains("no RDMA device"))
      << run->lastError().toStdString();
  // An unknown scenario and a missing host are named before anything is opened.
  r.scenario = "no-such";
  EXPECT_FALSE(run->runDevice(r));
  EXPECT_EQ(run->lastError(), "'no-such' is neither a built-in scenario nor a file");
  r.scenario = "rc-send-recv";
  r.peer = Peer::Connect;
  r.host.clear();
  EXPECT_FALSE(run->runDevice(r));
  EXPECT_EQ(run->lastError(), "no peer host given: enter HOST or HOST:PORT");
  EXPECT_EQ(done.size(), 4);
  for (const auto& d : done)
    EXPECT_FALSE(d.front().toBool());
  EXPECT_FALSE(run->busy());
  EXPECT_EQ(run->progressDialog(), nullptr);
  EXPECT_TRUE(w.explanation()->toPlainText().contains("no peer host given"));
  EXPECT_TRUE(w.scenario()->loaded());
  EXPECT_TRUE(w.scenario()->stepForward());
}

TEST(DeviceRun, ChoosingADeviceAsksHowToRun) {
  MainWindow w;
  w.realRun()->askAndRunOnDevice("rxe0", "rc-write");
  DeviceRunDialog* d = w.realRun()->deviceDialog();
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(d->isVisible());
  EXPECT_EQ(d->command(), "rdmascope-cli verbs --device rxe0 --scenario rc-write --server");
  QSignalSpy done(w.realRun(), &RealRunController::finished);
  d->hostEdit()->setText("10.9.0.2");
  d->accept();  // runs: here rxe0 does not exist, so it fails with one line
  ASSERT_EQ(done.size(), 1);
  EXPECT_FALSE(w.realRun()->lastError().isEmpty());
  EXPECT_FALSE(w.realRun()->lastError().contains('\n'));
}

}  // namespace
}  // namespace rdmascope::ui
