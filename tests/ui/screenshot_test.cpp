// Renders the main window during the tour (start, a multi-packet SEND, a READ response, an RNR
// NAK), writes PNGs to the build folder, and checks each is not blank and differs from the
// others.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QImage>
#include <set>

#include "rdmascope/sim/network.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/scenario_controller.h"
#include "scenario_support.h"

namespace rdmascope::ui {
namespace {

QImage shoot(MainWindow& w, const char* name) {
  QCoreApplication::processEvents();
  const QImage img = w.grab().toImage().convertToFormat(QImage::Format_RGB32);
  const QString path = QStringLiteral(RDMASCOPE_BINARY_DIR "/tests/ui/") + name;
  EXPECT_TRUE(img.save(path)) << path.toStdString();
  return img;
}

std::size_t distinctColours(const QImage& img) {
  std::set<QRgb> colours;
  for (int y = 0; y < img.height(); y += 3)
    for (int x = 0; x < img.width(); x += 3)
      colours.insert(img.pixel(x, y));
  return colours.size();
}

std::size_t differingPixels(const QImage& a, const QImage& b) {
  std::size_t n = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x)
      n += a.pixel(x, y) != b.pixel(x, y);
  return n;
}

TEST(Screenshots, TourAtFourMoments) {
  MainWindow w;
  w.resize(1600, 1000);
  w.show();
  ASSERT_TRUE(w.scenario()->loaded());
  std::vector<QImage> shots;
  shots.push_back(shoot(w, "shot_1_start.png"));

  const auto& rec = *w.scenario()->recording();
  const int middle = test::findFrameEvent(rec, w.frameStore(), 0x01);  // SEND MIDDLE
  ASSERT_GE(middle, 0);
  w.scenario()->goTo(middle);
  shots.push_back(shoot(w, "shot_2_send_middle.png"));

  const int readLast = test::findFrameEvent(rec, w.frameStore(), 0x0f);  // READ RESPONSE LAST
  ASSERT_GE(readLast, 0);
  w.scenario()->goTo(readLast);
  shots.push_back(shoot(w, "shot_3_read_response.png"));

  const int rnr = test::findRnrNakEvent(rec, w.frameStore());
  ASSERT_GE(rnr, 0);
  w.scenario()->goTo(rnr);
  shots.push_back(shoot(w, "shot_4_rnr_nak.png"));

  for (std::size_t i = 0; i < shots.size(); ++i) {
    EXPECT_EQ(shots[i].size(), QSize(1600, 1000));
    EXPECT_GT(distinctColours(shots[i]), 40u) << "shot " << i + 1 << " looks blank";
    for (std::size_t j = 0; j < i; ++j)
      EXPECT_GT(differingPixels(shots[i], shots[j]), 5000u)
          << "shots " << j + 1 << " and " << i + 1 << " are nearly the same";
  }
}

}  // namespace
}  // namespace rdmascope::ui
