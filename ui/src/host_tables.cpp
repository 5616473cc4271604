#include "host_tables.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QTableView>

#include "rdmascope/sim/narration.h"
#include "rdmascope/ui/psn_base.h"

namespace rdmascope::ui::host_tables {

QString toQString(std::string_view s) {
  return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString hex(std::uint64_t v) {
  return QStringLiteral("0x%1").arg(v, 0, 16);
}

QBrush qpStateBrush(sim::QpState state) {
  if (state == sim::QpState::Rts) return QBrush(kGreen);
  if (state == sim::QpState::Err || state == sim::QpState::Sqe) return QBrush(kRed);
  return QBrush(kYellow);
}

QVariant wqeBrush(const std::string& state) {
  if (state == "done") return QBrush(kGreen);
  if (state == "error") return QBrush(kRed);
  if (state == "processing" || state == "pending") return QBrush(kYellow);
  return {};
}

QString wqeStateText(const std::string& state) {
  static const char* states[] = {
      QT_TRANSLATE_NOOP("HostTables", "posted"), QT_TRANSLATE_NOOP("HostTables", "processing"),
      QT_TRANSLATE_NOOP("HostTables", "pending"), QT_TRANSLATE_NOOP("HostTables", "done"),
      QT_TRANSLATE_NOOP("HostTables", "error")};
  for (const char* s : states)
    if (state == s) return QCoreApplication::translate("HostTables", s);
  return QString::fromStdString(state);
}

QVariant wqeHeader(bool receiveQueue, int section) {
  static const char* sq[] = {
      QT_TRANSLATE_NOOP("HostTables", "wr_id"), QT_TRANSLATE_NOOP("HostTables", "Opcode"),
      QT_TRANSLATE_NOOP("HostTables", "Bytes"), QT_TRANSLATE_NOOP("HostTables", "State"),
      QT_TRANSLATE_NOOP("HostTables", "PSNs")};
  static const char* rq[] = {sq[0], sq[2], sq[3]};
  const int count = receiveQueue ? 3 : 5;
  if (section < 0 || section >= count) return {};
  const auto i = static_cast<std::size_t>(section);
  return QCoreApplication::translate("HostTables", receiveQueue ? rq[i] : sq[i]);
}

QVariant wqeCell(const sim::WqeView& w, bool receiveQueue, int column) {
  if (receiveQueue) {
    switch (column) {
      case 0:
        return QVariant::fromValue<qulonglong>(w.wrId);
      case 1:
        return w.length;
      case 2:
        return wqeStateText(w.state);
    }
    return {};
  }
  switch (column) {
    case 0:
      return QVariant::fromValue<qulonglong>(w.wrId);
    case 1:
      return toQString(sim::toString(w.opcode));
    case 2:
      return w.length;
    case 3:
      return wqeStateText(w.state);
    case 4:
      return w.firstPsn == w.lastPsn
                 ? PsnBase::format(w.firstPsn)
                 : PsnBase::format(w.firstPsn) + QStringLiteral("-") + PsnBase::format(w.lastPsn);
  }
  return {};
}

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent, const QString& name) {
  auto* t = new QTableView(parent);
  t->setObjectName(name);
  t->setModel(model);
  t->verticalHeader()->hide();
  t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 4);
  t->horizontalHeader()->setStretchLastSection(true);
  t->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  t->setSelectionMode(QAbstractItemView::NoSelection);
  t->setFocusPolicy(Qt::NoFocus);
  t->setShowGrid(false);
  t->setWordWrap(false);
  return t;
}

}  // namespace rdmascope::ui::host_tables
