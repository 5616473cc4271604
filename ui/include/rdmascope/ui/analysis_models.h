#pragma once
/// @file analysis_models.h
/// Item models over a CaptureAnalysis: the conversations (one row per connection, like
/// Wireshark's Statistics > Conversations but per QP pair) and the anomalies in frame order.

#include <QAbstractTableModel>
#include <QColor>
#include <QString>
#include <memory>
#include <vector>

#include "rdmascope/ui/capture_analysis.h"

namespace rdmascope::ui {

/// Role with the raw value a column sorts by (a number for numeric columns).
inline constexpr int kSortRole = Qt::UserRole + 1;

class ConversationModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    Carrier,
    Transport,
    EndpointA,
    EndpointB,
    Frames,
    Messages,
    Bytes,
    Throughput,
    MessageRate,
    LatencyP50,
    LatencyP99,
    Naks,
    RnrNaks,
    Resends,
    Gaps,
    IcrcFailures,
    Incomplete,
    ColumnCount
  };

  explicit ConversationModel(QObject* parent = nullptr);

  void setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis);
  const CaptureAnalysis* analysis() const { return analysis_.get(); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  /// The ConnectionReport::id of a row, or -1.
  int connectionAt(int row) const;

 private:
  struct Row {
    std::uint64_t messages = 0, bytes = 0, naks = 0, rnrNaks = 0, resends = 0, gaps = 0, icrc = 0,
                  incomplete = 0;
    double throughput = 0, messageRate = 0;  // per second; < 0 without a duration
    double p50 = -1, p99 = -1;               // seconds; < 0 without samples
  };
  std::shared_ptr<const CaptureAnalysis> analysis_;
  std::vector<Row> rows_;
};

class AnomalyModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Kind, Frame, Time, Connection, Detail, ColumnCount };

  explicit AnomalyModel(QObject* parent = nullptr);

  void setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  /// The 0-based store index of the frame of a row, or -1.
  qint64 frameAt(int row) const;
  const analysis::Anomaly* anomalyAt(int row) const;

 private:
  std::shared_ptr<const CaptureAnalysis> analysis_;
};

/// How the views draw an anomaly kind: a colour, a one-letter badge and a legend name.
struct AnomalyStyle {
  QColor color;
  QString badge;
  QString name;
};
AnomalyStyle anomalyStyle(analysis::AnomalyKind kind);
/// The name the Anomalies table shows for a kind, in the interface's language (the analyzer's
/// identifier, e.g. psn_gap, is what `rdmascope-cli analyze` prints; the row's tooltip names it).
QString anomalyKindName(analysis::AnomalyKind kind);
/// The kinds the flow graph and the plot give a legend entry, in legend order (GapFilled
/// stands for every kind drawn as "Other").
const std::vector<analysis::AnomalyKind>& legendKinds();
/// Whether a kind can occur on a connection of a carrier (iWARP: TCP and MPA findings; RoCE and
/// InfiniBand: PSN, NAK, CNP and ICRC ones; resends, copies, timeouts and incomplete: both).
bool anomalyKindApplies(analysis::AnomalyKind kind, analysis::Carrier carrier);

/// "10.0.0.1  QP 0x000011" (the QP as the packet details show it); iWARP: "10.0.0.1:20049".
QString endpointText(const analysis::Endpoint& endpoint);
/// A duration for people: "850 ns", "12.4 us", "3.10 ms", "1.25 s".
QString durationText(double seconds);
/// A rate for people: "1.25 GB/s", "812 kB/s".
QString byteRateText(double bytesPerSecond);

}  // namespace rdmascope::ui
