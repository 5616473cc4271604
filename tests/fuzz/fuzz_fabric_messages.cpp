// libFuzzer target: the datagrams of the fabric's protocol as their readers decode them: the
// message split, JSON bodies, the fabric's description (FabricInfo), and what an observer (the
// GUI) reads: the fabric's welcome (hosts, attached programs, paused) and its events and frames.
// Every input ends in a value or a refusal; a crash, an exception escaping or a sanitizer report
// is a finding. Seeded with real welcomes and events of each kind.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "rdmascope/simdev/fabric_observer.h"
#include "rdmascope/simdev/fabric_protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rdmascope::simdev;
  const std::span<const std::uint8_t> datagram(data, size);
  std::string error;
  if (const auto welcome = decodeObserverWelcome(datagram, error)) {
    // A welcome describes a fabric the observer can show: every attached host is one of its.
    for (const auto& a : welcome->attached)
      if (a.host < 1 || a.host > static_cast<int>(welcome->info.hosts.size())) __builtin_trap();
  } else if (error.empty() || error.find('\n') != std::string::npos) {
    __builtin_trap();
  }
  if (const auto event = decodeObserverEvent(datagram)) {
    if (event->kind == FabricEvent::Kind::Frame && event->bytes.size() + 11 != size)
      __builtin_trap();
  }
  const auto message = decodeMessage(datagram);
  if (!message) return 0;
  const auto body = jsonBody(*message, error);
  if (!body) return 0;
  if (const auto info = fabricInfoFromJson(*body, error)) {
    // What was accepted describes itself again the same way.
    const auto again = fabricInfoFromJson(toJson(*info), error);
    if (!again || again->self != info->self || again->hosts.size() != info->hosts.size() ||
        again->wire != info->wire || again->linkMtu != info->linkMtu ||
        again->deviceName != info->deviceName)
      __builtin_trap();
  }
  return 0;
}
