#pragma once
/// @file hex_view.h
/// A hex dump of one frame or memory region (offset, 16 bytes of hex, ASCII) that highlights a
/// byte range and reports the byte the user clicks.

#include <QAbstractScrollArea>
#include <QByteArray>
#include <cstdint>

namespace rdmascope::ui {

class HexView : public QAbstractScrollArea {
  Q_OBJECT
 public:
  explicit HexView(QWidget* parent = nullptr);

  /// Shows bytes; `baseAddress` is added to the offsets printed in the first column.
  void setBytes(const QByteArray& bytes, std::uint64_t baseAddress = 0);
  const QByteArray& bytes() const { return bytes_; }
  /// Highlights [offset, offset + length) (length 0 removes the highlight) and scrolls to it.
  void setHighlight(std::uint32_t offset, std::uint32_t length);
  /// A second, differently coloured range (e.g. bytes the NIC just wrote).
  void setSecondaryHighlight(std::uint32_t offset, std::uint32_t length);
  std::uint32_t highlightOffset() const { return hiOffset_; }
  std::uint32_t highlightLength() const { return hiLength_; }
  /// The byte at a point of the viewport, or -1.
  qint64 byteAt(const QPoint& viewportPos) const;
  /// The viewport point at the centre of a byte's hex digits.
  QPoint pointOfByte(std::uint32_t offset) const;

  QSize sizeHint() const override;

 Q_SIGNALS:
  /// The user clicked a byte.
  void byteClicked(std::uint32_t offset);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void updateScrollBar();
  int lineHeight() const;
  int charWidth() const;
  int hexColumn(int i) const;  // character column of byte i (0..15) of a line
  int asciiColumn(int i) const;

  QByteArray bytes_;
  std::uint64_t base_ = 0;
  std::uint32_t hiOffset_ = 0, hiLength_ = 0;
  std::uint32_t secOffset_ = 0, secLength_ = 0;
};

}  // namespace rdmascope::ui
