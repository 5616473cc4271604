/* options.h: the command line the RC examples share, as ibv_rc_pingpong's:
 *   PROGRAM [-d DEVICE] [-g GID_INDEX] [-p TCP_PORT]          the server (passive side)
 *   PROGRAM [-d DEVICE] [-g GID_INDEX] [-p TCP_PORT] SERVER   the client */
#ifndef RDMASCOPE_EXAMPLES_OPTIONS_H
#define RDMASCOPE_EXAMPLES_OPTIONS_H

struct options {
  const char* device; /* NULL: the first device */
  int gid_index;      /* 1 on Soft-RoCE and on rdmascope's fabric: the IPv4-mapped GID */
  int port;
  const char* server; /* NULL: we are the server */
};

/* Parses argv; prints the usage and returns -1 on a bad argument. */
int parse_options(int argc, char** argv, struct options* o);

#endif
