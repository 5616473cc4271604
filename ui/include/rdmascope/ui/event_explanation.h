#pragma once
/// @file event_explanation.h
/// The explanation pane's text for one event of a scenario recording, made from the typed
/// trace event (its kind, narrative, reason and arguments) and, for the scenario's own verbs
/// calls (free-text notes such as "host-a: ibv_modify_qp(qp, RTR, ...)"), from the call the
/// note names. Every sentence is a tr() string of the context "EventExplanation", so the GUI
/// shows it in the user's language; sim::describe() stays the CLI's English trace line.

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include "rdmascope/ui/scenario_player.h"

namespace rdmascope::ui {

/// What the explanation pane shows for one event.
struct EventExplanation {
  QString actor;      ///< who acted: a host's name, "link" or "scenario"
  QString kind;       ///< what kind of event, as the title names it ("frame dropped", "verbs call")
  QString title;      ///< one line: actor, kind and the event's gist
  QString body;       ///< what happened and why (paragraphs separated by blank lines)
  QString detail;     ///< the full text where the title abbreviates (a modify_qp mask), else empty
  QStringList terms;  ///< glossary terms the body uses (keys of glossary.h)
};

/// Builds the explanations of a recording's events.
class EventExplainer {
  Q_DECLARE_TR_FUNCTIONS(EventExplainer)
 public:
  /// The explanation of event `index` of `rec` (index < rec.events.size()).
  static EventExplanation explain(const ScenarioRecording& rec, std::size_t index);
  /// The kind of an event as titles name it (translated).
  static QString kindName(const ScenarioEvent& event);
  /// A compact name for a modify_qp call: "ibv_modify_qp → RTR (7 attributes)".
  static QString compactModifyQp(const QString& state, int attributes);
  /// One-line meaning of an ibv_qp_attr_mask bit ("IBV_QP_AV" -> "the address vector...").
  static QString maskBitMeaning(const QString& bit);
};

}  // namespace rdmascope::ui
