#include "rdmascope/ui/glossary.h"

#include <algorithm>

namespace rdmascope::ui {

std::vector<GlossaryEntry> Glossary::entries() {
  std::vector<GlossaryEntry> e = {
      {QStringLiteral("zero-copy"), QString(),
       tr("The data moves between the application's buffer and the wire without the CPU copying "
          "it anywhere in between. With TCP the kernel copies every byte into and out of socket "
          "buffers; an RDMA NIC reads and writes the application's registered memory directly "
          "by DMA.")},
      {QStringLiteral("kernel bypass"), QString(),
       tr("Posting work and reaping completions happen in user space: the application writes "
          "work requests into queues the NIC reads and rings a doorbell, with no system call "
          "on the data path. The kernel is only involved in setup (creating queues, "
          "registering memory).")},
      {QStringLiteral("CPU offload"), QString(),
       tr("The transport runs in the NIC: segmentation, sequence numbers, acknowledgements and "
          "retransmissions are the adapter's work, not the host CPU's, which stays free for the "
          "application.")},
      {QStringLiteral("two-sided"), QString(),
       tr("An operation that needs both applications: the sender posts a SEND and the receiver "
          "must have posted a receive work request whose buffer takes the message. Both sides "
          "get a completion.")},
      {QStringLiteral("one-sided"), QString(),
       tr("An operation that only the initiator's application takes part in: RDMA READ pulls "
          "data from, RDMA WRITE pushes data into, the peer's registered memory, named by an "
          "address and an rkey. The peer's CPU does nothing and (without immediate data) is "
          "not told.")},
      {QStringLiteral("QP"), tr("Queue Pair"),
       tr("The endpoint of RDMA communication: a send queue and a receive queue of work "
          "requests that the NIC processes. A connected QP (RC, UC) talks to exactly one peer "
          "QP; a UD QP can reach any.")},
      {QStringLiteral("QPN"), tr("Queue Pair Number"),
       tr("The 24-bit number that names a QP on its NIC. The BTH's destination QP field carries "
          "the receiver's QPN; peers learn each other's QPN during connection setup.")},
      {QStringLiteral("WQE"), tr("Work Queue Element"),
       tr("One work request as the NIC keeps it in a send or receive queue. A send WQE is "
          "pending until the requester starts it, processing while its packets go out, and "
          "done when it is acknowledged; it may go back to pending when the requester must "
          "resend or wait.")},
      {QStringLiteral("CQE"), tr("Completion Queue Entry"),
       tr("The record the NIC writes to a completion queue when a work request ends: wr_id, "
          "opcode, status and length. The application finds it by polling (ibv_poll_cq) or "
          "after a completion event.")},
      {QStringLiteral("PD"), tr("Protection Domain"),
       tr("A container that ties QPs and memory regions together: a QP may only use memory "
          "registered in its own PD.")},
      {QStringLiteral("MR"), tr("Memory Region"),
       tr("A buffer registered with the NIC (ibv_reg_mr): its pages are pinned and the NIC "
          "knows their addresses. Registration returns an lkey and an rkey and fixes the access "
          "rights (local write, remote read, remote write, remote atomic).")},
      {QStringLiteral("lkey"), tr("Local Key"),
       tr("The key a host's own work requests quote in their scatter/gather entries so that "
          "the NIC may read or write that memory region.")},
      {QStringLiteral("rkey"), tr("Remote Key"),
       tr("The key a peer must present (in a RETH or AtomicETH) to READ, WRITE or atomically "
          "change a memory region. The owner hands it over together with the buffer's address; "
          "a wrong or revoked rkey gets a remote access error.")},
      {QStringLiteral("PSN"), tr("Packet Sequence Number"),
       tr("A 24-bit number in the BTH that counts packets on a connection; it wraps from "
          "0xffffff to 0. The responder expects them in order and notices a loss as a gap; "
          "acknowledgements name the PSN they cover.")},
      {QStringLiteral("MSN"), tr("Message Sequence Number"),
       tr("The responder's count of completed messages, sent back in every AETH so that the "
          "requester can match acknowledgements to messages.")},
      {QStringLiteral("BTH"), tr("Base Transport Header"),
       tr("The 12-byte header every InfiniBand, RoCE v1 and RoCE v2 packet carries: opcode, "
          "P_Key, destination QP, AckReq bit and PSN.")},
      {QStringLiteral("GRH"), tr("Global Route Header"),
       tr("A 40-byte header shaped like IPv6 with the source and destination GIDs. InfiniBand "
          "uses it to cross subnets; RoCE v1 always carries it; RoCE v2 replaces it with a "
          "real IP header.")},
      {QStringLiteral("GID"), tr("Global Identifier"),
       tr("A 128-bit address of a port, formatted like an IPv6 address. In RoCE v2 it holds the "
          "port's IP address.")},
      {QStringLiteral("LID"), tr("Local Identifier"),
       tr("The 16-bit address of a port inside one InfiniBand subnet, assigned by the subnet "
          "manager.")},
      {QStringLiteral("RETH"), tr("RDMA Extended Transport Header"),
       tr("The header of an RDMA READ request or the first packet of an RDMA WRITE: the remote "
          "virtual address, the rkey and the total length.")},
      {QStringLiteral("AETH"), tr("ACK Extended Transport Header"),
       tr("The header of an acknowledgement: a syndrome saying ACK, RNR NAK or NAK (with a "
          "code) and the MSN.")},
      {QStringLiteral("DETH"), tr("Datagram Extended Transport Header"),
       tr("The header of a UD packet: the Q_Key and the source QP number, since there is no "
          "connection to tell them.")},
      {QStringLiteral("IETH"), tr("Invalidate Extended Transport Header"),
       tr("Carries the rkey that a SEND WITH INVALIDATE revokes at the receiver.")},
      {QStringLiteral("ImmDt"), tr("Immediate Data"),
       tr("Four bytes a SEND or RDMA WRITE may carry beside its data. They appear in the "
          "receiver's completion, so a WRITE with immediate consumes a receive WQE and wakes "
          "the receiver.")},
      {QStringLiteral("AtomicETH"), tr("Atomic Extended Transport Header"),
       tr("The header of a COMPARE_SWAP or FETCH_ADD request: the remote address, rkey and the "
          "operands. The responder answers with an AtomicAckETH holding the original value.")},
      {QStringLiteral("ICRC"), tr("Invariant CRC"),
       tr("A 32-bit CRC over the fields that do not change on the way; the receiver drops a "
          "packet whose ICRC does not match.")},
      {QStringLiteral("P_Key"), tr("Partition Key"),
       tr("A 16-bit key in the BTH; QPs communicate only if their partition keys match, which "
          "splits a fabric into isolated partitions.")},
      {QStringLiteral("Q_Key"), tr("Queue Key"),
       tr("A 32-bit key a UD datagram carries in its DETH; the receiving QP accepts it only if "
          "it matches the QP's own Q_Key.")},
      {QStringLiteral("ACK"), tr("Acknowledgement"),
       tr("The responder's confirmation of the packets up to a PSN. ACKs are cumulative: one "
          "may cover several packets or messages.")},
      {QStringLiteral("NAK"), tr("Negative Acknowledgement"),
       tr("An AETH that reports a problem: PSN sequence error (a packet is missing), invalid "
          "request, remote access error or remote operational error. Only the sequence error is "
          "retried; the others fail the work request.")},
      {QStringLiteral("RNR"), tr("Receiver Not Ready"),
       tr("The NAK a responder sends when a SEND arrives and no receive WQE is posted. It asks "
          "the requester to wait a given time (min_rnr_timer) and resend; rnr_retry limits how "
          "often (7 means forever).")},
      {QStringLiteral("go-back-N"), QString(),
       tr("RC's recovery: after a NAK or a timeout the requester resends every packet from the "
          "first unacknowledged PSN on, not just the missing one.")},
      {QStringLiteral("RC"), tr("Reliable Connected"),
       tr("A transport with one peer, acknowledgements, in-order delivery and retransmission. "
          "It supports SEND, RDMA WRITE, RDMA READ and atomics.")},
      {QStringLiteral("UC"), tr("Unreliable Connected"),
       tr("A connected transport without acknowledgements: a lost packet loses its message. "
          "SEND and RDMA WRITE only.")},
      {QStringLiteral("UD"), tr("Unreliable Datagram"),
       tr("Connectionless single-packet messages to any QP that knows the Q_Key; no "
          "acknowledgements, SEND only.")},
      {QStringLiteral("CNP"), tr("Congestion Notification Packet"),
       tr("RoCE v2's signal from a receiver that saw ECN-marked packets back to the sender, "
          "which then lowers its rate (DCQCN).")},
      {QStringLiteral("RoCE"), tr("RDMA over Converged Ethernet"),
       tr("InfiniBand's transport on Ethernet: v1 puts the GRH and BTH right after the "
          "Ethernet header, v2 wraps them in IP and UDP (port 4791) so they can be routed.")},
      {QStringLiteral("iWARP"), tr("Internet Wide Area RDMA Protocol"),
       tr("RDMA on top of TCP: RDMAP operations, placed by DDP, framed by MPA, carried by an "
          "ordinary TCP connection that the NIC runs.")},
      {QStringLiteral("MPA"), tr("Marker PDU Aligned framing"),
       tr("iWARP's framing layer: it turns TCP's byte stream into records (FPDUs) with a "
          "length and a CRC32c, after a request/reply handshake at connection start.")},
      {QStringLiteral("DDP"), tr("Direct Data Placement"),
       tr("iWARP's layer that says where each segment's payload goes: into a tagged buffer "
          "(STag and offset, for RDMA WRITE and READ) or into a posted receive buffer "
          "(untagged, for SEND).")},
      {QStringLiteral("RDMAP"), tr("RDMA Protocol"),
       tr("iWARP's top layer: the operations themselves (SEND, RDMA WRITE, READ request and "
          "response, terminate).")},
      {QStringLiteral("rdma_cm"), tr("RDMA Connection Manager"),
       tr("The library and protocol that connect QPs by IP address: bind, listen, connect and "
          "accept, exchanging QPNs and PSNs in REQ/REP/RTU messages instead of a hand-made "
          "TCP exchange.")},
  };
  std::sort(e.begin(), e.end(), [](const GlossaryEntry& a, const GlossaryEntry& b) {
    return a.key.compare(b.key, Qt::CaseInsensitive) < 0;
  });
  return e;
}

GlossaryEntry Glossary::find(const QString& key) {
  for (GlossaryEntry& e : entries())
    if (e.key.compare(key, Qt::CaseInsensitive) == 0) return e;
  return {};
}

QString Glossary::keyForField(const QString& filterKey) {
  // The last dotted parts name the header and the field: "infiniband.bth.psn".
  const QStringList parts = filterKey.toLower().split(QLatin1Char('.'));
  static const std::pair<const char*, const char*> fields[] = {
      {"psn", "PSN"},       {"msn", "MSN"},     {"rkey", "rkey"},  {"r_key", "rkey"},
      {"lkey", "lkey"},     {"destqp", "QPN"},  {"srcqp", "QPN"},  {"qkey", "Q_Key"},
      {"q_key", "Q_Key"},   {"p_key", "P_Key"}, {"pkey", "P_Key"}, {"icrc", "ICRC"},
      {"syndrome", "AETH"}, {"immdt", "ImmDt"}, {"dgid", "GID"},   {"sgid", "GID"},
      {"dlid", "LID"},      {"slid", "LID"},    {"ackreq", "ACK"}, {"cnp", "CNP"},
  };
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    for (const auto& [field, key] : fields)
      if (*it == QLatin1String(field)) return QString::fromLatin1(key);
  static const std::pair<const char*, const char*> headers[] = {
      {"bth", "BTH"},          {"grh", "GRH"},     {"reth", "RETH"},           {"aeth", "AETH"},
      {"deth", "DETH"},        {"ieth", "IETH"},   {"atomiceth", "AtomicETH"}, {"mpa", "MPA"},
      {"ddp", "DDP"},          {"rdmap", "RDMAP"}, {"iwarp_ddp", "DDP"},       {"iwarp_mpa", "MPA"},
      {"iwarp_rdma", "RDMAP"},
  };
  for (const QString& p : parts)
    for (const auto& [h, key] : headers)
      if (p == QLatin1String(h)) return QString::fromLatin1(key);
  return {};
}

QString Glossary::keyForAnomaly(analysis::AnomalyKind kind) {
  using A = analysis::AnomalyKind;
  switch (kind) {
    case A::PsnGap:
    case A::GapFilled:
    case A::Reordered:
      return QStringLiteral("PSN");
    case A::Retransmission:
    case A::Timeout:
      return QStringLiteral("go-back-N");
    case A::Nak:
      return QStringLiteral("NAK");
    case A::RnrNak:
      return QStringLiteral("RNR");
    case A::Cnp:
    case A::EcnCe:
    case A::Fecn:
    case A::Becn:
      return QStringLiteral("CNP");
    case A::IcrcFailure:
      return QStringLiteral("ICRC");
    case A::CrcFailure:
    case A::MpaReject:
      return QStringLiteral("MPA");
    case A::Terminate:
      return QStringLiteral("RDMAP");
    case A::CmReject:
      return QStringLiteral("rdma_cm");
    default:
      return {};
  }
}

QString Glossary::tooltip(const QString& key) {
  const GlossaryEntry e = find(key);
  if (e.key.isEmpty()) return {};
  return e.expansion.isEmpty() ? tr("%1: %2").arg(e.key, e.definition)
                               : tr("%1 (%2): %3").arg(e.key, e.expansion, e.definition);
}

}  // namespace rdmascope::ui
