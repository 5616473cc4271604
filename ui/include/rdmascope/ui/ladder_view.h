#pragma once
/// @file ladder_view.h
/// A ladder (sequence) diagram of the frames between host A and host B (or among the N hosts of
/// a fabric, one lifeline each): one arrow per frame, in the order sent, labelled with its
/// opcode and PSN; frames lost on the link end in a cross half-way, frames the receiver drops
/// end in a cross at its lifeline, both labelled so. Messages of the out-of-band exchange (the
/// TCP side channel, not RDMA) are dashed green rows of two lines. Every label sits above its
/// arrow, never on it (labelRect and arrowLine give the geometry). PSNs are written in the base
/// of PsnBase. Clicking a row selects it everywhere.

#include <QLineF>
#include <QRectF>
#include <QStringList>
#include <QWidget>
#include <vector>

namespace rdmascope::ui {

/// One row of the ladder: a frame, or a message of the TCP side channel.
struct LadderFrame {
  int fromHost = 0;                ///< 0: A -> B, 1: B -> A (index of the sender's lifeline)
  int toHost = -1;                 ///< the receiver's lifeline; -1: the other of two
  QString label;                   ///< e.g. "SEND FIRST" (with `psn`) or "SEND FIRST  PSN 0x100"
  qint64 psn = -1;                 ///< when >= 0, "  PSN <psn>" follows the label in PsnBase's base
  QString note;                    ///< follows the PSN, e.g. "  NAK" or "  ✗ dropped by host-b"
  QString secondLine;              ///< a side-channel message's second line (empty: one line)
  QString detail;                  ///< tooltip
  bool dropped = false;            ///< lost on the link (a cross half-way)
  bool droppedAtReceiver = false;  ///< reached the receiver, which discarded it (a cross there)
  bool nak = false;                ///< a NAK or RNR NAK (drawn in orange)
  bool held = false;         ///< waiting at a paused switch (drawn to the middle, amber, paused)
  bool sideChannel = false;  ///< a TCP message of the out-of-band exchange (dashed, green)
  double sentUs = 0.0;       ///< time sent, microseconds
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
  /// Every row, drawn or not yet.
  const std::vector<LadderFrame>& frames() const { return frames_; }
  int visibleCount() const { return visible_; }
  /// The frame whose arrow or label is at a point, or -1.
  int frameAt(const QPoint& pos) const;
  /// A point on the arrow of a frame (for tests).
  QPoint pointOfFrame(int frame) const;
  /// The text a row shows (label, PSN in the current base, note; a second line after "\n").
  QString labelText(int frame) const;
  /// The font a row's label is drawn in (smaller when the lifelines are close).
  QFont labelFontOf(int frame) const;
  /// The label as drawn: each line that does not fit between the lifelines even at the
  /// smallest font ends in "…".
  QString shownLabelText(int frame) const;
  /// Where a row's label text is drawn (its lines' bounding box), in widget coordinates.
  QRectF labelRect(int frame) const;
  /// The arrow's line (from the sender's lifeline to its end), in widget coordinates.
  QLineF arrowLine(int frame) const;

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
  /// The top of a row's band (before scrolling) and its height (two-line rows are taller).
  double rowTop(int frame) const;
  double rowSpan(int frame) const;
  double yOf(int frame) const;
  void layoutRows();
  void clampScroll();

  double laneX(int lane) const;

  QStringList names_ = {QStringLiteral("host A"), QStringLiteral("host B")};
  std::vector<LadderFrame> frames_;
  std::vector<double> tops_;  ///< rowTop of each row, and the end after the last
  int visible_ = 0;
  int current_ = -1;
  double scroll_ = 0.0;
};

}  // namespace rdmascope::ui
