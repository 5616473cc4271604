#include "rdmascope/ui/lesson_pane.h"

#include <QAbstractButton>
#include <QButtonGroup>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRadioButton>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>

#include "rdmascope/ui/event_explanation.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/scenario_controller.h"

namespace rdmascope::ui {

namespace {

QString lessonText(const char* source) {
  return source ? QCoreApplication::translate("Lesson", source) : QString();
}

QString firstParagraph(const QString& text) {
  const auto cut = text.indexOf(QStringLiteral("\n\n"));
  return cut < 0 ? text : text.left(cut);
}

}  // namespace

LessonPane::LessonPane(MainWindow& window)
    : QWidget(&window), window_(window), scenario_(window.scenario()) {
  setObjectName(QStringLiteral("lessonPane"));
  title_ = new QLabel(this);
  title_->setObjectName(QStringLiteral("lessonTitle"));
  QFont bold = title_->font();
  bold.setBold(true);
  title_->setFont(bold);
  title_->setWordWrap(true);
  progress_ = new QLabel(this);
  progress_->setObjectName(QStringLiteral("lessonProgress"));
  narration_ = new QTextBrowser(this);
  narration_->setObjectName(QStringLiteral("lessonNarration"));
  narration_->setOpenLinks(false);
  question_ = new QLabel(this);
  question_->setObjectName(QStringLiteral("lessonQuestion"));
  question_->setWordWrap(true);
  question_->setFont(bold);
  choices_ = new QWidget(this);
  choicesLayout_ = new QVBoxLayout(choices_);
  choicesLayout_->setContentsMargins(0, 0, 0, 0);
  choicesLayout_->setSpacing(2);
  group_ = new QButtonGroup(this);
  number_ = new QLineEdit(this);
  number_->setObjectName(QStringLiteral("lessonNumber"));
  number_->setPlaceholderText(tr("PSN, in decimal or 0x hex"));
  answerButton_ = new QPushButton(tr("&Answer"), this);
  answerButton_->setObjectName(QStringLiteral("lessonAnswer"));
  skipButton_ = new QPushButton(tr("S&kip"), this);
  skipButton_->setObjectName(QStringLiteral("lessonSkip"));
  skipButton_->setToolTip(tr("Show the answer and step on without answering"));
  auto* endButton = new QPushButton(tr("&End Lesson"), this);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(answerButton_);
  buttons->addWidget(skipButton_);
  buttons->addStretch(1);
  buttons->addWidget(endButton);
  feedback_ = new QTextBrowser(this);
  feedback_->setObjectName(QStringLiteral("lessonFeedback"));
  feedback_->setOpenLinks(false);
  // The lesson's story on the left; the question, its answer and the feedback on the right.
  auto* left = new QVBoxLayout;
  left->addWidget(title_);
  left->addWidget(progress_);
  left->addWidget(narration_, 1);
  auto* right = new QVBoxLayout;
  right->addWidget(question_);
  right->addWidget(choices_);
  right->addWidget(number_);
  right->addLayout(buttons);
  right->addWidget(feedback_, 1);
  auto* l = new QHBoxLayout(this);
  l->setContentsMargins(4, 4, 4, 4);
  l->addLayout(left, 2);
  l->addLayout(right, 3);

  connect(answerButton_, &QPushButton::clicked, this, &LessonPane::submit);
  connect(number_, &QLineEdit::returnPressed, this, &LessonPane::submit);
  connect(skipButton_, &QPushButton::clicked, this, &LessonPane::skip);
  connect(endButton, &QPushButton::clicked, this, [this] {
    stop();
    showTab(false);
  });
  connect(scenario_, &ScenarioController::currentChanged, this, &LessonPane::onCurrentChanged);
  connect(scenario_, &ScenarioController::held, this, [this] {
    if (!asking()) return;
    // The notice goes above what the last answer said, which stays readable.
    feedback_->setHtml(QStringLiteral("<i>%1</i><br><br>%2")
                           .arg(tr("Answer the question (or Skip it) to step on."), lastHtml_));
    window_.statusBar()->showMessage(tr("Stepping waits for the lesson's question."), 3000);
  });
}

QString LessonPane::choiceText(const LessonChoice& choice) {
  const QString text = lessonText(choice.text);
  return choice.arg.empty() ? text : text.arg(QString::fromStdString(choice.arg));
}

QString LessonPane::answerText(const Checkpoint& cp) {
  if (cp.spec && cp.spec->kind == CheckpointKind::Psn) {
    const qulonglong psn = QString::fromStdString(cp.answer).toULongLong();
    return tr("PSN %1 (0x%2)").arg(psn).arg(psn, 6, 16, QLatin1Char('0'));
  }
  for (const auto& c : cp.choices)
    if (c.key == cp.answer) return choiceText(c);
  return QString::fromStdString(cp.answer);
}

bool LessonPane::start(const QString& id, QString& error) {
  const LessonSpec* lesson = findLesson(id.toStdString());
  if (!lesson) {
    QStringList ids;
    for (const auto& l : lessons())
      ids << QString::fromUtf8(l.id.data(), static_cast<qsizetype>(l.id.size()));
    error = tr("no lesson '%1' (lessons: %2)").arg(id, ids.join(QStringLiteral(", ")));
    return false;
  }
  const QString scenarioId =
      QString::fromUtf8(lesson->scenario.data(), static_cast<qsizetype>(lesson->scenario.size()));
  if (!lessonAvailable(*lesson)) {
    error =
        tr("lesson '%1' needs the scenario %2, which this build does not have").arg(id, scenarioId);
    return false;
  }
  stop();
  starting_ = true;
  const bool opened = window_.openScenario(scenarioId);
  starting_ = false;
  if (!opened) {
    error = window_.lastError();
    return false;
  }
  std::string why;
  LessonPlan plan;
  if (!planLesson(*lesson, *scenario_->recording(), window_.frameStore(), plan, why)) {
    error = QString::fromStdString(why);
    return false;
  }
  plan_ = std::move(plan);
  planned_ = scenario_->recording();
  next_ = 0;
  wrongTries_ = 0;
  title_->setText(lessonText(lesson->title));
  narration_->setPlainText(lessonText(lesson->intro));
  feedback_->clear();
  lastHtml_.clear();
  showQuestion();
  showTab(true);
  window_.lowerTabs()->setCurrentWidget(this);
  return true;
}

void LessonPane::showTab(bool on) {
  QTabWidget* tabs = window_.lowerTabs();
  if (tabsMinimum_ < 0) tabsMinimum_ = tabs->minimumWidth();
  tabs->setTabVisible(tabs->indexOf(this), on);
  // Every tab stays whole with the lesson's beside them (the main window's rule, with the same
  // room for the anomaly count to grow).
  tabs->setMinimumWidth(std::max(
      tabsMinimum_, on ? tabs->tabBar()->sizeHint().width() +
                             fontMetrics().horizontalAdvance(QStringLiteral(" (0000)")) + 12
                       : 0));
}

void LessonPane::stop() {
  plan_ = {};
  planned_ = nullptr;
  next_ = 0;
  scenario_->holdAt(-2);
}

void LessonPane::onCurrentChanged() {
  if (!active() || starting_ || scenario_->recording() == planned_) return;
  // Another recording: the same scenario on another Transport restarts the lesson on it.
  const LessonSpec* lesson = plan_.lesson;
  const ScenarioRecording* rec = scenario_->recording();
  LessonPlan plan;
  std::string why;
  if (!rec || rec->name != lesson->scenario ||
      !planLesson(*lesson, *rec, window_.frameStore(), plan, why)) {
    stop();
    title_->setText(lessonText(lesson->title));
    question_->clear();
    choices_->hide();
    number_->hide();
    answerButton_->setEnabled(false);
    skipButton_->setEnabled(false);
    feedback_->setHtml(tr("The lesson ended: another scenario replaced its own."));
    return;
  }
  plan_ = std::move(plan);
  planned_ = rec;
  next_ = 0;
  wrongTries_ = 0;
  feedback_->setHtml(tr("The scenario was run again: the lesson starts over."));
  showQuestion();
}

void LessonPane::showQuestion() {
  const auto n = plan_.checkpoints.size();
  if (next_ >= n) {
    scenario_->holdAt(-2);
    progress_->setText(tr("All %n checkpoint(s) done", nullptr, static_cast<int>(n)));
    question_->setText(tr("Step on to the end of the scenario."));
    narration_->setPlainText(lessonText(plan_.lesson->outro));
    choices_->hide();
    number_->hide();
    answerButton_->setEnabled(false);
    skipButton_->setEnabled(false);
    return;
  }
  const Checkpoint& cp = plan_.checkpoints[next_];
  scenario_->holdAt(static_cast<int>(cp.event) - 1);
  if (scenario_->current() >= static_cast<int>(cp.event))
    scenario_->goTo(static_cast<int>(cp.event) - 1);
  progress_->setText(
      tr("Checkpoint %1 of %2 (before event %3)").arg(next_ + 1).arg(n).arg(cp.event + 1));
  question_->setText(question());
  answerButton_->setEnabled(true);
  skipButton_->setEnabled(true);
  wrongTries_ = 0;
  rebuildChoices();
}

void LessonPane::rebuildChoices() {
  for (QAbstractButton* b : group_->buttons()) {
    group_->removeButton(b);
    delete b;
  }
  const Checkpoint& cp = plan_.checkpoints[next_];
  const bool typed = cp.choices.empty();
  number_->setVisible(typed);
  number_->clear();
  choices_->setVisible(!typed);
  int i = 0;
  for (const auto& c : cp.choices) {
    auto* b = new QRadioButton(choiceText(c), choices_);
    b->setProperty("lessonKey", QString::fromStdString(c.key));
    group_->addButton(b, i++);
    choicesLayout_->addWidget(b);
  }
  if (typed) number_->setFocus();
}

QString LessonPane::question() const {
  if (!asking()) return {};
  const Checkpoint& cp = plan_.checkpoints[next_];
  return lessonText(cp.spec->question);
}

QString LessonPane::feedback() const {
  return feedback_->toPlainText();
}
QString LessonPane::progress() const {
  return progress_->text();
}

QStringList LessonPane::choiceTexts() const {
  QStringList out;
  if (!asking()) return out;
  for (const auto& c : plan_.checkpoints[next_].choices)
    out << choiceText(c);
  return out;
}

void LessonPane::submit() {
  if (!asking()) return;
  const Checkpoint& cp = plan_.checkpoints[next_];
  if (cp.choices.empty()) {
    answer(number_->text());
    return;
  }
  QAbstractButton* b = group_->checkedButton();
  if (!b) {
    feedback_->setHtml(tr("Choose an answer first."));
    return;
  }
  answer(b->property("lessonKey").toString());
}

bool LessonPane::answer(const QString& given) {
  if (!asking()) return false;
  const Checkpoint& cp = plan_.checkpoints[next_];
  const EventExplanation ex = EventExplainer::explain(*planned_, cp.event);
  if (!checkAnswer(cp, given.toStdString())) {
    ++wrongTries_;
    QString shown = given;
    for (const auto& c : cp.choices)
      if (QString::fromStdString(c.key) == given) shown = choiceText(c);
    QString text = tr("<b>Not right:</b> %1 is not what happens.").arg(shown.toHtmlEscaped());
    if (cp.spec->hint) text += QStringLiteral(" ") + lessonText(cp.spec->hint).toHtmlEscaped();
    if (wrongTries_ >= 2)
      text += QStringLiteral("<br><br>") +
              tr("What happens: <b>%1</b>. %2")
                  .arg(ex.title.toHtmlEscaped(), firstParagraph(ex.body).toHtmlEscaped());
    lastHtml_ = text;
    feedback_->setHtml(text);
    return false;
  }
  passCheckpoint(tr("<b>Right:</b> %1.<br><br><b>%2</b><br>%3")
                     .arg(answerText(cp).toHtmlEscaped(), ex.title.toHtmlEscaped(),
                          firstParagraph(ex.body).toHtmlEscaped()));
  return true;
}

void LessonPane::skip() {
  if (!asking()) return;
  const Checkpoint& cp = plan_.checkpoints[next_];
  const EventExplanation ex = EventExplainer::explain(*planned_, cp.event);
  passCheckpoint(tr("<b>Skipped.</b> The answer: %1.<br><br><b>%2</b><br>%3")
                     .arg(answerText(cp).toHtmlEscaped(), ex.title.toHtmlEscaped(),
                          firstParagraph(ex.body).toHtmlEscaped()));
}

void LessonPane::passCheckpoint(const QString& feedback) {
  lastHtml_ = feedback;
  feedback_->setHtml(lastHtml_);
  const int shownAt = static_cast<int>(plan_.checkpoints[next_].event);
  ++next_;
  showQuestion();
  scenario_->goTo(shownAt);
}

LessonPane* lessonPane(MainWindow& window) {
  if (auto* p = window.findChild<LessonPane*>(QStringLiteral("lessonPane"))) return p;
  auto* p = new LessonPane(window);
  // First among the lower tabs, so that it is never scrolled out of the tab bar; shown while a
  // lesson runs.
  window.lowerTabs()->insertTab(0, p, LessonPane::tr("Lesson"));
  window.lowerTabs()->setTabVisible(0, false);
  return p;
}

void addLessonsMenu(QMenuBar& bar, MainWindow& window) {
  QMenu* menu = bar.addMenu(LessonPane::tr("&Lessons"));
  menu->setObjectName(QStringLiteral("lessonsMenu"));
  menu->setToolTipsVisible(true);
  for (const auto& l : lessons()) {
    const QString id = QString::fromUtf8(l.id.data(), static_cast<qsizetype>(l.id.size()));
    QAction* a = menu->addAction(lessonText(l.title));
    a->setObjectName(QStringLiteral("lesson-") + id);
    a->setData(id);
    const QString scenarioId =
        QString::fromUtf8(l.scenario.data(), static_cast<qsizetype>(l.scenario.size()));
    if (!lessonAvailable(l)) {
      a->setEnabled(false);
      a->setToolTip(LessonPane::tr("Needs the scenario %1, which this build does not have yet")
                        .arg(scenarioId));
    } else {
      a->setToolTip(LessonPane::tr("Runs the scenario %1 with questions").arg(scenarioId));
    }
    a->setStatusTip(a->toolTip());
    QObject::connect(a, &QAction::triggered, &window, [&window, id] {
      QString error;
      if (!lessonPane(window)->start(id, error))
        window.statusBar()->showMessage(LessonPane::tr("Cannot start the lesson: %1").arg(error));
    });
  }
}

}  // namespace rdmascope::ui
