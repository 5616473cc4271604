#pragma once
/// @file language.h
/// The GUI's languages: English (the source strings) and Simplified Chinese (Qt Linguist's
/// ui/i18n/rdmascope_zh_CN.ts, compiled into the program). The choice follows the system
/// locale unless View > Language picked one; the pick is kept in QSettings and switches the
/// open window at once.

#include <QString>

class QMenu;
class QWidget;

namespace rdmascope::ui {

/// "system", "en" or "zh_CN".
QString savedLanguageChoice();
/// Stores the choice (QSettings "rdmascope/language").
void saveLanguageChoice(const QString& choice);

/// The language a choice stands for: "en" or "zh_CN" ("system" looks at QLocale::system()).
QString resolveLanguage(const QString& choice);

/// Installs the translator of a language ("en" removes it). False, with the language left as
/// it was, when the translation cannot be loaded.
bool installLanguage(const QString& language);
/// The language installed ("en" when none).
QString installedLanguage();

/// Retranslates the texts a window set once (menus, actions, labels, buttons, tabs, tooltips,
/// combo box items, window titles) from the installed language to `language`, installs it and
/// repaints the views' headers. Texts computed as the window runs follow at their next update.
bool switchLanguage(QWidget& window, const QString& language);

/// Adds View > Language (System, English, 简体中文) to `view`, switching `window`.
QMenu* addLanguageMenu(QMenu& view, QWidget& window);

}  // namespace rdmascope::ui
