#include "rdmascope/ui/psn_base.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenu>

namespace rdmascope::ui {

PsnBase& PsnBase::instance() {
  static PsnBase* base = new PsnBase(QCoreApplication::instance());
  return *base;
}

void PsnBase::setDecimal(bool decimal) {
  if (decimal == decimal_) return;
  decimal_ = decimal;
  Q_EMIT changed();
}

QString PsnBase::format(std::uint32_t psn) {
  return instance().decimal() ? QString::number(psn) : QStringLiteral("0x%1").arg(psn, 0, 16);
}

QAction* addPsnBaseAction(QMenu& view) {
  QAction* a = view.addAction(QCoreApplication::translate("PsnBase", "PSNs in &Decimal"));
  a->setObjectName(QStringLiteral("psnDecimal"));
  a->setCheckable(true);
  a->setChecked(PsnBase::instance().decimal());
  a->setToolTip(QCoreApplication::translate(
      "PsnBase", "Write PSNs in decimal in the ladder and the host tables (hexadecimal when off)"));
  QObject::connect(a, &QAction::toggled, &PsnBase::instance(), &PsnBase::setDecimal);
  QObject::connect(&PsnBase::instance(), &PsnBase::changed, a,
                   [a] { a->setChecked(PsnBase::instance().decimal()); });
  return a;
}

}  // namespace rdmascope::ui
