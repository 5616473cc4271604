#pragma once
/// @file glossary_dialog.h
/// Help > Glossary: a searchable list of glossary.h's entries, and the links that lead there
/// (glossary:KEY anchors in the explanation pane, with the definition as their tooltip).

#include <QDialog>
#include <QString>
#include <QStringList>

class QLineEdit;
class QListWidget;
class QMainWindow;
class QTextBrowser;

namespace rdmascope::ui {

class GlossaryDialog : public QDialog {
  Q_OBJECT
 public:
  explicit GlossaryDialog(QWidget* parent = nullptr);

  /// Shows the dialog with `key`'s entry selected (the search cleared); false if no such key.
  bool showTerm(const QString& key);
  /// Filters the list to the entries whose key, expansion or definition contains `text`.
  void setSearch(const QString& text);
  /// Keys listed now, in order.
  QStringList visibleKeys() const;
  /// The definition shown (HTML of the selected entry).
  QTextBrowser* definitionView() const { return definition_; }

 private:
  void showSelected();

  QLineEdit* search_;
  QListWidget* list_;
  QTextBrowser* definition_;
};

/// Adds Help > Glossary to `window`'s menu bar (its Help menu, made if missing) and makes
/// glossary:KEY links in `explanation` open the entry and show its definition as a tooltip.
/// Returns the dialog (owned by `window`).
GlossaryDialog* installGlossary(QMainWindow* window, QTextBrowser* explanation);

/// HTML for the explanation pane: the title, the body (paragraphs at blank lines, lines at
/// newlines), the first mention of each of `terms` linked to the glossary, and a "Terms" line.
QString explanationHtml(const QString& title, const QString& body, const QStringList& terms);

}  // namespace rdmascope::ui
