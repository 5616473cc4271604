#pragma once
/// @file filter_bar.h
/// The display filter bar: checks the expression as it is typed (green when valid, red with the
/// compiler's message and column when not) and applies it on Enter.

#include <QString>
#include <QWidget>
#include <functional>

#include "rdmascope/ui/packet_list_model.h"

class QLabel;
class QLineEdit;

namespace rdmascope::ui {

/// The outcome of compiling a display filter.
struct CompiledFilter {
  PacketListModel::Predicate predicate;  ///< set when the expression is valid
  PacketListModel::LeanKeys lean;        ///< the keys it reads (null: test full dissections)
  QString error;                         ///< one line, empty when valid
  int column = 0;                        ///< 1-based column of the error
  bool ok() const { return error.isEmpty() && predicate; }
};

/// Compiles an expression (the display filter language of packets/display_filter.h).
using FilterCompiler = std::function<CompiledFilter(const QString&)>;

/// Compiles with packets::DisplayFilter; the column is taken from its "column N: ..." message.
CompiledFilter compileDisplayFilter(const QString& text);

class FilterBar : public QWidget {
  Q_OBJECT
 public:
  explicit FilterBar(QWidget* parent = nullptr);

  void setCompiler(FilterCompiler compiler);
  QLineEdit* lineEdit() const { return edit_; }
  QLabel* messageLabel() const { return message_; }
  QString text() const;
  void setText(const QString& text);
  /// Compiles the text and shows the outcome; returns it.
  CompiledFilter check();
  /// True while the text does not compile (the bar shows red).
  bool hasError() const { return hasError_; }
  /// Applies the current text, as pressing Enter does.
  void apply();

 Q_SIGNALS:
  /// A valid, non-empty filter was applied.
  void filterApplied(const QString& text, PacketListModel::Predicate predicate,
                     PacketListModel::LeanKeys lean);
  /// The filter was emptied and applied.
  void filterCleared();

 private:
  void showState(const CompiledFilter& compiled, bool empty);

  QLineEdit* edit_;
  QLabel* message_;
  FilterCompiler compiler_;
  bool hasError_ = false;
};

}  // namespace rdmascope::ui
