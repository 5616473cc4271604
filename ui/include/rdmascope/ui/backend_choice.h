#pragma once
/// @file backend_choice.h
/// Where a scenario can run besides the simulator: the real verbs devices libibverbs sees on
/// this machine, and the Soft-RoCE lab (two qemu guests driven by `rdmascope-cli lab run`)
/// when its prerequisites are here. Also finds the programs and folders a real run needs.

#include <QString>
#include <QStringList>
#include <vector>

class QComboBox;

namespace rdmascope::ui {

/// One entry of the backend choice.
struct BackendOption {
  enum class Kind { Simulator, Device, Lab };
  Kind kind = Kind::Simulator;
  QString label;   ///< as the box shows it
  QString device;  ///< Device: the verbs device name (e.g. "rxe0")
};

/// What this machine offers, with a sentence for the box's tooltip that says why the real
/// entries are (or are not) there.
struct BackendInventory {
  std::vector<BackendOption> options;  ///< the simulator first
  QString tooltip;
  QString deviceError;  ///< libibverbs could not list devices (empty when it could)
  QString labMissing;   ///< why the lab is not offered (empty when it is)
};

/// Where to look for the pieces of a real run. Empty fields use the defaults: the running
/// program's folder, the source and build trees this library was built from, and PATH.
struct BackendSearch {
  QString programDir;   ///< folder of the running program (QCoreApplication::applicationDirPath)
  QString cliOverride;  ///< a cli path to use instead of searching (RDMASCOPE_CLI)
  bool probeDevices = true;
};

/// The label of the lab entry.
QString labBackendLabel();

/// Lists the simulator, every device IbvBackend::listDevices() finds, and the lab when
/// lab/run-pair.sh, rdmascope-cli and qemu-system-x86_64 are all present.
BackendInventory discoverBackends(const BackendSearch& search = {});

/// Fills a combo box with the inventory (item data: the option's index) and sets its tooltip.
void fillBackendBox(QComboBox* box, const BackendInventory& inventory);

/// The rdmascope-cli binary: $RDMASCOPE_CLI, then beside the program, then the build tree's
/// app/cli (from a GUI in app/gui or a test in tests/ui), then PATH. Empty when none exists;
/// `looked` receives the places searched.
QString findCliBinary(const BackendSearch& search, QStringList* looked = nullptr);
/// The lab folder holding run-pair.sh (source tree, or ../../lab and ../../../lab of the
/// program), empty when absent.
QString findLabDir(const BackendSearch& search);

/// The network interface a verbs device sends on: the first entry of
/// SYSFS/DEV/ports/PORT/gid_attrs/ndevs (Soft-RoCE and RoCE NICs); empty when there is none
/// (native InfiniBand has no netdev there).
QString netdevOfDevice(const QString& device, int port = 1,
                       const QString& sysfs = QStringLiteral("/sys/class/infiniband"));

/// The completion lines ("HOST wr_id N STATUS[ OPCODE byte_len N ...]", as `rdmascope-cli sim`
/// prints them, verbs_backend::formatCompletion) in a program's output, in order.
QStringList completionLines(const QString& output);

/// Drops the " qp 0x..." field of completion lines: QPNs differ from run to run.
QString withoutQpn(const QString& completionLine);

}  // namespace rdmascope::ui
