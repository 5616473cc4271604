#include "rdmascope/ui/layer_stacks.h"

#include <gtest/gtest.h>

#include <QCoreApplication>

#include "rdmascope/ui/data_path_pane.h"
#include "rdmascope/ui/frame_store.h"
#include "rdmascope/ui/layer_stacks_view.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/scenario_controller.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

packets::Dissection decoded(const test::Bytes& bytes) {
  FrameStore store;
  store.append(bytes, 0);
  return store.decode(0);
}

int layerIndex(const StackDef& def, std::string_view name) {
  for (std::size_t i = 0; i < def.layers.size(); ++i)
    if (def.layers[i].name == name) return static_cast<int>(i);
  return -1;
}

TEST(LayerStacks, SocketPathCopiesTwiceAndRdmaNever) {
  const PathCounts tcp = countPath(stackDef(Stack::TcpIp));
  EXPECT_EQ(tcp.cpuCopies, 2);
  EXPECT_EQ(tcp.syscalls, 2);
  EXPECT_EQ(tcp.dmas, 2);
  for (Stack s : {Stack::RoceV2, Stack::InfiniBand, Stack::Iwarp}) {
    const PathCounts c = countPath(stackDef(s));
    EXPECT_EQ(c.cpuCopies, 0);
    EXPECT_EQ(c.syscalls, 0);
    EXPECT_EQ(c.dmas, 2);
    EXPECT_EQ(c.doorbells, 1);
    // No RDMA layer runs in the kernel.
    for (const auto& l : stackDef(s).layers)
      EXPECT_NE(l.zone, Zone::Kernel) << l.name;
  }
  // Every path step names layers that exist.
  for (const auto& def : stackDefs())
    for (const auto& step : def.path) {
      EXPECT_LT(step.from, def.layers.size());
      EXPECT_LT(step.to, def.layers.size());
      EXPECT_FALSE(step.text.empty());
    }
}

TEST(LayerStacks, FrameHeadersMapOntoTheirStack) {
  const auto roce = decoded(test::roceFrame(1));
  ASSERT_EQ(stackOfFrame(roce), static_cast<int>(Stack::RoceV2));
  const StackDef& rd = stackDef(Stack::RoceV2);
  const std::uint32_t lit = layersOfFrame(rd, roce);
  for (const char* name : {"IB transport", "UDP :4791", "IP", "Ethernet"})
    EXPECT_TRUE(lit >> layerIndex(rd, name) & 1u) << name;
  EXPECT_FALSE(lit >> layerIndex(rd, "Verbs") & 1u);

  const auto tcp = decoded(test::tcpFrame(1, 2));
  ASSERT_EQ(stackOfFrame(tcp), static_cast<int>(Stack::TcpIp));
  const StackDef& td = stackDef(Stack::TcpIp);
  const std::uint32_t tl = layersOfFrame(td, tcp);
  EXPECT_TRUE(tl >> layerIndex(td, "TCP") & 1u);
  EXPECT_FALSE(tl >> layerIndex(td, "Socket buffer") & 1u);
}

TEST(LayerStacksView, StepsClampAndExplain) {
  LayerStacksView view;
  view.resize(900, 520);
  const auto roce = decoded(test::roceFrame(1));
  view.setFrame(&roce);
  EXPECT_EQ(view.frameStack(), static_cast<int>(Stack::RoceV2));
  QString text;
  QObject::connect(&view, &LayerStacksView::explanationChanged,
                   [&text](const QString& t) { text = t; });
  view.setPathStep(Stack::TcpIp, 1);
  EXPECT_TRUE(text.contains("CPU copy")) << text.toStdString();
  view.setPathStep(Stack::TcpIp, 100);
  EXPECT_EQ(view.pathStep(Stack::TcpIp), static_cast<int>(stackDef(Stack::TcpIp).path.size()) - 1);
  view.setPathStep(Stack::TcpIp, -5);
  EXPECT_EQ(view.pathStep(Stack::TcpIp), -1);
  // Host A's and host B's boxes of a layer sit side by side, B to the right.
  const QRectF a = view.layerRect(Stack::RoceV2, false, 2);
  const QRectF b = view.layerRect(Stack::RoceV2, true, 2);
  EXPECT_DOUBLE_EQ(a.top(), b.top());
  EXPECT_LT(a.right(), b.left());
}

// In the main window at 1600x1000 every layer box shows its whole name (a smaller font rather
// than "Socket bu...").
TEST(LayerStacksView, LabelsFitTheirBoxesInTheMainWindow) {
  MainWindow w;
  w.resize(1600, 1000);
  w.show();
  QCoreApplication::processEvents();
  const LayerStacksView* view = w.dataPathPane()->view();
  ASSERT_GT(view->width(), 500);
  for (const StackDef& def : stackDefs())
    for (std::size_t li = 0; li < def.layers.size(); ++li) {
      const QString name = QString::fromUtf8(def.layers[li].name.data(),
                                             static_cast<qsizetype>(def.layers[li].name.size()));
      const double room = view->layerRect(def.stack, false, static_cast<int>(li)).width() - 4;
      QFont bold = view->font();
      bold.setBold(true);
      for (const QFont& base : {view->font(), bold}) {
        const QFont f = LayerStacksView::labelFont(base, name, room);
        EXPECT_GE(f.pointSizeF(), 6.0);
        EXPECT_EQ(QFontMetrics(f).elidedText(name, Qt::ElideRight, static_cast<int>(room)), name)
            << name.toStdString() << " in " << room << " px";
      }
    }
}

// Each stack names its current step ("step 7 of 9: headers") in a caption under its wire: at
// event 40 of the tour (a multi-packet SEND, the TCP path beside it), in a large and in a small
// window, no caption covers a layer box, and each stays inside its own panel.
TEST(LayerStacksView, StepCaptionsCoverNoLayerBox) {
  for (const QSize size : {QSize(1600, 1000), QSize(1100, 700)}) {
    MainWindow w;
    w.resize(size);
    w.show();
    w.scenario()->goTo(39);
    QCoreApplication::processEvents();
    const LayerStacksView* view = w.dataPathPane()->view();
    SCOPED_TRACE(std::to_string(view->width()) + "x" + std::to_string(view->height()));
    int captions = 0;
    for (const StackDef& def : stackDefs()) {
      const QRectF cap = view->stepLabelRect(def.stack);
      if (view->pathStep(def.stack) < 0) {
        EXPECT_TRUE(cap.isEmpty());
        continue;
      }
      ++captions;
      ASSERT_FALSE(cap.isEmpty());
      EXPECT_TRUE(QRectF(view->rect()).contains(cap));
      EXPECT_TRUE(view->stepCaption(def.stack).startsWith(QStringLiteral("step ")));
      // Inside its own panel: between its columns' outer edges.
      EXPECT_GE(cap.left(), view->layerRect(def.stack, false, 0).left() - 4);
      EXPECT_LE(cap.right(), view->layerRect(def.stack, true, 0).right() + 4);
      for (const StackDef& other : stackDefs())
        for (int side = 0; side < 2; ++side)
          for (std::size_t li = 0; li < other.layers.size(); ++li)
            EXPECT_FALSE(
                cap.intersects(view->layerRect(other.stack, side == 1, static_cast<int>(li))))
                << view->stepCaption(def.stack).toStdString() << " covers "
                << other.layers[li].name;
    }
    EXPECT_GE(captions, 2);  // the RoCEv2 step and the TCP path beside it
  }
}

}  // namespace
}  // namespace rdmascope::ui
