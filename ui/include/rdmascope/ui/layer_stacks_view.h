#pragma once
/// @file layer_stacks_view.h
/// TCP/IP, RoCEv2, InfiniBand and iWARP side by side, each drawn for the sending host A and the
/// receiving host B across the user-space / kernel / NIC zones. The selected frame's headers
/// light their layers; the data path of one message is drawn and animated step by step, with
/// CPU copies, DMA, system calls and doorbells each in their own colour.

#include <QWidget>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/ui/layer_stacks.h"
#include "rdmascope/ui/tcp_data_path.h"

class QVariantAnimation;

namespace rdmascope::ui {

class LayerStacksView : public QWidget {
  Q_OBJECT
 public:
  explicit LayerStacksView(QWidget* parent = nullptr);

  /// Lights the layers the frame has headers for (null clears) and names its headers.
  void setFrame(const packets::Dissection* dissection);
  /// The stack of the selected frame (-1 none) and its lit layers.
  int frameStack() const { return frameStack_; }
  std::uint32_t frameLayers() const { return frameLayers_; }

  /// Shows the data path of a stack up to `step` (-1: none), animating the newest step. With
  /// `announce` the stack becomes the active one and its step is explained
  /// (explanationChanged); without, the path follows along silently (the TCP side beside a
  /// scenario's RDMA steps).
  void setPathStep(Stack stack, int step, bool announce = true);
  int pathStep(Stack stack) const { return steps_[static_cast<std::size_t>(stack)]; }
  /// Clears every path.
  void clearPaths();
  /// The TCP stack's path from the simulator's TCP model for one transfer (replaces the
  /// generic steps; the step shown is kept within the new path).
  void setTcpPath(const TcpDataPath& path);
  /// The transfer size the TCP path was modelled for (0: the generic steps).
  std::uint64_t tcpPathBytes() const { return tcpBytes_; }
  /// The steps drawn for a stack.
  std::span<const PathStep> pathOf(Stack stack) const;
  int pathLength(Stack stack) const { return static_cast<int>(pathOf(stack).size()); }
  /// The stack whose path moved last.
  Stack activeStack() const { return active_; }

  /// Text of the current step of the active stack (for the explanation pane).
  QString currentExplanation() const;

  /// The font a layer box of `width` pixels labels `text` with: `font`, or smaller (down to
  /// 6 pt) when the text would not fit.
  static QFont labelFont(QFont font, const QString& text, double width);

  /// Centre of a layer box (for tests and tooltips).
  QRectF layerRect(Stack stack, bool hostB, int layer) const;
  /// Where a stack's current step is named ("step 3 of 12: headers"), under its wire and clear
  /// of its boxes; empty when the stack shows no step.
  QRectF stepLabelRect(Stack stack) const;
  QString stepCaption(Stack stack) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 Q_SIGNALS:
  void explanationChanged(const QString& text);

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

 private:
  struct Geometry {
    QRectF panel;
    double colA = 0, colB = 0, colWidth = 0;
  };
  Geometry geometryOf(std::size_t stack) const;
  double rowTop(Zone zone, int indexInZone) const;
  double zoneTop(int zone) const;
  double rowHeight() const;
  void drawStep(class QPainter& p, std::size_t stack, const PathStep& s, double progress,
                bool current) const;

  int frameStack_ = -1;
  std::uint32_t frameLayers_ = 0;
  QString frameHeaders_;
  std::array<int, kStackCount> steps_{-1, -1, -1, -1};
  Stack active_ = Stack::RoceV2;
  std::vector<std::string> tcpTexts_;  // tcpSteps_' texts point into these
  std::vector<PathStep> tcpSteps_;
  std::uint64_t tcpBytes_ = 0;
  TcpTransferCounts tcpCounts_;
  QVariantAnimation* anim_;
  double progress_ = 1.0;
};

}  // namespace rdmascope::ui
