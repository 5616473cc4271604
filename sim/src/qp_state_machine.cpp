#include <string>

#include "qp.h"

namespace rdmascope::sim {
namespace {

namespace am = attr_mask;

struct Entry {
  bool valid = false;
  unsigned req[3] = {0, 0, 0};  ///< indexed RC, UC, UD
  unsigned opt[3] = {0, 0, 0};
};

int typeIndex(QpType t) {
  return t == QpType::RC ? 0 : t == QpType::UC ? 1 : 2;
}

// The kernel's qp_state_table (drivers/infiniband/core/verbs.c) for RC, UC and UD.
struct Table {
  Entry e[7][7];
  constexpr Table() {
    using S = QpState;
    auto at = [this](S a, S b) -> Entry& { return e[static_cast<int>(a)][static_cast<int>(b)]; };
    at(S::Reset, S::Reset).valid = true;
    {
      Entry& x = at(S::Reset, S::Init);
      x.valid = true;
      x.req[2] = am::kPkeyIndex | am::kPort | am::kQkey;
      x.req[1] = am::kPkeyIndex | am::kPort | am::kAccessFlags;
      x.req[0] = am::kPkeyIndex | am::kPort | am::kAccessFlags;
    }
    for (S s : {S::Init, S::Rtr, S::Rts, S::Sqd, S::Sqe, S::Err}) {
      at(s, S::Reset).valid = true;
      at(s, S::Err).valid = true;
    }
    {
      Entry& x = at(S::Init, S::Init);
      x.valid = true;
      x.opt[2] = am::kPkeyIndex | am::kPort | am::kQkey;
      x.opt[1] = am::kPkeyIndex | am::kPort | am::kAccessFlags;
      x.opt[0] = am::kPkeyIndex | am::kPort | am::kAccessFlags;
    }
    {
      Entry& x = at(S::Init, S::Rtr);
      x.valid = true;
      x.req[1] = am::kAv | am::kPathMtu | am::kDestQpn | am::kRqPsn;
      x.req[0] = am::kAv | am::kPathMtu | am::kDestQpn | am::kRqPsn | am::kMaxDestRdAtomic |
                 am::kMinRnrTimer;
      x.opt[2] = am::kPkeyIndex | am::kQkey;
      x.opt[1] = am::kAltPath | am::kAccessFlags | am::kPkeyIndex;
      x.opt[0] = am::kAltPath | am::kAccessFlags | am::kPkeyIndex;
    }
    {
      Entry& x = at(S::Rtr, S::Rts);
      x.valid = true;
      x.req[2] = am::kSqPsn;
      x.req[1] = am::kSqPsn;
      x.req[0] = am::kTimeout | am::kRetryCnt | am::kRnrRetry | am::kSqPsn | am::kMaxQpRdAtomic;
      x.opt[2] = am::kCurState | am::kQkey;
      x.opt[1] = am::kCurState | am::kAltPath | am::kAccessFlags | am::kPathMigState;
      x.opt[0] =
          am::kCurState | am::kAltPath | am::kAccessFlags | am::kMinRnrTimer | am::kPathMigState;
    }
    {
      Entry& x = at(S::Rts, S::Rts);
      x.valid = true;
      x.opt[2] = am::kCurState | am::kQkey;
      x.opt[1] = am::kCurState | am::kAccessFlags | am::kAltPath | am::kPathMigState;
      x.opt[0] =
          am::kCurState | am::kAccessFlags | am::kAltPath | am::kPathMigState | am::kMinRnrTimer;
    }
    {
      Entry& x = at(S::Rts, S::Sqd);
      x.valid = true;
      x.opt[0] = x.opt[1] = x.opt[2] = am::kEnSqdAsyncNotify;
    }
    {
      Entry& x = at(S::Sqd, S::Rts);
      x.valid = true;
      x.opt[2] = am::kCurState | am::kQkey;
      x.opt[1] = am::kCurState | am::kAltPath | am::kAccessFlags | am::kPathMigState;
      x.opt[0] =
          am::kCurState | am::kAltPath | am::kAccessFlags | am::kMinRnrTimer | am::kPathMigState;
    }
    {
      Entry& x = at(S::Sqd, S::Sqd);
      x.valid = true;
      x.opt[2] = am::kPkeyIndex | am::kQkey;
      x.opt[1] = am::kAv | am::kAltPath | am::kAccessFlags | am::kPkeyIndex | am::kPathMigState;
      x.opt[0] = am::kPort | am::kAv | am::kTimeout | am::kRetryCnt | am::kRnrRetry |
                 am::kMaxQpRdAtomic | am::kMaxDestRdAtomic | am::kAltPath | am::kAccessFlags |
                 am::kPkeyIndex | am::kMinRnrTimer | am::kPathMigState;
    }
    {
      Entry& x = at(S::Sqe, S::Rts);
      x.valid = true;
      x.opt[2] = am::kCurState | am::kQkey;
      x.opt[1] = am::kCurState | am::kAccessFlags;
    }
  }
};

constexpr Table kTable;

}  // namespace

TransitionRule transitionRule(QpState from, QpState to, QpType type) {
  const auto f = static_cast<int>(from), t = static_cast<int>(to);
  if (f < 0 || f > 6 || t < 0 || t > 6) return {};
  const Entry& x = kTable.e[f][t];
  return {x.valid, x.req[typeIndex(type)], x.opt[typeIndex(type)]};
}

std::string checkTransition(QpState from, QpState to, QpType type, unsigned mask) {
  const std::string name = std::string(toString(from)) + "->" + std::string(toString(to)) +
                           " for " + std::string(toString(type));
  if ((mask & am::kCurState) && from != QpState::Rtr && from != QpState::Rts &&
      from != QpState::Sqd && from != QpState::Sqe) {
    return "IBV_QP_CUR_STATE is allowed only from RTR, RTS, SQD or SQE (QP is " +
           std::string(toString(from)) + ")";
  }
  const TransitionRule r = transitionRule(from, to, type);
  if (!r.valid) return name + " is not a legal QP state transition";
  std::string msg;
  if (const unsigned missing = r.required & ~mask) {
    msg = "attr_mask is missing " + attrMaskNames(missing) + " (" + name + " requires " +
          attrMaskNames(r.required) + ")";
  }
  if (const unsigned extra = mask & ~(r.required | r.optional | am::kState)) {
    if (!msg.empty()) msg += "; ";
    msg += "attr_mask has " + attrMaskNames(extra) + ", which " + name +
           " does not accept (allowed: IBV_QP_STATE" +
           (r.required | r.optional ? ", " + attrMaskNames(r.required | r.optional) : "") + ")";
  }
  return msg;
}

}  // namespace rdmascope::sim
