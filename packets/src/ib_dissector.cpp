// Placeholder until the InfiniBand dissector lands (this session): payload shown as data.
#include "dissectors.h"

namespace rdmascope::packets::detail {
void dissectRoceV2(DecodeContext& ctx, std::size_t off, std::size_t end, std::int32_t parent) {
  dissectData(ctx, off, end, parent);
}
void dissectRoceV1(DecodeContext& ctx, std::size_t off, std::size_t end, std::int32_t parent) {
  dissectData(ctx, off, end, parent);
}
void dissectNativeIb(DecodeContext& ctx, std::size_t off, std::size_t end, std::int32_t parent) {
  dissectData(ctx, off, end, parent);
}
void dissectErf(DecodeContext& ctx, std::size_t off) {
  dissectData(ctx, off, ctx.b.frame().size(), -1);
}
}  // namespace rdmascope::packets::detail
