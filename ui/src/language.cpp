#include "rdmascope/ui/language.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QGroupBox>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSettings>
#include <QTabWidget>
#include <QTranslator>
#include <QXmlStreamReader>

namespace rdmascope::ui {

namespace {

QTranslator*& translator() {
  static QTranslator* t = nullptr;
  return t;
}

QString& installed() {
  static QString lang = QStringLiteral("en");
  return lang;
}

// Source strings and their Chinese translations, read from the .ts compiled in beside the
// .qm: texts a window set once can be mapped from either language to the other.
struct Catalogue {
  QHash<QString, QString> toChinese;
  QHash<QString, QString> toEnglish;
};

const Catalogue& catalogue() {
  static const Catalogue c = [] {
    Catalogue cat;
    QFile f(QStringLiteral(":/i18n/rdmascope_zh_CN.ts"));
    if (!f.open(QIODevice::ReadOnly)) return cat;
    QXmlStreamReader xml(&f);
    QString source, translation;
    while (!xml.atEnd()) {
      xml.readNext();
      if (xml.isStartElement() && xml.name() == QLatin1String("message")) {
        source.clear();
        translation.clear();
      } else if (xml.isStartElement() && xml.name() == QLatin1String("source")) {
        source = xml.readElementText();
      } else if (xml.isStartElement() && xml.name() == QLatin1String("translation")) {
        // A plural message keeps its text in <numerusform> children (one form in Chinese).
        translation = xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
      } else if (xml.isEndElement() && xml.name() == QLatin1String("message") &&
                 !translation.isEmpty()) {
        cat.toChinese.insert(source, translation);
        cat.toEnglish.insert(translation, source);
      }
    }
    return cat;
  }();
  return c;
}

QString mapped(const QString& text, const QString& from, const QString& to) {
  if (text.isEmpty() || from == to) return text;
  const Catalogue& c = catalogue();
  const QString source = from == QLatin1String("zh_CN") ? c.toEnglish.value(text, text) : text;
  return to == QLatin1String("zh_CN") ? c.toChinese.value(source, source) : source;
}

void retranslate(QWidget& window, const QString& from, const QString& to) {
  auto map = [&](const QString& t) { return mapped(t, from, to); };
  QList<QWidget*> widgets = window.findChildren<QWidget*>();
  widgets.prepend(&window);
  for (QWidget* w : widgets) {
    if (w->isWindow()) w->setWindowTitle(map(w->windowTitle()));
    w->setToolTip(map(w->toolTip()));
    for (QAction* a : w->actions()) {
      a->setText(map(a->text()));
      a->setToolTip(map(a->toolTip()));
    }
    if (auto* m = qobject_cast<QMenu*>(w)) m->setTitle(map(m->title()));
    if (auto* l = qobject_cast<QLabel*>(w)) l->setText(map(l->text()));
    if (auto* b = qobject_cast<QAbstractButton*>(w)) b->setText(map(b->text()));
    if (auto* g = qobject_cast<QGroupBox*>(w)) g->setTitle(map(g->title()));
    if (auto* e = qobject_cast<QLineEdit*>(w)) e->setPlaceholderText(map(e->placeholderText()));
    if (auto* c = qobject_cast<QComboBox*>(w)) {
      for (int i = 0; i < c->count(); ++i)
        c->setItemText(i, map(c->itemText(i)));
      c->setPlaceholderText(map(c->placeholderText()));
    }
    if (auto* t = qobject_cast<QTabWidget*>(w)) {
      for (int i = 0; i < t->count(); ++i) {
        t->setTabText(i, map(t->tabText(i)));
        t->setTabToolTip(i, map(t->tabToolTip(i)));
      }
    }
    if (auto* v = qobject_cast<QAbstractItemView*>(w); v && v->model()) {
      const int columns = v->model()->columnCount();
      if (columns > 0) Q_EMIT v->model()->headerDataChanged(Qt::Horizontal, 0, columns - 1);
      v->viewport()->update();
    }
  }
}

}  // namespace

QString savedLanguageChoice() {
  const QString c = QSettings(QStringLiteral("rdmascope"), QStringLiteral("rdmascope"))
                        .value(QStringLiteral("language"), QStringLiteral("system"))
                        .toString();
  return c == QLatin1String("en") || c == QLatin1String("zh_CN") ? c : QStringLiteral("system");
}

void saveLanguageChoice(const QString& choice) {
  QSettings(QStringLiteral("rdmascope"), QStringLiteral("rdmascope"))
      .setValue(QStringLiteral("language"), choice);
}

QString resolveLanguage(const QString& choice) {
  if (choice != QLatin1String("system")) return choice;
  for (const QString& l : QLocale::system().uiLanguages())
    if (l.startsWith(QLatin1String("zh"))) return QStringLiteral("zh_CN");
  return QStringLiteral("en");
}

bool installLanguage(const QString& language) {
  if (language == QLatin1String("zh_CN")) {
    auto* t = new QTranslator(qApp);
    if (!t->load(QStringLiteral(":/i18n/rdmascope_zh_CN.qm"))) {
      delete t;
      return false;
    }
    if (translator()) {
      QCoreApplication::removeTranslator(translator());
      delete translator();
    }
    translator() = t;
    QCoreApplication::installTranslator(t);
  } else if (language == QLatin1String("en")) {
    if (translator()) {
      QCoreApplication::removeTranslator(translator());
      delete translator();
      translator() = nullptr;
    }
  } else {
    return false;
  }
  installed() = language;
  return true;
}

QString installedLanguage() {
  return installed();
}

bool switchLanguage(QWidget& window, const QString& language) {
  const QString from = installed();
  if (!installLanguage(language)) return false;
  retranslate(window, from, language);
  return true;
}

QMenu* addLanguageMenu(QMenu& view, QWidget& window) {
  QMenu* menu = view.addMenu(QCoreApplication::translate("Language", "&Language"));
  menu->setObjectName(QStringLiteral("languageMenu"));
  auto* group = new QActionGroup(menu);
  const QString choice = savedLanguageChoice();
  const struct {
    QString text;
    const char* id;
  } choices[] = {
      {QCoreApplication::translate("Language", "&System"), "system"},
      // Each language names itself, untranslated, so that it is found whatever is shown.
      {QStringLiteral("English"), "en"},
      {QStringLiteral("简体中文"), "zh_CN"},
  };
  for (const auto& c : choices) {
    QAction* a = menu->addAction(c.text);
    a->setObjectName(QStringLiteral("language_%1").arg(QLatin1String(c.id)));
    a->setCheckable(true);
    a->setChecked(choice == QLatin1String(c.id));
    group->addAction(a);
    QObject::connect(a, &QAction::triggered, &window, [&window, id = QString::fromLatin1(c.id)] {
      saveLanguageChoice(id);
      switchLanguage(window, resolveLanguage(id));
    });
  }
  return menu;
}

}  // namespace rdmascope::ui
