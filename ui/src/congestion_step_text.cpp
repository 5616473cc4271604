#include "rdmascope/ui/congestion_step_text.h"

#include <QStringList>
#include <array>

#include "rdmascope/ui/congestion_run.h"

namespace rdmascope::ui {

namespace {

// The tr() context of the sentences below.
class CongestionStepText {
  Q_DECLARE_TR_FUNCTIONS(CongestionStepText)
};

using Kind = sim::FabricEvent::Kind;

QString us(sim::SimTime t) {
  return QString::number(static_cast<double>(t.picos()) / 1e6, 'f', 3);
}

QString kb(std::uint64_t bytes) {
  return QString::number(static_cast<double>(bytes) / 1024.0, 'f', 1);
}

QString flowName(const CongestionRun& run, int flow) {
  if (flow < 0 || static_cast<std::size_t>(flow) >= run.spec().flows.size())
    return CongestionStepText::tr("a flow");
  const auto& f = run.spec().flows[static_cast<std::size_t>(flow)];
  return CongestionStepText::tr("flow %1 (%2 -> %3)")
      .arg(QString::fromStdString(f.name), QString::fromStdString(f.src),
           QString::fromStdString(f.dst));
}

QString nodeOf(const std::string& port) {
  const QString p = QString::fromStdString(port);
  return p.section(QLatin1Char(':'), 0, 0);
}

}  // namespace

QString fabricEventKindName(Kind kind) {
  switch (kind) {
    case Kind::Xoff:
      return CongestionStepText::tr("XOFF");
    case Kind::Xon:
      return CongestionStepText::tr("XON");
    case Kind::EcnMark:
      return CongestionStepText::tr("ECN mark");
    case Kind::CnpSent:
      return CongestionStepText::tr("CNP");
    case Kind::RateCut:
      return CongestionStepText::tr("rate cut");
    case Kind::Drop:
      return CongestionStepText::tr("drop");
    case Kind::Deadlock:
      return CongestionStepText::tr("PFC deadlock");
  }
  return {};
}

QString describeFabricEvent(const sim::FabricEvent& e, const CongestionRun& run) {
  const QString port = QString::fromStdString(e.port);
  const QString peer = QString::fromStdString(e.peer);
  const QString at = us(e.time);
  switch (e.kind) {
    case Kind::Xoff:
      return CongestionStepText::tr(
                 "%1 us: XOFF at %2 priority %3: this ingress holds %4 KB, past the XOFF "
                 "threshold of %5 KB of shared buffer, so %6 sends PAUSE (quanta %7) to %8, "
                 "which must stop sending priority %3 on this link.")
          .arg(at, port)
          .arg(e.priority)
          .arg(kb(e.bytes), kb(e.threshold), nodeOf(e.port))
          .arg(run.spec().switches.pauseQuanta)
          .arg(peer);
    case Kind::Xon:
      return CongestionStepText::tr(
                 "%1 us: XON at %2 priority %3: this ingress drained to %4 KB, below the XON "
                 "level of %5 KB, so %6 sends PAUSE with quanta 0 to %7, which may send "
                 "priority %3 again.")
          .arg(at, port)
          .arg(e.priority)
          .arg(kb(e.bytes), kb(e.threshold), nodeOf(e.port), peer);
    case Kind::EcnMark:
      return CongestionStepText::tr(
                 "%1 us: ECN mark at egress %2 priority %3 (towards %4): the queue holds %5 "
                 "KB, past Kmin (%6 KB), so a packet of %7 leaves with CE set (marking "
                 "probability %8%).")
          .arg(at, port)
          .arg(e.priority)
          .arg(peer, kb(e.bytes), kb(e.threshold), flowName(run, e.flow))
          .arg(e.probability * 100.0, 0, 'f', 1);
    case Kind::CnpSent:
      return CongestionStepText::tr(
                 "%1 us: CNP from %2: a CE-marked packet of %3 reached %2's NIC (the "
                 "notification point), which answers with a CNP to the sender %4 (at most one "
                 "per QP every %5 us).")
          .arg(at, port, flowName(run, e.flow), peer)
          .arg(run.spec().nics.params.cnpInterval.micros());
    case Kind::RateCut:
      return CongestionStepText::tr(
                 "%1 us: rate cut at %2 for %3: the CNP made the reaction point cut the rate "
                 "from %4 to %5 Gb/s (RC x (1 - alpha/2)) and raise alpha to %6.")
          .arg(at, port, flowName(run, e.flow))
          .arg(e.rateBeforeGbps, 0, 'f', 2)
          .arg(e.rateAfterGbps, 0, 'f', 2)
          .arg(e.alpha, 0, 'f', 3);
    case Kind::Drop:
      return e.lossless ? CongestionStepText::tr(
                              "%1 us: drop at %2 priority %3: a frame of %4 bytes of %5 overflowed "
                              "the lossless headroom: the PAUSE came too late for the link's round "
                              "trip.")
                              .arg(at, port)
                              .arg(e.priority)
                              .arg(e.bytes)
                              .arg(flowName(run, e.flow))
                        : CongestionStepText::tr(
                              "%1 us: drop at %2 priority %3: a frame of %4 bytes of %5 found its "
                              "priority's share of the buffer full (no PFC on a lossy priority).")
                              .arg(at, port)
                              .arg(e.priority)
                              .arg(e.bytes)
                              .arg(flowName(run, e.flow));
    case Kind::Deadlock:
      return CongestionStepText::tr(
                 "%1 us: PFC deadlock: %2 paused queues wait on each other in a cycle through "
                 "%3 priority %4; none of them can ever drain.")
          .arg(at)
          .arg(e.bytes)
          .arg(port)
          .arg(e.priority);
  }
  return {};
}

QString describeSlice(const CongestionRun& run, sim::SimTime from, sim::SimTime to) {
  if (to <= sim::SimTime())
    return CongestionStepText::tr(
               "Before the run: %1 flows on %2 links. Step forward %3 us at a time, or to the next "
               "event (XOFF, ECN mark, CNP, rate cut, XON, drop).")
        .arg(run.spec().flows.size())
        .arg(run.spec().links.size())
        .arg(run.slice().micros());
  std::array<int, 7> count{};
  for (const auto& e : run.events())
    if (e.time > from && e.time <= to) ++count[static_cast<std::size_t>(e.kind)];
  QStringList parts;
  for (std::size_t k = 0; k < count.size(); ++k)
    if (count[k] > 0)
      parts << QStringLiteral("%1 %2").arg(count[k]).arg(fabricEventKindName(static_cast<Kind>(k)));
  QString deepest;
  std::uint64_t most = 0;
  for (std::size_t q = 0; q < run.series().queues.size(); ++q) {
    const std::uint64_t b = run.queueBytesNow(q);
    if (b > most) {
      most = b;
      deepest = QStringLiteral("%1/%2")
                    .arg(QString::fromStdString(run.series().queues[q].port))
                    .arg(run.series().queues[q].priority);
    }
  }
  const QString what = parts.isEmpty() ? CongestionStepText::tr("no congestion event")
                                       : parts.join(QStringLiteral(", "));
  if (most == 0)
    return CongestionStepText::tr("%1-%2 us: %3; every switch queue is empty.")
        .arg(us(from), us(to), what);
  return CongestionStepText::tr("%1-%2 us: %3; the deepest switch queue is %4 with %5 KB.")
      .arg(us(from), us(to), what, deepest, kb(most));
}

QString congestionStepTitle(const CongestionRun& run) {
  const int i = run.currentEvent();
  if (i < 0) return CongestionStepText::tr("t = %1 us").arg(us(run.time()));
  const auto& e = run.events()[static_cast<std::size_t>(i)];
  return CongestionStepText::tr("t = %1 us: %2 at %3")
      .arg(us(run.time()), fabricEventKindName(e.kind), QString::fromStdString(e.port));
}

}  // namespace rdmascope::ui
