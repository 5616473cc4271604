/* exchange.c: see exchange.h. Plain sockets; nothing RDMA happens here. */
#include "exchange.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int full_io(int sock, void* buf, size_t len, int sending) {
  char* p = buf;
  while (len > 0) {
    ssize_t n = sending ? send(sock, p, len, 0) : recv(sock, p, len, 0);
    if (n <= 0) return -1;
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

static int serve(int port) {
  int one = 1, listener = socket(AF_INET6, SOCK_STREAM, 0), sock;
  struct sockaddr_in6 addr = {.sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port)};
  addr.sin6_addr = in6addr_any;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(listener, (struct sockaddr*)&addr, sizeof addr) || listen(listener, 1)) {
    perror("exchange: listen");
    close(listener);
    return -1;
  }
  sock = accept(listener, NULL, NULL);
  close(listener);
  return sock;
}

static int dial(const char* peer, int port) {
  char service[16];
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *r;
  int sock = -1;
  snprintf(service, sizeof service, "%d", port);
  if (getaddrinfo(peer, service, &hints, &res) != 0) {
    fprintf(stderr, "exchange: cannot resolve %s\n", peer);
    return -1;
  }
  for (r = res; r && sock < 0; r = r->ai_next) {
    sock = socket(r->ai_family, r->ai_socktype, r->ai_protocol);
    if (sock >= 0 && connect(sock, r->ai_addr, r->ai_addrlen) != 0) {
      close(sock);
      sock = -1;
    }
  }
  freeaddrinfo(res);
  if (sock < 0) fprintf(stderr, "exchange: cannot connect to %s:%d\n", peer, port);
  return sock;
}

int exchange(const char* peer, int port, const struct peer_info* mine, struct peer_info* theirs) {
  int sock = peer ? dial(peer, port) : serve(port);
  if (sock < 0) return -1;
  /* Both ends run on the same architecture here, so the struct goes as it is. */
  if (full_io(sock, (void*)mine, sizeof *mine, 1) || full_io(sock, theirs, sizeof *theirs, 0)) {
    fprintf(stderr, "exchange: the peer went away\n");
    close(sock);
    return -1;
  }
  return sock;
}

int exchange_sync(int sock) {
  char token = 'x';
  return full_io(sock, &token, 1, 1) || full_io(sock, &token, 1, 0) ? -1 : 0;
}
