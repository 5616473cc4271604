#include <iostream>

#include "rdmascope/cli/cli.h"

int main(int argc, char** argv) {
  return rdmascope::cli::run(argc, argv, std::cout, std::cerr);
}
