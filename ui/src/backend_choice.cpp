#include "rdmascope/ui/backend_choice.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

#include "rdmascope/install/install_paths.h"

#ifdef RDMASCOPE_HAVE_IBVERBS
#include "rdmascope/verbs_backend/ibv_backend.h"
#endif

namespace rdmascope::ui {

namespace {

QString programDir(const BackendSearch& s) {
  if (!s.programDir.isEmpty()) return s.programDir;
  return QCoreApplication::instance() ? QCoreApplication::applicationDirPath()
                                      : QDir::currentPath();
}

bool executable(const QString& path) {
  const QFileInfo f(path);
  return f.isFile() && f.isExecutable();
}

}  // namespace

QString labBackendLabel() {
  return QCoreApplication::translate("rdmascope", "Soft-RoCE lab (2 qemu guests)");
}

QString findCliBinary(const BackendSearch& search, QStringList* looked) {
  QStringList candidates;
  QString override = search.cliOverride;
  if (override.isEmpty()) override = qEnvironmentVariable("RDMASCOPE_CLI");
  if (!override.isEmpty()) {
    candidates << override;
  } else {
    const QDir dir(programDir(search));
    // Installed side by side; the build tree's app/gui (GUI) and tests/ui (tests) beside app/cli.
    candidates << dir.filePath(QStringLiteral("rdmascope-cli"))
               << dir.filePath(QStringLiteral("../cli/rdmascope-cli"))
               << dir.filePath(QStringLiteral("../../app/cli/rdmascope-cli"));
    const QString inPath = QStandardPaths::findExecutable(QStringLiteral("rdmascope-cli"));
    if (!inPath.isEmpty()) candidates << inPath;
  }
  for (const QString& c : candidates) {
    if (looked) *looked << QDir::cleanPath(c);
    if (executable(c)) return QFileInfo(c).canonicalFilePath();
  }
  return {};
}

QString findLabDir(const BackendSearch& search) {
  const auto script = install::findDataFile(std::filesystem::path("lab") / "run-pair.sh",
                                            programDir(search).toStdString());
  return script ? QString::fromStdString(script->parent_path().string()) : QString();
}

QString netdevOfDevice(const QString& device, int port, const QString& sysfs) {
  const QDir ndevs(QStringLiteral("%1/%2/ports/%3/gid_attrs/ndevs").arg(sysfs, device).arg(port));
  // One file per GID index; the first one that names an interface wins.
  auto entries = ndevs.entryList(QDir::Files, QDir::Name);
  std::sort(entries.begin(), entries.end(),
            [](const QString& a, const QString& b) { return a.toInt() < b.toInt(); });
  for (const QString& e : entries) {
    QFile f(ndevs.filePath(e));
    if (!f.open(QIODevice::ReadOnly)) continue;
    const QString name = QString::fromUtf8(f.readAll()).trimmed();
    if (!name.isEmpty()) return name;
  }
  return {};
}

BackendInventory discoverBackends(const BackendSearch& search) {
  BackendInventory inv;
  inv.options.push_back(
      {BackendOption::Kind::Simulator, QCoreApplication::translate("rdmascope", "Simulator"), {}});
  QStringList devices;
  if (search.probeDevices) {
#ifdef RDMASCOPE_HAVE_IBVERBS
    const auto listed = verbs_backend::IbvBackend::listDevices();
    if (!listed.ok())
      inv.deviceError = QString::fromStdString(listed.status.message);
    else
      for (const auto& d : listed.value)
        devices << QString::fromStdString(d);
#else
    inv.deviceError =
        QCoreApplication::translate("rdmascope", "this build has no libibverbs support");
#endif
  }
  for (const QString& d : devices)
    inv.options.push_back(
        {BackendOption::Kind::Device,
         QCoreApplication::translate("rdmascope", "Device %1 (real verbs)").arg(d), d});

  const QString lab = findLabDir(search);
  const QString cli = findCliBinary(search);
  const QString qemu = QStandardPaths::findExecutable(QStringLiteral("qemu-system-x86_64"));
  if (lab.isEmpty())
    inv.labMissing = QCoreApplication::translate("rdmascope", "lab/run-pair.sh was not found");
  else if (cli.isEmpty())
    inv.labMissing = QCoreApplication::translate("rdmascope", "rdmascope-cli is not built");
  else if (qemu.isEmpty())
    inv.labMissing = QCoreApplication::translate(
        "rdmascope", "qemu-system-x86_64 is missing (Debian package qemu-system-x86)");
  else
    inv.options.push_back({BackendOption::Kind::Lab, labBackendLabel(), {}});

  QString why;
  if (!devices.isEmpty())
    why = QCoreApplication::translate("rdmascope", "Real verbs devices here: %1.")
              .arg(devices.join(QStringLiteral(", ")));
  else
    why = QCoreApplication::translate(
              "rdmascope",
              "No RDMA device on this machine (%1): its kernel has no RDMA support, so real "
              "verbs run in the Soft-RoCE lab of two qemu guests.")
              .arg(inv.deviceError.isEmpty()
                       ? QCoreApplication::translate("rdmascope", "libibverbs lists none")
                       : inv.deviceError);
  why += QLatin1Char(' ');
  why += inv.labMissing.isEmpty()
             ? QCoreApplication::translate(
                   "rdmascope",
                   "Choosing the lab or a device runs the chosen scenario on real verbs while "
                   "capturing, then shows the frames and both sides' completions.")
             : QCoreApplication::translate("rdmascope", "The lab is not offered: %1.")
                   .arg(inv.labMissing);
  inv.tooltip = why;
  return inv;
}

void fillBackendBox(QComboBox* box, const BackendInventory& inventory) {
  box->clear();
  for (std::size_t i = 0; i < inventory.options.size(); ++i)
    box->addItem(inventory.options[i].label, static_cast<int>(i));
  box->setToolTip(inventory.tooltip);
  box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
}

QStringList completionLines(const QString& output) {
  static const QRegularExpression line(QStringLiteral("^[^ #]+ wr_id [0-9]+ [A-Z_]+( .*)?$"),
                                       QRegularExpression::MultilineOption);
  QStringList out;
  auto it = line.globalMatch(output);
  while (it.hasNext())
    out << it.next().captured(0).trimmed();
  return out;
}

QString withoutQpn(const QString& completionLine) {
  static const QRegularExpression qp(QStringLiteral(" qp 0x[0-9a-fA-F]+"));
  QString s = completionLine;
  return s.remove(qp);
}

}  // namespace rdmascope::ui
