#include "rdmascope/ui/data_path_pane.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

#include "rdmascope/ui/layer_stacks_view.h"

namespace rdmascope::ui {

DataPathPane::DataPathPane(QWidget* parent) : QWidget(parent) {
  view_ = new LayerStacksView(this);
  stack_ = new QComboBox(this);
  stack_->setObjectName(QStringLiteral("dataPathStack"));
  for (const StackDef& def : stackDefs())
    stack_->addItem(QCoreApplication::translate("LayerStacks", std::string(def.name).c_str()),
                    static_cast<int>(def.stack));
  stack_->setCurrentIndex(static_cast<int>(Stack::TcpIp));
  auto button = [this](QStyle::StandardPixmap icon, const QString& tip) {
    auto* b = new QToolButton(this);
    b->setIcon(style()->standardIcon(icon));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
  };
  back_ = button(QStyle::SP_MediaSeekBackward, tr("Previous step of the data path"));
  forward_ = button(QStyle::SP_MediaSeekForward, tr("Next step of the data path"));
  play_ = button(QStyle::SP_MediaPlay, tr("Play the data path of one message"));
  timer_ = new QTimer(this);
  timer_->setInterval(1100);

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(4, 2, 4, 2);
  bar->addWidget(new QLabel(tr("Data path of one message:"), this));
  bar->addWidget(stack_);
  bar->addWidget(back_);
  bar->addWidget(play_);
  bar->addWidget(forward_);
  bar->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addLayout(bar);
  // The stacks stay readable at their minimum size: a smaller pane (a laptop screen) scrolls.
  auto* scroll = new QScrollArea(this);
  scroll->setObjectName(QStringLiteral("layerStacksScroll"));
  scroll->setWidget(view_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  layout->addWidget(scroll, 1);

  connect(back_, &QToolButton::clicked, this, &DataPathPane::stepBack);
  connect(forward_, &QToolButton::clicked, this, &DataPathPane::stepForward);
  connect(play_, &QToolButton::clicked, this, [this] {
    if (playing())
      timer_->stop();
    else
      play();
  });
  connect(timer_, &QTimer::timeout, this, [this] {
    const Stack s = chosen();
    if (view_->pathStep(s) + 1 >= view_->pathLength(s)) {
      timer_->stop();
      return;
    }
    stepForward();
  });
  connect(stack_, &QComboBox::currentIndexChanged, this, [this] {
    timer_->stop();
    view_->setPathStep(chosen(), view_->pathStep(chosen()));
  });
  connect(view_, &LayerStacksView::explanationChanged, this, &DataPathPane::explanationChanged);
}

Stack DataPathPane::chosen() const {
  return static_cast<Stack>(stack_->currentData().toInt());
}

void DataPathPane::stepForward() {
  view_->setPathStep(chosen(), view_->pathStep(chosen()) + 1);
}

void DataPathPane::stepBack() {
  view_->setPathStep(chosen(), view_->pathStep(chosen()) - 1);
}

void DataPathPane::play() {
  view_->setPathStep(chosen(), 0);
  timer_->start();
}

bool DataPathPane::playing() const {
  return timer_->isActive();
}

}  // namespace rdmascope::ui
