#include "rdmascope/ui/filter_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>

#include "rdmascope/packets/display_filter.h"

namespace rdmascope::ui {

CompiledFilter compileDisplayFilter(const QString& text) {
  CompiledFilter c;
  std::string error;
  auto filter = packets::DisplayFilter::compile(text.toStdString(), error);
  if (filter) {
    auto keys = std::make_shared<packets::ValueKeys>();
    for (const std::string& k : filter->keys())
      keys->add(k);
    c.lean = std::move(keys);
    c.predicate = [f = std::move(*filter)](const packets::Dissection& d) { return f.matches(d); };
    return c;
  }
  static const QRegularExpression columnPrefix(QStringLiteral("^column (\\d+): (.*)$"));
  const QString message = QString::fromStdString(error);
  const auto m = columnPrefix.match(message);
  if (m.hasMatch()) {
    c.column = m.captured(1).toInt();
    c.error = m.captured(2);
  } else {
    c.error = message.isEmpty() ? QStringLiteral("invalid display filter") : message;
  }
  return c;
}

FilterBar::FilterBar(QWidget* parent) : QWidget(parent) {
  edit_ = new QLineEdit(this);
  edit_->setObjectName(QStringLiteral("displayFilterEdit"));
  edit_->setPlaceholderText(
      tr("Apply a display filter ... (e.g. infiniband.bth.opcode == 4) <Ctrl-F>"));
  edit_->setClearButtonEnabled(true);
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("displayFilterMessage"));
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_->hide();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->setSpacing(1);
  layout->addWidget(edit_);
  layout->addWidget(message_);
  compiler_ = compileDisplayFilter;
  connect(edit_, &QLineEdit::textChanged, this, [this] { check(); });
  connect(edit_, &QLineEdit::returnPressed, this, &FilterBar::apply);
}

void FilterBar::setCompiler(FilterCompiler compiler) {
  compiler_ = std::move(compiler);
  check();
}

QString FilterBar::text() const {
  return edit_->text().trimmed();
}

void FilterBar::setText(const QString& text) {
  edit_->setText(text);
}

CompiledFilter FilterBar::check() {
  const QString t = text();
  CompiledFilter c;
  if (!t.isEmpty()) {
    if (compiler_)
      c = compiler_(t);
    else
      c.error = tr("display filters are not available in this build");
  }
  showState(c, t.isEmpty());
  return c;
}

void FilterBar::showState(const CompiledFilter& c, bool empty) {
  hasError_ = !empty && !c.ok();
  if (empty) {
    edit_->setStyleSheet({});
    message_->hide();
    return;
  }
  if (hasError_) {
    edit_->setStyleSheet(QStringLiteral("QLineEdit { background: #ffafaf; color: black; }"));
    message_->setText(c.column > 0 ? tr("Column %1: %2").arg(c.column).arg(c.error) : c.error);
    message_->setStyleSheet(QStringLiteral("QLabel { color: #a40000; }"));
    message_->show();
  } else {
    edit_->setStyleSheet(QStringLiteral("QLineEdit { background: #afffaf; color: black; }"));
    message_->hide();
  }
}

void FilterBar::apply() {
  if (text().isEmpty()) {
    showState({}, true);
    Q_EMIT filterCleared();
    return;
  }
  CompiledFilter c = check();
  if (c.ok()) Q_EMIT filterApplied(text(), c.predicate, c.lean);
}

}  // namespace rdmascope::ui
