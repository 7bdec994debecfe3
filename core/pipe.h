/* core/pipe.h — a single-producer single-consumer ring of fixed-size items
 * between two threads (one core orders events, the other consumes them).
 * The producer publishes every CS_PIPE_PUBLISH items with one release
 * store; a side with nothing to do spins briefly, then sleeps on a
 * condition variable that the other side signals only when it sees the
 * sleeper's flag (sleeps are also bounded by a short timeout, so a signal
 * that crosses the flag in flight costs a millisecond, never a hang).
 *
 * API
 *   bool cs_pipe_init(cs_pipe *p, size_t item_size, uint32_t cap, cs_err *err)
 *       cap: a power of two, a multiple of CS_PIPE_PUBLISH
 *   void cs_pipe_deinit(cs_pipe *p)
 * Producer:
 *   void *cs_pipe_slot(cs_pipe *p)     room for the next item, waiting for the
 *                                      consumer if full; NULL once it aborted
 *   void cs_pipe_commit(cs_pipe *p)    the slot is filled
 *   void cs_pipe_close(cs_pipe *p)     no more items (publishes the rest)
 * Consumer:
 *   uint32_t cs_pipe_peek(cs_pipe *p, void **items)
 *       number of items ready in a row at *items (waits for at least one);
 *       0 when the producer closed the pipe and everything was consumed
 *   void cs_pipe_release(cs_pipe *p, uint32_t n)   n items are consumed
 *   void cs_pipe_abort(cs_pipe *p)     stop: the producer's slots become NULL
 */
#ifndef CS_PIPE_H
#define CS_PIPE_H

#include <pthread.h>
#include <stdatomic.h>

#include "cs.h"

#define CS_PIPE_PUBLISH 128u

typedef struct cs_pipe {
    unsigned char *buf;
    size_t item;
    uint32_t cap;
    _Alignas(64) _Atomic uint32_t tail;     /* published by the producer */
    _Alignas(64) _Atomic uint32_t head;     /* released by the consumer */
    _Alignas(64) uint32_t ptail, room;      /* producer: next slot; slots usable before room */
    _Alignas(64) uint32_t chead, avail;     /* consumer: next item; items published before avail */
    _Alignas(64) _Atomic int closed, aborted, sleeping;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} cs_pipe;

bool cs_pipe_init(cs_pipe *p, size_t item_size, uint32_t cap, cs_err *err);
void cs_pipe_deinit(cs_pipe *p);
void *cs_pipe_slot_wait(cs_pipe *p);
void cs_pipe_publish(cs_pipe *p);
void cs_pipe_close(cs_pipe *p);
uint32_t cs_pipe_peek(cs_pipe *p, void **items);
void cs_pipe_release(cs_pipe *p, uint32_t n);
void cs_pipe_abort(cs_pipe *p);

static inline void *cs_pipe_slot(cs_pipe *p)
{
    if (p->ptail == p->room)
        return cs_pipe_slot_wait(p);
    return p->buf + (size_t)(p->ptail & (p->cap - 1)) * p->item;
}

static inline void cs_pipe_commit(cs_pipe *p)
{
    if (!(++p->ptail % CS_PIPE_PUBLISH))
        cs_pipe_publish(p);
}

#endif
