// The simulated rdma_cm's sentences (verbs_backend/src/sim_cm.cpp, scenario.cpp) in the GUI's
// language. verbs_backend is Qt-free and writes them in English for the CLI's trace; each shape
// is matched here and rebuilt from a tr() template of the context "CmNarration", the numbers,
// names and verbs identifiers carried over as they are.
#include <QCoreApplication>
#include <QRegularExpression>

#include "rdmascope/ui/scenario_narration.h"

namespace rdmascope::ui {

namespace {

QString cm(const char* text) {
  return QCoreApplication::translate("CmNarration", text);
}

struct Shape {
  QRegularExpression pattern;
  const char* text;  // a template whose %1.. are the pattern's captures in order
};

const std::vector<Shape>& shapes() {
  static const std::vector<Shape> list = [] {
    const auto re = [](const char* p) { return QRegularExpression(QString::fromLatin1(p)); };
    std::vector<Shape> s;
    s.push_back({re("^rdma_cm \\(simulated\\): (\\S+) listens on TCP port (\\d+) \\(rdma_listen, "
                    "RDMA_PS_TCP\\); (\\S+) resolves its address and route "
                    "\\(rdma_resolve_addr/route\\) and will send the REQ for QP '([^']*)' in "
                    "place of the out-of-band exchange$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "rdma_cm (simulated): %1 listens on TCP port %2 (rdma_listen, "
                                   "RDMA_PS_TCP); %3 resolves its address and route "
                                   "(rdma_resolve_addr/route) and will send the REQ for QP '%4' "
                                   "in place of the out-of-band exchange")});
    s.push_back({re("^publishes the address and rkey of (\\S+) in the private data of its CM "
                    "(REQ|REP) \\(rdma_cm; QPN, PSN and GID travel in the CM messages "
                    "themselves\\)$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "publishes the address and rkey of %1 in the private data of "
                                   "its CM %2 (rdma_cm; QPN, PSN and GID travel in the CM "
                                   "messages themselves)")});
    s.push_back({re("^publishes no region in the private data of its CM (REQ|REP) \\(rdma_cm; "
                    "QPN, PSN and GID travel in the CM messages themselves\\)$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "publishes no region in the private data of its CM %1 "
                                   "(rdma_cm; QPN, PSN and GID travel in the CM messages "
                                   "themselves)")});
    s.push_back({re("^-> rq_psn (0x[0-9a-f]+): the starting PSN of the (REQ|REP), which this side "
                    "announced$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "-> rq_psn %1: the starting PSN of the %2, which this side "
                                   "announced")});
    s.push_back({re("^-> sq_psn (0x[0-9a-f]+): the starting PSN of the (REQ|REP) \\(Linux's CM "
                    "gives each side its send PSN so\\)$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "-> sq_psn %1: the starting PSN of the %2 (Linux's CM gives "
                                   "each side its send PSN so)")});
    s.push_back({re("^REQ received: (\\S+) learns QPN (0x[0-9a-f]+) and PSN (0x[0-9a-f]+) "
                    "\\(rdma_cm event CONNECT_REQUEST\\); its QP may now go INIT->RTR, after "
                    "which rdma_accept sends the REP$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "REQ received: %1 learns QPN %2 and PSN %3 (rdma_cm event "
                                   "CONNECT_REQUEST); its QP may now go INIT->RTR, after which "
                                   "rdma_accept sends the REP")});
    s.push_back({re("^REP received: (\\S+) learns QPN (0x[0-9a-f]+) and PSN (0x[0-9a-f]+) "
                    "\\(rdma_cm event CONNECT_RESPONSE\\); its QP may now go INIT->RTR->RTS, "
                    "after which rdma_establish sends the RTU$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "REP received: %1 learns QPN %2 and PSN %3 (rdma_cm event "
                                   "CONNECT_RESPONSE); its QP may now go INIT->RTR->RTS, after "
                                   "which rdma_establish sends the RTU")});
    s.push_back({re("^RTU received \\(rdma_cm event ESTABLISHED\\): (\\S+)'s QP may now go "
                    "RTR->RTS$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "RTU received (rdma_cm event ESTABLISHED): %1's QP may now go "
                                   "RTR->RTS")});
    s.push_back({re("^DREQ received \\(rdma_cm event DISCONNECTED\\): the kernel answers with the "
                    "DREP$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "DREQ received (rdma_cm event DISCONNECTED): the kernel "
                                   "answers with the DREP")});
    s.push_back({re("^DREP received \\(rdma_cm event DISCONNECTED\\): the connection is closed$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "DREP received (rdma_cm event DISCONNECTED): the connection is "
                                   "closed")});
    s.push_back({re("^-> the CM (\\w+) from (\\S+) was lost 16 times \\(the link loses what it "
                    "sends\\): ib_cm gives up and rdma_cm reports the connection as "
                    "unreachable$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "-> the CM %1 from %2 was lost 16 times (the link loses what "
                                   "it sends): ib_cm gives up and rdma_cm reports the connection "
                                   "as unreachable")});
    s.push_back({re("^-> modify_qp uses the peer's values, but no exchange has delivered them "
                    "yet$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "-> modify_qp uses the peer's values, but no exchange has "
                                   "delivered them yet")});
    s.push_back({re("^CM REQ \\(rdma_connect\\) from (\\S+)'s GSI: service ID (0x[0-9a-f]+) "
                    "\\(RDMA_PS_TCP, port (\\d+)\\), QPN (0x[0-9a-f]+), starting PSN "
                    "(0x[0-9a-f]+), responder resources (\\d+), initiator depth (\\d+), retry "
                    "(\\d+), RNR retry (\\d+), path MTU (\\d+), private data: rdma_cm's IP "
                    "header \\(source port (\\d+)\\) then (\\d+) bytes 'RSC1' \\(the published "
                    "regions\\)$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "CM REQ (rdma_connect) from %1's GSI: service ID %2 "
                                   "(RDMA_PS_TCP, port %3), QPN %4, starting PSN %5, responder "
                                   "resources %6, initiator depth %7, retry %8, RNR retry %9, "
                                   "path MTU %10, private data: rdma_cm's IP header (source port "
                                   "%11) then %12 bytes 'RSC1' (the published regions)")});
    s.push_back({re("^CM REP \\(rdma_accept\\) from (\\S+), whose QP is now RTR: QPN "
                    "(0x[0-9a-f]+), starting PSN (0x[0-9a-f]+), target ACK delay (\\d+), private "
                    "data: (\\d+) bytes 'RSC1' \\(the published regions\\)$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "CM REP (rdma_accept) from %1, whose QP is now RTR: QPN %2, "
                                   "starting PSN %3, target ACK delay %4, private data: %5 bytes "
                                   "'RSC1' (the published regions)")});
    s.push_back({re("^CM RTU \\(rdma_establish\\) from (\\S+), whose QP is now RTS: the "
                    "connection is ready to use$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "CM RTU (rdma_establish) from %1, whose QP is now RTS: the "
                                   "connection is ready to use")});
    s.push_back({re("^CM DREQ \\(rdma_disconnect\\) from (\\S+) for remote QPN (0x[0-9a-f]+); the "
                    "QPs keep their state: rdma_cm moves a QP to ERR only when it created it "
                    "\\(rdma_create_qp\\), and the scenario's QPs are its own$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "CM DREQ (rdma_disconnect) from %1 for remote QPN %2; the QPs "
                                   "keep their state: rdma_cm moves a QP to ERR only when it "
                                   "created it (rdma_create_qp), and the scenario's QPs are its "
                                   "own")});
    s.push_back({re("^CM DREP from (\\S+): disconnect acknowledged$"),
                 QT_TRANSLATE_NOOP("CmNarration", "CM DREP from %1: disconnect acknowledged")});
    s.push_back({re("^no answer within the CM response timeout \\(4\\.096 us x 2\\^20 = 4\\.3 "
                    "s\\): ib_cm sends the MAD again$"),
                 QT_TRANSLATE_NOOP("CmNarration",
                                   "no answer within the CM response timeout (4.096 us x 2^20 = "
                                   "4.3 s): ib_cm sends the MAD again")});
    return s;
  }();
  return list;
}

// What sim_cm.cpp appends to a CM message's reason (kRealDelays).
constexpr const char* kRealDelays =
    "; in the lab (two TCG guests) REQ->REP took ~60 ms and REP->RTU ~10 ms, almost all of it "
    "outside the wire: the kernel's ib_cm work queue, librdmacm's event channel "
    "(rdma_get_cm_event waking the application), the application's modify_qp and "
    "rdma_accept/rdma_establish calls; the simulator sends each message at once";

QString translateShape(const QString& text) {
  for (const Shape& s : shapes()) {
    const auto m = s.pattern.match(text);
    if (!m.hasMatch()) continue;
    QString out = cm(s.text);
    for (int i = 1; i <= m.lastCapturedIndex(); ++i)
      out = out.arg(m.captured(i));
    return out;
  }
  return {};
}

}  // namespace

QString cmNarration(const QString& english) {
  QString text = english;
  QString suffix;
  // The suffixes sim_cm.cpp and scenario.cpp add to a sentence, translated on their own.
  static const QRegularExpression resent(QStringLiteral(" \\(resent: attempt (\\d+)\\)$"));
  if (const auto m = resent.match(text); m.hasMatch()) {
    suffix = cm(QT_TRANSLATE_NOOP("CmNarration", " (resent: attempt %1)")).arg(m.captured(1));
    text.chop(m.capturedLength(0));
  }
  if (text.endsWith(QLatin1String(kRealDelays))) {
    text.chop(static_cast<qsizetype>(qstrlen(kRealDelays)));
    suffix =
        cm(QT_TRANSLATE_NOOP(
            "CmNarration",
            "; in the lab (two TCG guests) REQ->REP took ~60 ms and REP->RTU ~10 ms, almost "
            "all of it outside the wire: the kernel's ib_cm work queue, librdmacm's event "
            "channel (rdma_get_cm_event waking the application), the application's modify_qp "
            "and rdma_accept/rdma_establish calls; the simulator sends each message at once")) +
        suffix;
  }
  static const QRegularExpression afterRtu(
      QStringLiteral(" \\(rdma_cm: after the RTU arrives\\)$"));
  if (const auto m = afterRtu.match(text); m.hasMatch()) {
    suffix = cm(QT_TRANSLATE_NOOP("CmNarration", " (rdma_cm: after the RTU arrives)")) + suffix;
    text.chop(m.capturedLength(0));
  }
  // "host-a: publishes ...", "GSI (QP 1) got frame 8: REQ received: ..."
  static const QRegularExpression prefix(QStringLiteral("^([\\w.-]+: )(.*)$"));
  static const QRegularExpression gsi(QStringLiteral("^GSI \\(QP 1\\) got frame (\\d+): (.*)$"));
  QString body;
  if (const auto m = gsi.match(text); m.hasMatch()) {
    const QString arrival = translateShape(m.captured(2));
    if (!arrival.isEmpty())
      body = cm(QT_TRANSLATE_NOOP("CmNarration", "GSI (QP 1) got frame %1: %2"))
                 .arg(m.captured(1), arrival);
  } else if (QString t = translateShape(text); !t.isEmpty()) {
    body = t;
  } else if (const auto p = prefix.match(text); p.hasMatch()) {
    if (QString t2 = translateShape(p.captured(2)); !t2.isEmpty()) body = p.captured(1) + t2;
  }
  if (body.isEmpty()) {
    if (suffix.isEmpty()) return {};
    body = text;  // a sentence of its own (a verbs call) with a translated suffix
  }
  return body + suffix;
}

}  // namespace rdmascope::ui
