#pragma once
/// @file glossary.h
/// The glossary of RDMA words the GUI uses (headers such as BTH and AETH, fields such as PSN
/// and MSN, mechanisms such as RNR and go-back-N, and the primer's ideas: zero-copy, kernel
/// bypass, CPU offload, one- and two-sided operations). Every text is tr()-wrapped under the
/// context "Glossary"; the entries are built in the current language on each call.

#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <vector>

#include "rdmascope/analysis/flow_analyzer.h"

namespace rdmascope::ui {

struct GlossaryEntry {
  QString key;         ///< the term as written (also the lookup key): "RNR", "go-back-N"
  QString expansion;   ///< what the abbreviation stands for, or empty
  QString definition;  ///< a few sentences in plain words
};

class Glossary {
  Q_DECLARE_TR_FUNCTIONS(Glossary)
 public:
  /// Every entry, sorted by key (case-insensitively).
  static std::vector<GlossaryEntry> entries();
  /// The entry of `key` (case-insensitive; also "rnr_retry"-style spellings are not matched),
  /// or an entry with an empty key.
  static GlossaryEntry find(const QString& key);
  /// The glossary key a packet field's filter key belongs to ("infiniband.aeth.msn" -> "MSN",
  /// "infiniband.reth.rkey" -> "rkey"), or empty when none applies.
  static QString keyForField(const QString& filterKey);
  /// The glossary key an anomaly badge stands for (RNR NAK -> "RNR", PSN gap -> "PSN"), or
  /// empty.
  static QString keyForAnomaly(analysis::AnomalyKind kind);
  /// "RNR (Receiver Not Ready): definition", as a tooltip shows an entry.
  static QString tooltip(const QString& key);
};

}  // namespace rdmascope::ui
