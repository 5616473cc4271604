#pragma once
/// @file time_display_format.h
/// The packet list's Time column formats (Wireshark's View > Time Display Format) and the menu
/// that chooses one.

#include <QString>
#include <cstdint>

class QMenu;

namespace rdmascope::ui {

class PacketPane;

enum class TimeFormat {
  SinceCaptureStart,       ///< seconds since the first frame, 9 decimals (the default)
  SincePreviousDisplayed,  ///< seconds since the previous row shown (0 for the first)
  TimeOfDay,               ///< local time of day, hh:mm:ss.nnnnnnnnn
  UtcDateTime,             ///< UTC date and time, yyyy-MM-dd hh:mm:ss.nnnnnnnnn
};

/// Formats a frame's time. `timestampNs`, `firstNs` and `previousNs` are nanoseconds since 1970:
/// the frame's, the capture's first frame's and the previous displayed frame's.
QString formatFrameTime(std::int64_t timestampNs, std::int64_t firstNs, std::int64_t previousNs,
                        TimeFormat format);

/// A text as wide as the widest time of the format (to size the Time column).
QString widestFrameTime(TimeFormat format);

/// Adds View > Time Display Format (exclusive choices) for the pane's packet list; the Time
/// column follows the choice and is resized to it.
QMenu* addTimeDisplayFormatMenu(QMenu& view, PacketPane& pane);

}  // namespace rdmascope::ui
