#pragma once
/// @file flow_graph_view.h
/// The flow graph of one connection (like Wireshark's Flow Graph): one row per frame, an arrow
/// between the two endpoints labelled with its opcode and PSN, anomalies marked with a colour,
/// a badge and a legend. Only the visible rows are decoded and drawn, so a connection of a
/// million frames scrolls as quickly as one of ten.

#include <QAbstractScrollArea>
#include <QPainter>
#include <memory>
#include <utility>
#include <vector>

#include "rdmascope/ui/capture_analysis.h"

namespace rdmascope::ui {

class FlowGraphView : public QAbstractScrollArea {
  Q_OBJECT
 public:
  explicit FlowGraphView(QWidget* parent = nullptr);

  /// The analysis and the store its frames are in (which must outlive the view or be replaced
  /// together with the analysis).
  void setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis, const FrameStore* store);
  /// Shows the connection with ConnectionReport::id `id` (-1: none).
  void setConnection(int id);
  int connection() const { return connection_; }

  /// Rows: the frames of the connection.
  int rowCount() const { return static_cast<int>(frames().size()); }
  /// The 0-based store index of a row's frame, or -1.
  qint64 frameAtRow(int row) const;
  /// The row of a store frame, or -1 when it is not in the connection.
  int rowOfFrame(qint64 frame) const;
  /// The anomaly kinds marked on a row, most important first.
  std::vector<analysis::AnomalyKind> marksAt(int row) const;
  /// Rows with at least one mark.
  int markedRowCount() const;
  /// The label of a row ("SEND First  PSN 12").
  QString labelAt(int row) const;
  /// What the row's anomalies say (its tooltip), one line each; empty without marks.
  QString detailAt(int row) const;

  /// Highlights a store frame's row (and scrolls to it); -1 or a foreign frame clears.
  void setCurrentFrame(qint64 frame);
  qint64 currentFrame() const { return current_; }
  /// The row at a viewport point, or -1.
  int rowAt(const QPoint& pos) const;
  /// A point on a row's arrow in viewport coordinates (scrolls the row into view first).
  QPoint pointOfRow(int row);
  /// Rows painted by the last paint event (for checking that only visible rows are drawn).
  int lastPaintedRows() const { return lastPainted_; }

  QSize sizeHint() const override { return {640, 420}; }

 Q_SIGNALS:
  /// A frame's row was clicked (its 0-based store index).
  void frameClicked(qint64 frame);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool viewportEvent(QEvent* event) override;

 private:
  void paintRows(QPainter& p);

 private:
  const std::vector<ConnectionFrame>& frames() const;
  /// A frame without an InfiniBand transport: its MPA units (iWARP) and TCP flags and length.
  QString tcpLabel(const ConnectionFrame& frame) const;
  int rowHeight() const;
  int headerHeight() const;
  void updateScrollBar();
  void scrollToRow(int row);

  std::shared_ptr<const CaptureAnalysis> analysis_;
  const FrameStore* store_ = nullptr;
  int connection_ = -1;
  int row_ = -1;                                              // row of the connection in the report
  std::vector<std::pair<std::uint64_t, std::size_t>> marks_;  // (1-based frame, anomaly index)
  qint64 current_ = -1;
  int lastPainted_ = 0;
};

}  // namespace rdmascope::ui
