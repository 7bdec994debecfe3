/* core/pipe.c — the single-producer single-consumer ring of core/pipe.h.
 * Positions are free-running uint32 counters (index = pos & (cap - 1)). */
#include "pipe.h"

#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define RELAX() _mm_pause()
#else
#define RELAX() ((void)0)
#endif

#define SPIN 20000        /* checks before sleeping (some tens of microseconds) */
#define NAP_NS 1000000    /* longest sleep without a signal */

enum { CONSUMER = 1, PRODUCER = 2 };

bool cs_pipe_init(cs_pipe *p, size_t item_size, uint32_t cap, cs_err *err)
{
    memset(p, 0, sizeof *p);
    p->buf = cs_alloc(item_size * cap);
    if (!p->buf)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a %u-item pipe", cap);
    p->item = item_size;
    p->cap = cap;
    p->room = cap;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    return true;
}

void cs_pipe_deinit(cs_pipe *p)
{
    if (!p->buf)
        return;
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    cs_free(p->buf);
    p->buf = NULL;
}

static void wake(cs_pipe *p, int who)
{
    if (atomic_load_explicit(&p->sleeping, memory_order_relaxed) & who) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
}

/* Room for the producer, or the consumer gone. */
static bool can_put(cs_pipe *p)
{
    return p->ptail - atomic_load_explicit(&p->head, memory_order_acquire) < p->cap ||
           atomic_load(&p->aborted);
}

/* Items for the consumer, or the producer done. */
static bool can_get(cs_pipe *p)
{
    return atomic_load_explicit(&p->tail, memory_order_acquire) != p->chead || atomic_load(&p->closed);
}

static void wait_for(cs_pipe *p, int who, bool (*cond)(cs_pipe *))
{
    for (int i = 0; i < SPIN; i++) {
        if (cond(p))
            return;
        RELAX();
    }
    pthread_mutex_lock(&p->mu);
    atomic_fetch_or(&p->sleeping, who);
    while (!cond(p)) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_nsec += NAP_NS;
        if (t.tv_nsec >= 1000000000)
            t.tv_sec++, t.tv_nsec -= 1000000000;
        pthread_cond_timedwait(&p->cv, &p->mu, &t);
    }
    atomic_fetch_and(&p->sleeping, ~who);
    pthread_mutex_unlock(&p->mu);
}

void cs_pipe_publish(cs_pipe *p)
{
    atomic_store_explicit(&p->tail, p->ptail, memory_order_release);
    wake(p, CONSUMER);
}

void *cs_pipe_slot_wait(cs_pipe *p)
{
    p->room = atomic_load_explicit(&p->head, memory_order_acquire) + p->cap;
    if (p->ptail == p->room) {
        cs_pipe_publish(p);
        wait_for(p, PRODUCER, can_put);
        p->room = atomic_load_explicit(&p->head, memory_order_acquire) + p->cap;
    }
    if (atomic_load(&p->aborted))
        return NULL;
    return p->buf + (size_t)(p->ptail & (p->cap - 1)) * p->item;
}

void cs_pipe_close(cs_pipe *p)
{
    atomic_store(&p->tail, p->ptail);
    atomic_store(&p->closed, 1);
    wake(p, CONSUMER);
}

uint32_t cs_pipe_peek(cs_pipe *p, void **items)
{
    if (p->chead == p->avail) {
        p->avail = atomic_load_explicit(&p->tail, memory_order_acquire);
        if (p->chead == p->avail) {
            wait_for(p, CONSUMER, can_get);
            p->avail = atomic_load_explicit(&p->tail, memory_order_acquire);
            if (p->chead == p->avail)
                return 0; /* closed and drained */
        }
    }
    uint32_t at = p->chead & (p->cap - 1), n = p->avail - p->chead;
    *items = p->buf + (size_t)at * p->item;
    return n < p->cap - at ? n : p->cap - at;
}

void cs_pipe_release(cs_pipe *p, uint32_t n)
{
    p->chead += n;
    atomic_store_explicit(&p->head, p->chead, memory_order_release);
    wake(p, PRODUCER);
}

void cs_pipe_abort(cs_pipe *p)
{
    atomic_store(&p->aborted, 1);
    wake(p, PRODUCER);
}
