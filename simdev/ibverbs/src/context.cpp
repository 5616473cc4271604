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

// CQs with completion events, by the simulated CQ's id; read and changed under the session.
std::map<std::uint32_t, Cq*>& cqRegistry() {
  static std::map<std::uint32_t, Cq*> registry;
  return registry;
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

void installCompletionListener(Nic& n) {
  static std::once_flag once;
  std::call_once(once, [&n] { n.setCompletionListener(onCompletion); });
}

}  // namespace rdmascope::ibverbs
