// The parts of the rdma_cm connection that need no librdmacm: private data, reject reasons and
// the availability check.
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "rdmascope/verbs_backend/ibv_cm_connection.h"

namespace rdmascope::verbs_backend {
namespace {

constexpr std::uint8_t kMagic[4] = {'R', 'S', 'C', '1'};
constexpr std::size_t kHeader = sizeof kMagic + 1;
constexpr std::size_t kEntry = 8 + 4 + 8;

template <class T>
Result<T> fail(int e, std::string m) {
  Result<T> r;
  r.status = Status::error(e, std::move(m));
  return r;
}

void putBe(std::vector<std::uint8_t>& out, std::uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i)
    out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

std::uint64_t getBe(std::span<const std::uint8_t> in, std::size_t off, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v = (v << 8) | in[off + static_cast<std::size_t>(i)];
  return v;
}

}  // namespace

Result<std::vector<std::uint8_t>> encodeCmPrivateData(std::span<const PeerInfo> published,
                                                      std::size_t limit, const std::string& what) {
  using R = std::vector<std::uint8_t>;
  const std::size_t need = kHeader + kEntry * published.size();
  if (published.size() > 255 || need > limit) {
    const std::size_t fit = limit < kHeader ? 0 : (limit - kHeader) / kEntry;
    return fail<R>(EMSGSIZE, what + " needs " + std::to_string(need) +
                                 " bytes of CM private data for " +
                                 std::to_string(published.size()) + " published region(s), but " +
                                 std::to_string(limit) + " fit (" + std::to_string(fit) +
                                 " region(s)): use the TCP exchange (without --cm)");
  }
  R out(std::begin(kMagic), std::end(kMagic));
  out.push_back(static_cast<std::uint8_t>(published.size()));
  for (const PeerInfo& p : published) {
    putBe(out, p.addr, 8);
    putBe(out, p.rkey, 4);
    putBe(out, p.length, 8);
  }
  return {std::move(out), {}};
}

Result<std::vector<PeerInfo>> decodeCmPrivateData(std::span<const std::uint8_t> bytes) {
  using R = std::vector<PeerInfo>;
  if (bytes.size() < kHeader || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return fail<R>(EPROTO,
                   "the peer's CM private data is not rdmascope's (it does not start "
                   "with 'RSC1'): is the peer an rdmascope-cli verbs --cm?");
  const std::size_t count = bytes[sizeof kMagic];
  if (bytes.size() < kHeader + count * kEntry)
    return fail<R>(EPROTO, "the peer's CM private data announces " + std::to_string(count) +
                               " region(s) but holds " + std::to_string(bytes.size()) + " bytes");
  R out;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t off = kHeader + i * kEntry;
    PeerInfo p;
    p.addr = getBe(bytes, off, 8);
    p.rkey = static_cast<std::uint32_t>(getBe(bytes, off + 8, 4));
    p.length = getBe(bytes, off + 12, 8);
    out.push_back(p);
  }
  return {std::move(out), {}};
}

std::string cmRejectReasonName(int reason) {
  // IBTA vol. 1, 12.6.7.2, table "REJ reason codes" (the ones a Linux CM sends).
  switch (reason) {
    case 1:
      return "no QP available";
    case 2:
      return "no EEC available";
    case 3:
      return "no resources";
    case 4:
      return "timeout";
    case 5:
      return "unsupported request";
    case 6:
      return "invalid communication ID";
    case 7:
      return "invalid communication instance";
    case 8:
      return "invalid service ID (nothing listens on that port)";
    case 9:
      return "invalid transport type";
    case 10:
      return "stale connection";
    case 12:
      return "invalid GID";
    case 13:
      return "invalid LID";
    case 26:
      return "invalid MTU";
    case 27:
      return "insufficient responder resources";
    case 28:
      return "consumer reject (the peer application refused)";
    case 29:
      return "invalid RNR retry count";
    case 31:
      return "invalid class version";
    default:
      return "reason " + std::to_string(reason);
  }
}

Status cmAvailable() {
  constexpr const char* kDevice = "/dev/infiniband/rdma_cm";
  if (::access(kDevice, R_OK | W_OK) == 0) return Status::success();
  const int e = errno;
  if (e == ENOENT)
    return Status::error(ENODEV, std::string("rdma_cm is not available: ") + kDevice +
                                     " does not exist (load the rdma_ucm kernel module, or run "
                                     "the Soft-RoCE lab: rdmascope-cli lab)");
  return Status::error(
      e, std::string("rdma_cm is not available: ") + kDevice + ": " + std::strerror(e));
}

}  // namespace rdmascope::verbs_backend
