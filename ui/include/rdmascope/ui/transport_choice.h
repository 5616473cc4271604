#pragma once
/// @file transport_choice.h
/// The toolbar's Transport box beside the scenario box: the simulator's wire formats (RoCEv2
/// over IPv4 or IPv6, RoCEv1, InfiniBand) for verbs scenarios, iWARP for the iwarp-* transfers
/// and TCP sockets for tcp-stream. When the scenario and the box disagree, one of them follows
/// the other (the one the user did not just pick) and a one-line note says what changed and
/// why; nothing falls back to the tour silently.

#include <QCoreApplication>
#include <QString>

class QComboBox;

namespace rdmascope::ui {

/// Item data of the Transport box beyond sim::WireFormat's values.
inline constexpr int kTransportIwarp = 100;
inline constexpr int kTransportTcpSockets = 101;

/// What to run and show after a choice.
struct TransportDecision {
  QString scenario;   ///< the built-in to run
  int transport = 0;  ///< the Transport box's item data to select
  QString note;       ///< one line for the status bar (empty: the choice was consistent)
};

class TransportChoice {
  Q_DECLARE_TR_FUNCTIONS(TransportChoice)
 public:
  /// Adds the iWARP and TCP sockets items after the wire formats.
  static void addItems(QComboBox& box);
  /// The item data a built-in needs: kTransportIwarp, kTransportTcpSockets, or -1 for a verbs
  /// scenario (any wire format).
  static int transportOf(const QString& scenario);
  /// The user picked `scenario` with the box at `transport` (named `transportName`): the box
  /// follows the scenario.
  static TransportDecision forScenario(const QString& scenario, int transport,
                                       const QString& transportName);
  /// The user picked `transport` with `scenario` shown: the scenario follows (an iWARP or TCP
  /// transfer for a verbs scenario, the verbs counterpart of a transfer for a wire format).
  static TransportDecision forTransport(const QString& scenario, int transport,
                                        const QString& transportName);
  /// The note for "Connect with rdma_cm" on a scenario it does not apply to (empty if it does).
  static QString cmNote(const QString& scenario);
};

}  // namespace rdmascope::ui
