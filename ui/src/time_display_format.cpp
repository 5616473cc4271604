#include "rdmascope/ui/time_display_format.h"

#include <QActionGroup>
#include <QCoreApplication>
#include <QDateTime>
#include <QHeaderView>
#include <QMenu>
#include <QTableView>
#include <QTimeZone>

#include "rdmascope/ui/packet_pane.h"

namespace rdmascope::ui {

namespace {

QString seconds(std::int64_t ns) {
  const bool negative = ns < 0;
  const std::uint64_t a =
      negative ? static_cast<std::uint64_t>(-(ns + 1)) + 1u : static_cast<std::uint64_t>(ns);
  return QStringLiteral("%1%2.%3")
      .arg(negative ? QStringLiteral("-") : QString())
      .arg(a / 1000000000u)
      .arg(a % 1000000000u, 9, 10, QLatin1Char('0'));
}

QString wallClock(std::int64_t ns, bool utc) {
  std::int64_t secs = ns / 1000000000;
  std::int64_t frac = ns % 1000000000;
  if (frac < 0) {
    frac += 1000000000;
    --secs;
  }
  const QDateTime t = utc ? QDateTime::fromSecsSinceEpoch(secs, QTimeZone::utc())
                          : QDateTime::fromSecsSinceEpoch(secs);
  const QString fraction = QStringLiteral(".%1").arg(frac, 9, 10, QLatin1Char('0'));
  return t.toString(utc ? QStringLiteral("yyyy-MM-dd HH:mm:ss") : QStringLiteral("HH:mm:ss")) +
         fraction;
}

}  // namespace

QString formatFrameTime(std::int64_t timestampNs, std::int64_t firstNs, std::int64_t previousNs,
                        TimeFormat format) {
  switch (format) {
    case TimeFormat::SinceCaptureStart:
      return seconds(timestampNs - firstNs);
    case TimeFormat::SincePreviousDisplayed:
      return seconds(timestampNs - previousNs);
    case TimeFormat::TimeOfDay:
      return wallClock(timestampNs, false);
    case TimeFormat::UtcDateTime:
      return wallClock(timestampNs, true);
  }
  return {};
}

QString widestFrameTime(TimeFormat format) {
  switch (format) {
    case TimeFormat::TimeOfDay:
      return QStringLiteral("00:00:00.000000000");
    case TimeFormat::UtcDateTime:
      return QStringLiteral("0000-00-00 00:00:00.000000000");
    default:
      return QStringLiteral("0000.000000000");
  }
}

QMenu* addTimeDisplayFormatMenu(QMenu& view, PacketPane& pane) {
  QMenu* menu =
      view.addMenu(QCoreApplication::translate("TimeDisplayFormat", "&Time Display Format"));
  menu->setObjectName(QStringLiteral("timeDisplayFormatMenu"));
  auto* group = new QActionGroup(menu);
  const struct {
    QString text;
    TimeFormat format;
    const char* name;
  } choices[] = {
      {QCoreApplication::translate("TimeDisplayFormat", "Seconds Since &Beginning of Capture"),
       TimeFormat::SinceCaptureStart, "timeSinceStart"},
      {QCoreApplication::translate("TimeDisplayFormat", "Seconds Since &Previous Displayed Packet"),
       TimeFormat::SincePreviousDisplayed, "timeSincePrevious"},
      {QCoreApplication::translate("TimeDisplayFormat", "&Time of Day"), TimeFormat::TimeOfDay,
       "timeOfDay"},
      {QCoreApplication::translate("TimeDisplayFormat", "&UTC Date and Time of Day"),
       TimeFormat::UtcDateTime, "timeUtc"},
  };
  for (const auto& c : choices) {
    QAction* a = menu->addAction(c.text);
    a->setObjectName(QLatin1String(c.name));
    a->setCheckable(true);
    a->setChecked(pane.packetModel()->timeFormat() == c.format);
    group->addAction(a);
    QObject::connect(a, &QAction::triggered, &pane, [&pane, format = c.format] {
      pane.packetModel()->setTimeFormat(format);
      QTableView* list = pane.packetList();
      const int width = list->fontMetrics().horizontalAdvance(widestFrameTime(format)) + 16;
      list->setColumnWidth(PacketListModel::Time, width);
    });
  }
  return menu;
}

}  // namespace rdmascope::ui
