// Completion channels and asynchronous events. A channel's fd is the read end of a pipe: each
// completion event is the CQ's address, written by the NIC's completion listener when an armed
// CQ gets a completion, so poll/select/epoll and O_NONBLOCK work on it as on rxe's fd.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <new>

#include "context.h"

using namespace rdmascope::ibverbs;

RDMASCOPE_IBV_EXPORT ibv_comp_channel* ibv_create_comp_channel(ibv_context* context) {
  auto* ch = new (std::nothrow) CompChannel{};
  if (!ch) {
    errno = ENOMEM;
    return nullptr;
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    const int e = errno;
    delete ch;
    errno = e;
    return nullptr;
  }
  // The listener runs under the NIC's lock: it must never block on a full pipe.
  ::fcntl(fds[1], F_SETFL, ::fcntl(fds[1], F_GETFL) | O_NONBLOCK);
  ch->channel.context = context;
  ch->channel.fd = fds[0];
  ch->channel.refcnt = 0;
  ch->writeFd = fds[1];
  return &ch->channel;
}

RDMASCOPE_IBV_EXPORT int ibv_destroy_comp_channel(ibv_comp_channel* channel) {
  pthread_mutex_lock(&channel->context->mutex);
  const int refs = channel->refcnt;
  pthread_mutex_unlock(&channel->context->mutex);
  if (refs) {
    errno = EBUSY;
    return EBUSY;
  }
  auto* ch = reinterpret_cast<CompChannel*>(channel);
  ::close(ch->channel.fd);
  ::close(ch->writeFd);
  delete ch;
  return 0;
}

RDMASCOPE_IBV_EXPORT int ibv_get_cq_event(ibv_comp_channel* channel, ibv_cq** cq,
                                          void** cq_context) {
  ibv_cq* event = nullptr;
  const ssize_t n = ::read(channel->fd, &event, sizeof(event));
  if (n != static_cast<ssize_t>(sizeof(event))) {
    if (n >= 0) errno = EIO;
    return -1;
  }
  *cq = event;
  *cq_context = event->cq_context;
  return 0;
}

RDMASCOPE_IBV_EXPORT void ibv_ack_cq_events(ibv_cq* cq, unsigned int nevents) {
  pthread_mutex_lock(&cq->mutex);
  cq->comp_events_completed += nevents;
  pthread_cond_signal(&cq->cond);
  pthread_mutex_unlock(&cq->mutex);
}

// The simulated device raises no asynchronous events yet (no port changes, no QP fatal
// errors reported this way): the call blocks on async_fd as it does on an idle rxe device.
RDMASCOPE_IBV_EXPORT int ibv_get_async_event(ibv_context* context, ibv_async_event* event) {
  const ssize_t n = ::read(context->async_fd, event, sizeof(*event));
  if (n != static_cast<ssize_t>(sizeof(*event))) {
    if (n >= 0) errno = EIO;
    return -1;
  }
  return 0;
}

RDMASCOPE_IBV_EXPORT void ibv_ack_async_event(ibv_async_event* event) {
  switch (event->event_type) {
    case IBV_EVENT_CQ_ERR: {
      ibv_cq* cq = event->element.cq;
      pthread_mutex_lock(&cq->mutex);
      ++cq->async_events_completed;
      pthread_cond_signal(&cq->cond);
      pthread_mutex_unlock(&cq->mutex);
      break;
    }
    case IBV_EVENT_QP_FATAL:
    case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR:
    case IBV_EVENT_COMM_EST:
    case IBV_EVENT_SQ_DRAINED:
    case IBV_EVENT_PATH_MIG:
    case IBV_EVENT_PATH_MIG_ERR:
    case IBV_EVENT_QP_LAST_WQE_REACHED: {
      ibv_qp* qp = event->element.qp;
      pthread_mutex_lock(&qp->mutex);
      ++qp->events_completed;
      pthread_cond_signal(&qp->cond);
      pthread_mutex_unlock(&qp->mutex);
      break;
    }
    case IBV_EVENT_SRQ_ERR:
    case IBV_EVENT_SRQ_LIMIT_REACHED: {
      ibv_srq* srq = event->element.srq;
      pthread_mutex_lock(&srq->mutex);
      ++srq->events_completed;
      pthread_cond_signal(&srq->cond);
      pthread_mutex_unlock(&srq->mutex);
      break;
    }
    default:
      break;
  }
}
