#include "rdmascope/ui/scenario_narration.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace rdmascope::ui {

namespace {

// Every title, description and explanation the built-in scenarios carry (verbs_backend's
// builtin_scenarios.cpp), listed for lupdate; a test keeps the list complete.
constexpr const char* kCatalog[] = {
    QT_TRANSLATE_NOOP("ScenarioNarration", "Set up both hosts"),
    QT_TRANSLATE_NOOP(
        "ScenarioNarration",
        "RC RDMA WRITE of 16 KiB across the PSN wrap with PSN 0x000001 lost: the responder NAKs "
        "with PSN sequence error and the requester goes back to the lost PSN"),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "RC FETCH_AND_ADD then COMPARE_AND_SWAP on an 8-byte word, each answered by "
                      "an ATOMIC ACKNOWLEDGE carrying the original value"),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "host-b sends six RDMA WRITEs of 4 KiB and two SENDs of 3000 bytes to "
                      "host-a, one at a time (four packets each); run in the lab with --loss to "
                      "see NAKs and resends, then replay the same drops in the simulator"),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "RC RDMA READ of 2000 bytes: one READ REQUEST reserving two PSNs, answered "
                      "by READ RESPONSE FIRST and LAST"),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "RC SEND of 3000 bytes at MTU 1024: SEND FIRST, MIDDLE, LAST and one ACK"),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "RC RDMA WRITE WITH IMMEDIATE: the data lands by RDMA and the immediate "
                      "consumes a receive WQE"),
    QT_TRANSLATE_NOOP(
        "ScenarioNarration",
        "RC RDMA WRITE of 8192 bytes: WRITE FIRST (RETH), MIDDLEs, LAST; no receive WQE"),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "RC RDMA WRITE to an MR without IBV_ACCESS_REMOTE_WRITE: NAK remote access "
                      "error, REM_ACCESS_ERR, both QPs go to ERR and later WRs are flushed"),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "RC SEND into a link that loses everything host-a sends: the retransmit "
                      "timer (4.096 us x 2^8) fires three times, then RETRY_EXC_ERR"),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "RC SEND before the peer posted a receive: RNR NAK (min_rnr_timer 12 = 0.64 "
                      "ms), the requester waits and resends; rnr_retry 7 retries forever"),
    QT_TRANSLATE_NOOP("ScenarioNarration", "Tour: SEND, WRITE, READ, RNR NAK"),
    QT_TRANSLATE_NOOP(
        "ScenarioNarration",
        "A tour: connection setup with the out-of-band exchange, a multi-packet SEND, an RDMA "
        "WRITE, an RDMA READ and a SEND that meets a receiver not ready (RNR NAK)"),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "Each host opens its device, allocates a protection domain, registers 8 KiB "
                      "of memory (getting an lkey for itself and an rkey for its peer), creates a "
                      "completion queue and an RC queue pair, which starts in RESET."),
    QT_TRANSLATE_NOOP("ScenarioNarration", "Connect the queue pairs"),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "Each QP goes RESET -> INIT; the hosts exchange QP number, PSN, GID and "
                      "their buffer's address and rkey out of band (rc_pingpong does it over TCP); "
                      "then each QP goes to RTR (ready to receive: it knows its peer) and to RTS "
                      "(ready to send), each step with an explicit attribute mask."),
    QT_TRANSLATE_NOOP("ScenarioNarration", "A multi-packet SEND"),
    QT_TRANSLATE_NOOP(
        "ScenarioNarration",
        "Host B posts a receive; host A sends 3000 bytes. With a path MTU of 1024 the NIC cuts the "
        "message into SEND FIRST, MIDDLE and LAST, one PSN each. B's NIC places each payload in "
        "the receive buffer by DMA and acknowledges; each application polls its completion."),
    QT_TRANSLATE_NOOP("ScenarioNarration", "An RDMA WRITE"),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "Host A writes 1500 bytes straight into host B's memory, at the address and "
                      "rkey B gave it. B's CPU does nothing and B gets no completion: only A "
                      "learns, from the ACK, that the write is done."),
    QT_TRANSLATE_NOOP("ScenarioNarration", "An RDMA READ"),
    QT_TRANSLATE_NOOP(
        "ScenarioNarration",
        "Host A reads 2000 bytes from host B's memory. One READ REQUEST goes out; B's NIC answers "
        "with READ RESPONSE FIRST and LAST, which carry the data and acknowledge the request."),
    QT_TRANSLATE_NOOP("ScenarioNarration", "Receiver not ready (RNR NAK)"),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "Host A sends 200 bytes, but host B has no receive posted. B's NIC answers "
                      "with an RNR NAK carrying a timer (min_rnr_timer 1: 0.01 ms); A waits that "
                      "long and retries the SEND, which succeeds once B has posted a receive."),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "UC RDMA WRITEs: no ACKs; the middle packet of the first message is lost, so "
                      "the responder drops the rest of that message and accepts the next FIRST"),
    QT_TRANSLATE_NOOP("ScenarioNarration",
                      "UD SEND ONLY with DETH (Q_Key, source QP); the receive buffer gets the "
                      "40-byte GRH before the payload"),
};

// The prose shapes of the one-line step descriptions verbs_backend writes for steps without a
// title (scenario_file.cpp describe()): the verbs calls themselves stay as written.
QString stepText(const QString& text) {
  static const QRegularExpression poll(
      QStringLiteral("^(.+): ibv_poll_cq\\((.+)\\) until (\\d+) completion\\(s\\)$"));
  static const QRegularExpression exchange(QStringLiteral(
      "^(.+): sends QPN, PSN, GID(, rkey and address)? of (.+) to (.+) out of band \\(TCP\\)$"));
  static const QRegularExpression wait(QStringLiteral("^let (\\d+) us pass$"));
  static const QRegularExpression compare(
      QStringLiteral("^compare (\\d+) bytes of (.+) and (.+)$"));
  if (const auto m = poll.match(text); m.hasMatch()) {
    return QCoreApplication::translate("ScenarioNarration",
                                       "%1: ibv_poll_cq(%2) until %3 completion(s)")
        .arg(m.captured(1), m.captured(2), m.captured(3));
  }
  if (const auto m = exchange.match(text); m.hasMatch()) {
    return (m.captured(2).isEmpty()
                ? QCoreApplication::translate(
                      "ScenarioNarration",
                      "%1: sends the QPN, PSN and GID of %2 to %3 out of band (TCP)")
                : QCoreApplication::translate("ScenarioNarration",
                                              "%1: sends the QPN, PSN, GID, rkey and address of %2 "
                                              "to %3 out of band (TCP)"))
        .arg(m.captured(1), m.captured(3), m.captured(4));
  }
  if (const auto m = wait.match(text); m.hasMatch())
    return QCoreApplication::translate("ScenarioNarration", "let %1 µs pass").arg(m.captured(1));
  if (const auto m = compare.match(text); m.hasMatch()) {
    return QCoreApplication::translate("ScenarioNarration", "compare %1 bytes of %2 and %3")
        .arg(m.captured(1), m.captured(2), m.captured(3));
  }
  return text;
}

}  // namespace

QString narration(const std::string& english) {
  if (english.empty()) return {};
  const QString translated = QCoreApplication::translate("ScenarioNarration", english.c_str());
  const QString source = QString::fromStdString(english);
  if (translated != source) return translated;
  if (QString cm = cmNarration(source); !cm.isNull()) return cm;
  return stepText(source);
}

std::span<const char* const> builtInNarrationCatalog() {
  return kCatalog;
}

}  // namespace rdmascope::ui
