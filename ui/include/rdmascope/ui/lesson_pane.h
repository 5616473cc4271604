#pragma once
/// @file lesson_pane.h
/// The Lessons menu and the lesson pane: a lower tab below the scenario showing the lesson's
/// narration, its progress (checkpoint k of n), the question asked before the next step, the
/// answer input (choices, or a number for a PSN) and the feedback. While a checkpoint is
/// unanswered the scenario cannot step past it (ScenarioController::holdAt); a right answer or
/// Skip lets it go on, a wrong one is refused with a hint and, from the second try, the
/// explanation of what happens (event_explanation.h).

#include <QString>
#include <QWidget>

#include "rdmascope/ui/lesson.h"

class QButtonGroup;
class QLabel;
class QLineEdit;
class QMenuBar;
class QPushButton;
class QTextBrowser;
class QVBoxLayout;

namespace rdmascope::ui {

class MainWindow;
class ScenarioController;

class LessonPane : public QWidget {
  Q_OBJECT
 public:
  /// `window` opens the lessons' scenarios (MainWindow::openScenario).
  explicit LessonPane(MainWindow& window);

  /// Opens the lesson's scenario and asks its first question. False with `error` set for an
  /// unknown lesson, a scenario this build lacks or a checkpoint that cannot be placed.
  bool start(const QString& id, QString& error);
  /// Ends the lesson and lifts the hold on stepping.
  void stop();
  bool active() const { return plan_.lesson != nullptr; }
  const LessonPlan& plan() const { return plan_; }
  /// Index of the checkpoint asked now (plan().checkpoints.size() once all are answered).
  std::size_t checkpoint() const { return next_; }
  /// True while a question waits for its answer.
  bool asking() const { return active() && next_ < plan_.checkpoints.size(); }

  /// Answers the question: a choice's key, or a number for a PSN. A right answer lets the
  /// scenario step on to the checkpoint's event and shows it; a wrong one is refused. Returns
  /// whether it was right.
  bool answer(const QString& given);
  /// Gives up on the question: shows the answer and steps on.
  void skip();

  /// The texts shown (for tests): question, feedback (as plain text) and progress.
  QString question() const;
  QString feedback() const;
  QString progress() const;
  /// The choices offered for the current question, as shown.
  QStringList choiceTexts() const;

  /// A choice's text in the GUI's language.
  static QString choiceText(const LessonChoice& choice);
  /// The answer of a checkpoint as the feedback names it.
  static QString answerText(const Checkpoint& checkpoint);

 private:
  /// Shows `feedback`, asks the next question and steps to the checkpoint's event.
  void passCheckpoint(const QString& feedback);
  /// Shows or hides the lesson's tab among the lower tabs.
  void showTab(bool on);
  void showQuestion();
  void rebuildChoices();
  void onCurrentChanged();
  void submit();

  MainWindow& window_;
  ScenarioController* scenario_;
  LessonPlan plan_;
  const ScenarioRecording* planned_ = nullptr;
  std::size_t next_ = 0;
  int wrongTries_ = 0;
  bool starting_ = false;
  QLabel* title_ = nullptr;
  QLabel* progress_ = nullptr;
  QTextBrowser* narration_ = nullptr;
  QLabel* question_ = nullptr;
  QWidget* choices_ = nullptr;
  QVBoxLayout* choicesLayout_ = nullptr;
  QButtonGroup* group_ = nullptr;
  QLineEdit* number_ = nullptr;
  QPushButton* answerButton_ = nullptr;
  QPushButton* skipButton_ = nullptr;
  QTextBrowser* feedback_ = nullptr;
  QString lastHtml_;
  int tabsMinimum_ = -1;  // the lower tabs' own minimum width  // what the last answer or skip said
};

/// The lesson pane of `window`, created on first use as the first lower tab, hidden until a
/// lesson starts (the hosts, the ladder and the packet list keep their room).
LessonPane* lessonPane(MainWindow& window);

/// Adds the Lessons menu to `bar`: the lessons in the primer's order; a lesson whose scenario
/// this build lacks is disabled, its tool tip saying why.
void addLessonsMenu(QMenuBar& bar, MainWindow& window);

}  // namespace rdmascope::ui
