#pragma once
/// @file ladder_view.h
/// A ladder (sequence) diagram of the frames between host A and host B (or among the N hosts of
/// a fabric, one lifeline each): one arrow per frame, in the order sent, labelled with its
/// opcode and PSN; lost frames end in a cross. Clicking a frame selects it everywhere.

#include <QStringList>
#include <QWidget>
#include <vector>

namespace rdmascope::ui {

/// One frame of the ladder.
struct LadderFrame {
  int fromHost = 0;      ///< 0: A -> B, 1: B -> A (index of the sender's lifeline)
  int toHost = -1;       ///< the receiver's lifeline; -1: the other of two
  QString label;         ///< e.g. "SEND FIRST  PSN 0x100"
  QString detail;        ///< tooltip
  bool dropped = false;  ///< lost on the link or discarded by the receiver
  bool nak = false;      ///< a NAK or RNR NAK (drawn in orange)
  bool held = false;     ///< waiting at a paused switch (drawn to the middle, amber, paused)
  double sentUs = 0.0;   ///< time sent, microseconds
};

class LadderView : public QWidget {
  Q_OBJECT
 public:
  explicit LadderView(QWidget* parent = nullptr);

  void setHostNames(const QString& a, const QString& b);
  /// One lifeline per name (at least two), left to right.
  void setHostNames(const QStringList& names);
  void setFrames(std::vector<LadderFrame> frames);
  /// Adds frames after the last (a live run), all visible; the selection and scroll stay.
  void appendFrames(const std::vector<LadderFrame>& frames);
  /// Frames [0, visible) are drawn (the ones on the wire by the current event).
  void setVisibleCount(int visible);
  /// The selected frame (-1 none), drawn bold; scrolls to keep it in view.
  void setCurrentFrame(int frame);
  int currentFrame() const { return current_; }
  int visibleCount() const { return visible_; }
  /// The frame whose arrow or label is at a point, or -1.
  int frameAt(const QPoint& pos) const;
  /// A point on the arrow of a frame (for tests).
  QPoint pointOfFrame(int frame) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override { return {260, 200}; }

 Q_SIGNALS:
  void frameClicked(int frame);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  bool event(QEvent* event) override;

 private:
  double rowHeight() const;
  double yOf(int frame) const;
  void clampScroll();

  double laneX(int lane) const;

  QStringList names_ = {QStringLiteral("host A"), QStringLiteral("host B")};
  std::vector<LadderFrame> frames_;
  int visible_ = 0;
  int current_ = -1;
  double scroll_ = 0.0;
};

}  // namespace rdmascope::ui
