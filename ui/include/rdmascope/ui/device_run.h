#pragma once
/// @file device_run.h
/// A scenario on a real RDMA device, as a user with two machines runs it: this machine plays
/// one host of the scenario and captures on the device's network interface, a peer machine
/// plays the other host with `rdmascope-cli verbs --device D --scenario NAME --server` (or
/// `--connect` to this one). Both hosts on this one device is possible too, but nothing can be
/// captured then: the device loops traffic between its own QPs back internally.
///
/// This header holds the request, its checks, the command the peer runs, and the dialog that
/// asks for it; RealRunController runs it.

#include <QDialog>
#include <QString>
#include <QStringList>
#include <cstdint>

class QButtonGroup;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace rdmascope::ui {

/// What a device run needs.
struct DeviceRunRequest {
  enum class Peer {
    Connect,   ///< connect to `host`:`port`, where the peer waits (`--server`); this side is host 1
    Serve,     ///< wait for the peer on `port`; this side is host 0
    Loopback,  ///< both hosts on this device (nothing can be captured)
  };
  QString device;    ///< verbs device, e.g. "rxe0"
  QString scenario;  ///< built-in scenario name or scenario file
  Peer peer = Peer::Connect;
  QString host;                ///< Connect: the peer
  std::uint16_t port = 18515;  ///< verbs_backend::kDefaultOobPort
};

/// Parses "HOST", "HOST:PORT" or "[IPV6]:PORT" (a bare IPv6 address is a host without port).
/// `port` keeps its value when none is given. False with a one-line `error`.
bool parsePeerAddress(const QString& text, QString& host, std::uint16_t& port, QString& error);

/// The request the command line gives (`--device D (--connect HOST[:PORT] | --serve |
/// --loopback) --scenario NAME [--port P]`); `port` 0 keeps the default. False with a one-line
/// `error` naming what was wrong.
bool deviceRunFromArguments(const QString& device, const QString& connect, bool serve,
                            bool loopback, const QString& scenario, int port,
                            DeviceRunRequest& request, QString& error);

/// Empty when `request` can start; otherwise one line saying what is missing or wrong
/// (no device, unknown scenario, no peer host, port 0).
QString checkDeviceRun(const DeviceRunRequest& request);

/// The command the peer machine runs for `request` (empty for Loopback), e.g.
/// "rdmascope-cli verbs --device rxe0 --scenario rc-send-recv --server". When this side
/// serves, the peer connects to `ownAddress` (a placeholder when empty).
QString peerCommand(const DeviceRunRequest& request, const QString& ownAddress = {});

/// The IPv4 addresses of a network interface (getifaddrs), e.g. {"10.9.0.1"}.
QStringList interfaceAddresses(const QString& interfaceName);

class MainWindow;

/// Scripted use (`rdmascope --device D --connect HOST ...`): shows the scenario, selects the
/// device in the backend box and starts `request` in `window`. When the run ends it prints the
/// real completion lines and the summary (RealRunController::summary) to stdout, or the error
/// line to stderr; then, when `screenshot` is given, saves the window there and quits, or
/// quits when `quit` is set; the exit code is 0 after a successful run, 1 otherwise.
void startScriptedDeviceRun(MainWindow& window, const DeviceRunRequest& request,
                            const QString& screenshot, bool quit);

/// Asks how to run a scenario on a device: connect to a peer, wait for one, or both hosts
/// here; shows the exact command to run on the other machine (with a Copy button).
class DeviceRunDialog : public QDialog {
  Q_OBJECT
 public:
  /// `netdev` is the device's network interface (its address goes into the peer's command).
  DeviceRunDialog(const QString& device, const QString& scenario, const QString& netdev,
                  QWidget* parent = nullptr);

  /// The request as the dialog shows it now (it may not be valid: see error()).
  DeviceRunRequest request() const;
  void setRequest(const DeviceRunRequest& request);
  /// The command shown for the peer machine.
  QString command() const;
  /// Why OK is refused (empty when the request is valid).
  QString error() const;

  QLineEdit* hostEdit() const { return host_; }
  QSpinBox* portSpin() const { return port_; }

  /// Accepts only a valid request; otherwise shows the error line and stays open.
  void accept() override;

 private:
  void update();

  QString device_, scenario_, netdev_;
  QRadioButton* connect_;
  QRadioButton* serve_;
  QRadioButton* loopback_;
  QLineEdit* host_;
  QSpinBox* port_;
  QLineEdit* command_;
  QLabel* note_;
  QLabel* error_;
};

}  // namespace rdmascope::ui
