#pragma once
/// @file psn_base.h
/// The base every view writes PSNs in: hexadecimal by default, as the host tables always did
/// ("0x1a2b3c"), or decimal. View > PSNs in Decimal switches it; the ladder and the host
/// tables follow at once (they listen to PsnBase::changed).

#include <QObject>
#include <QString>
#include <cstdint>

class QAction;
class QMenu;

namespace rdmascope::ui {

/// The application-wide choice of base for PSNs.
class PsnBase : public QObject {
  Q_OBJECT
 public:
  /// The one instance (created on first use, owned by the application).
  static PsnBase& instance();
  bool decimal() const { return decimal_; }
  /// Switches the base; emits changed() when it differs.
  void setDecimal(bool decimal);
  /// A PSN in the current base: "0x1a2b3c" or "1715004".
  static QString format(std::uint32_t psn);

 Q_SIGNALS:
  void changed();

 private:
  explicit PsnBase(QObject* parent) : QObject(parent) {}
  bool decimal_ = false;
};

/// Adds the checkable "PSNs in &Decimal" action to a View menu; returns it.
QAction* addPsnBaseAction(QMenu& view);

}  // namespace rdmascope::ui
