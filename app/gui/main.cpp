// rdmascope: the Qt GUI. Opens on the built-in tour scenario, or on the capture given.
#include <QApplication>
#include <QCommandLineParser>

#include "rdmascope/ui/main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("rdmascope"));
  QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("See RDMA from the verbs call down to the bytes on the wire."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("capture"),
                               QStringLiteral("A pcap or pcapng file to open."), "[capture]");
  parser.process(app);

  rdmascope::ui::MainWindow window;
  window.show();
  if (!parser.positionalArguments().isEmpty()) window.openCapture(parser.positionalArguments()[0]);
  return QApplication::exec();
}
