#include "context.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <map>
#include <mutex>
#include <new>

namespace rdmascope::ibverbs {

namespace {

std::once_flag nicOnce;
Nic* theNic = nullptr;

// The objects events name, by their numbers on the simulated host; read and changed under the
// session.
std::map<std::uint32_t, Cq*>& cqRegistry() {
  static std::map<std::uint32_t, Cq*> registry;
  return registry;
}
std::map<std::uint32_t, Qp*>& qpRegistry() {
  static std::map<std::uint32_t, Qp*> registry;
  return registry;
}
std::map<std::uint32_t, Srq*>& srqRegistry() {
  static std::map<std::uint32_t, Srq*> registry;
  return registry;
}

template <class T>
T* lookup(std::map<std::uint32_t, T*>& registry, std::uint32_t id) {
  auto it = registry.find(id);
  return it == registry.end() ? nullptr : it->second;
}

// An asynchronous event goes to the async_fd of the context that owns the object it names.
void onAsyncEvent(const sim::AsyncEvent& e) {
  ibv_async_event event{};
  event.event_type = static_cast<ibv_event_type>(e.type);
  ibv_context* context = nullptr;
  switch (e.type) {
    case sim::AsyncEventType::CqErr:
      if (Cq* cq = lookup(cqRegistry(), e.cq)) {
        event.element.cq = &cq->cq;
        context = cq->cq.context;
      }
      break;
    case sim::AsyncEventType::SrqErr:
    case sim::AsyncEventType::SrqLimitReached:
      if (Srq* srq = lookup(srqRegistry(), e.srq)) {
        event.element.srq = &srq->srq;
        context = srq->srq.context;
      }
      break;
    case sim::AsyncEventType::PortActive:
    case sim::AsyncEventType::PortErr:
      event.element.port_num = 1;
      break;
    default:
      if (Qp* qp = lookup(qpRegistry(), e.qpn)) {
        event.element.qp = &qp->qpx.qp_base;
        context = qp->qpx.qp_base.context;
      }
      break;
  }
  if (!context) return;  // the object is gone (destroyed): nobody can be told
  [[maybe_unused]] const ssize_t n =
      ::write(toContext(context)->asyncWriteFd, &event, sizeof(event));
}

void onCompletion(std::uint32_t id) {
  auto& registry = cqRegistry();
  auto it = registry.find(id);
  if (it == registry.end()) return;
  Cq* cq = it->second;
  if (!cq->armed || !cq->cq.channel) return;
  cq->armed = false;
  auto* channel = reinterpret_cast<CompChannel*>(cq->cq.channel);
  // The event is the CQ's address; a pipe keeps the events of several CQs in order.
  ibv_cq* event = &cq->cq;
  [[maybe_unused]] const ssize_t n = ::write(channel->writeFd, &event, sizeof(event));
}

}  // namespace

Nic* nic() {
  std::call_once(nicOnce, [] {
    std::string error;
    theNic = Nic::get(error);
    if (!theNic) std::fprintf(stderr, "%s\n", error.c_str());
  });
  return theNic;
}

Nic& nicOf(ibv_context*) {
  return *theNic;
}

int fail(std::string_view verb, const sim::VerbsStatus& status) {
  return fail(verb, status.errnum, status.message);
}

int fail(const sim::VerbsStatus& status) {
  if (theNic) theNic->log(status.message);
  errno = status.errnum;
  return status.errnum;
}

int fail(std::string_view verb, int errnum, std::string_view why) {
  if (theNic) theNic->log(fmt::format("{}: {}", verb, why));
  errno = errnum;
  return errnum;
}

int unsupported(std::string_view verb, int errnum) {
  std::fprintf(stderr, "libibverbs (rdmascope): %.*s is not supported by the simulated device\n",
               static_cast<int>(verb.size()), verb.data());
  if (theNic) theNic->log(fmt::format("{}: not supported by the simulated device", verb));
  errno = errnum;
  return errnum;
}

Context* toContext(ibv_context* context) {
  auto* bytes = reinterpret_cast<std::uint8_t*>(context) - offsetof(verbs_context, context);
  return reinterpret_cast<Context*>(reinterpret_cast<verbs_context*>(bytes));
}

void registerCq(Cq* cq) {
  cqRegistry()[cq->id] = cq;
}

void unregisterCq(Cq* cq) {
  cqRegistry().erase(cq->id);
}

void registerQp(Qp* qp) {
  qpRegistry()[qp->qpx.qp_base.qp_num] = qp;
}

void unregisterQp(Qp* qp) {
  qpRegistry().erase(qp->qpx.qp_base.qp_num);
}

void registerSrq(Srq* srq) {
  srqRegistry()[srq->id] = srq;
}

void unregisterSrq(Srq* srq) {
  srqRegistry().erase(srq->id);
}

void installEventListeners(Nic& n) {
  static std::once_flag once;
  std::call_once(once, [&n] {
    n.setCompletionListener(onCompletion);
    Nic::Session s(n);
    s.host().setAsyncEventHook(onAsyncEvent);
  });
}

}  // namespace rdmascope::ibverbs
