#include "rdmascope/ui/glossary_dialog.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QMainWindow>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSplitter>
#include <QTextBrowser>
#include <QToolTip>
#include <QUrl>
#include <QVBoxLayout>

#include "rdmascope/ui/glossary.h"

namespace rdmascope::ui {

namespace {

const QString kScheme = QStringLiteral("glossary");

QString keyOfLink(const QString& href) {
  const QUrl url(href);
  return url.scheme() == kScheme ? url.path() : QString();
}

// Tooltips for glossary links in a text browser (rich text has no hover text of its own).
class LinkTips : public QObject {
 public:
  LinkTips(QTextBrowser* view) : QObject(view), view_(view) {}  // NOLINT

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::ToolTip) {
      auto* help = static_cast<QHelpEvent*>(event);
      const QString key = keyOfLink(view_->anchorAt(help->pos()));
      if (!key.isEmpty()) {
        QToolTip::showText(help->globalPos(), Glossary::tooltip(key), view_);
        return true;
      }
    }
    return QObject::eventFilter(watched, event);
  }

 private:
  QTextBrowser* view_;
};

}  // namespace

GlossaryDialog::GlossaryDialog(QWidget* parent) : QDialog(parent) {
  setObjectName(QStringLiteral("glossaryDialog"));
  setWindowTitle(tr("Glossary"));
  search_ = new QLineEdit(this);
  search_->setObjectName(QStringLiteral("glossarySearch"));
  search_->setPlaceholderText(tr("Search the glossary"));
  search_->setClearButtonEnabled(true);
  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("glossaryList"));
  definition_ = new QTextBrowser(this);
  definition_->setObjectName(QStringLiteral("glossaryDefinition"));
  definition_->setOpenLinks(false);
  for (const GlossaryEntry& e : Glossary::entries()) {
    auto* item = new QListWidgetItem(e.key, list_);
    item->setData(Qt::UserRole, e.key);
    item->setToolTip(e.expansion);
  }
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(list_);
  split->addWidget(definition_);
  split->setSizes({160, 420});
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(search_);
  layout->addWidget(split, 1);
  resize(620, 380);
  connect(search_, &QLineEdit::textChanged, this, &GlossaryDialog::setSearch);
  connect(list_, &QListWidget::currentItemChanged, this, &GlossaryDialog::showSelected);
  connect(definition_, &QTextBrowser::anchorClicked, this,
          [this](const QUrl& url) { showTerm(keyOfLink(url.toString())); });
  list_->setCurrentRow(0);
}

void GlossaryDialog::setSearch(const QString& text) {
  const std::vector<GlossaryEntry> all = Glossary::entries();
  QListWidgetItem* first = nullptr;
  for (int i = 0; i < list_->count(); ++i) {
    QListWidgetItem* item = list_->item(i);
    const GlossaryEntry e = Glossary::find(item->data(Qt::UserRole).toString());
    const bool match = text.isEmpty() || e.key.contains(text, Qt::CaseInsensitive) ||
                       e.expansion.contains(text, Qt::CaseInsensitive) ||
                       e.definition.contains(text, Qt::CaseInsensitive);
    item->setHidden(!match);
    if (match && !first) first = item;
  }
  if (!list_->currentItem() || list_->currentItem()->isHidden()) list_->setCurrentItem(first);
  if (!first) definition_->setHtml(tr("<p>No entry matches \"%1\".</p>").arg(text.toHtmlEscaped()));
}

QStringList GlossaryDialog::visibleKeys() const {
  QStringList keys;
  for (int i = 0; i < list_->count(); ++i)
    if (!list_->item(i)->isHidden()) keys << list_->item(i)->data(Qt::UserRole).toString();
  return keys;
}

bool GlossaryDialog::showTerm(const QString& key) {
  const GlossaryEntry e = Glossary::find(key);
  if (e.key.isEmpty()) return false;
  search_->clear();
  for (int i = 0; i < list_->count(); ++i)
    if (list_->item(i)->data(Qt::UserRole).toString() == e.key) list_->setCurrentRow(i);
  show();
  raise();
  return true;
}

void GlossaryDialog::showSelected() {
  const QListWidgetItem* item = list_->currentItem();
  if (!item) return;
  const GlossaryEntry e = Glossary::find(item->data(Qt::UserRole).toString());
  QString html = QStringLiteral("<h3>%1</h3>").arg(e.key.toHtmlEscaped());
  if (!e.expansion.isEmpty())
    html += QStringLiteral("<p><i>%1</i></p>").arg(e.expansion.toHtmlEscaped());
  html += QStringLiteral("<p>%1</p>").arg(e.definition.toHtmlEscaped());
  definition_->setHtml(html);
}

GlossaryDialog* installGlossary(QMainWindow* window, QTextBrowser* explanation) {
  auto* dialog = new GlossaryDialog(window);
  QMenu* help = window->menuBar()->findChild<QMenu*>(QStringLiteral("helpMenu"));
  if (!help) {
    help = window->menuBar()->addMenu(GlossaryDialog::tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
  }
  QAction* show = help->addAction(GlossaryDialog::tr("&Glossary"), dialog, [dialog] {
    dialog->show();
    dialog->raise();
  });
  show->setObjectName(QStringLiteral("glossaryAction"));
  if (explanation) {
    explanation->setOpenLinks(false);
    explanation->viewport()->installEventFilter(new LinkTips(explanation));
    QObject::connect(explanation, &QTextBrowser::anchorClicked, dialog,
                     [dialog](const QUrl& url) { dialog->showTerm(keyOfLink(url.toString())); });
  }
  return dialog;
}

QString explanationHtml(const QString& title, const QString& body, const QStringList& terms) {
  QString html = body.toHtmlEscaped();
  QStringList linked;
  for (const QString& term : terms) {
    if (linked.contains(term) || Glossary::find(term).key.isEmpty()) continue;
    linked << term;
    // The first mention as a whole word, outside a tag already made.
    const QRegularExpression word(QStringLiteral("(?<![\\w>=\"-])%1(?![\\w<-])")
                                      .arg(QRegularExpression::escape(term.toHtmlEscaped())));
    const auto m = word.match(html);
    if (m.hasMatch())
      html.replace(m.capturedStart(), m.capturedLength(),
                   QStringLiteral("<a href=\"%1:%2\">%3</a>").arg(kScheme, term, m.captured()));
  }
  html.replace(QStringLiteral("\n\n"), QStringLiteral("</p><p>"));
  html.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
  QString out = QStringLiteral("<p style='margin:2px 0 4px 0'><b>%1</b></p><p>%2</p>")
                    .arg(title.toHtmlEscaped(), html);
  if (!linked.isEmpty()) {
    QStringList links;
    for (const QString& t : linked)
      links << QStringLiteral("<a href=\"%1:%2\">%3</a>").arg(kScheme, t, t.toHtmlEscaped());
    out += QStringLiteral("<p><small>%1</small></p>")
               .arg(GlossaryDialog::tr("Glossary: %1").arg(links.join(QStringLiteral(", "))));
  }
  return out;
}

}  // namespace rdmascope::ui
