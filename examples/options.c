#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int parse_options(int argc, char** argv, struct options* o) {
  int c;
  o->device = NULL;
  o->gid_index = 1;
  o->port = 18600;
  o->server = NULL;
  while ((c = getopt(argc, argv, "d:g:p:")) != -1) {
    switch (c) {
      case 'd':
        o->device = optarg;
        break;
      case 'g':
        o->gid_index = atoi(optarg);
        break;
      case 'p':
        o->port = atoi(optarg);
        break;
      default:
        goto usage;
    }
  }
  if (optind < argc) o->server = argv[optind++];
  if (optind == argc && o->port > 0 && o->port < 65536 && o->gid_index >= 0) return 0;
usage:
  fprintf(stderr, "usage: %s [-d DEVICE] [-g GID_INDEX] [-p TCP_PORT] [SERVER]\n", argv[0]);
  return -1;
}
