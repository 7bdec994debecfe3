/* decode/v2_pipe.c — hands ordered events from the ordering thread to the
 * thread that emits them (model, Summarizer, on_event): a single-producer
 * single-consumer ring of v2_ev with C11 atomics, published in small
 * batches, and a mutex/condvar only for sleeping when one side waits on the
 * other. Go's order of events is kept exactly; the split only lets varint
 * decoding + ordering run beside model building + statistics.
 *
 * Item types: ordinary events, V2_EvSync (a Sync at ev.ts) and
 * V2_EvCPUSample (args[0] = index into the generation's samples). */
#include "v2.h"

#include <string.h>

#define PIPE_CAP 4096u   /* events in flight; power of two */
#define PUBLISH 64u      /* producer publishes every this many events */

static void wake(v2_pipe *p)
{
    pthread_mutex_lock(&p->mu);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* Sleeps until cond(p) holds, flagging *sleeping so the other side wakes us. */
static void wait_until(v2_pipe *p, _Atomic int *sleeping, bool (*cond)(v2_pipe *))
{
    for (int spin = 0; spin < 200; spin++)
        if (cond(p))
            return;
    pthread_mutex_lock(&p->mu);
    atomic_store(sleeping, 1);
    while (!cond(p))
        pthread_cond_wait(&p->cv, &p->mu);
    atomic_store(sleeping, 0);
    pthread_mutex_unlock(&p->mu);
}

static bool has_items(v2_pipe *p)
{
    return atomic_load(&p->tail) != p->chead || atomic_load(&p->done);
}

static bool has_room(v2_pipe *p)
{
    return p->ptail - atomic_load(&p->head) < PIPE_CAP || atomic_load(&p->failed);
}

static bool drained(v2_pipe *p)
{
    return atomic_load(&p->head) == p->ptail || atomic_load(&p->failed);
}

static bool consume(v2_pipe *p, v2_ev *e)
{
    v2_sink *s = p->s;
    v2_gen *g = atomic_load(&p->g);
    if (e->type == V2_EvSync)
        return dec__v2_emit_sync(s, g, e->ts, &p->err);
    if (e->type == V2_EvCPUSample)
        return dec__v2_emit_sample(s, g, &g->samples[e->args[0]], &p->err);
    return dec__v2_emit(s, g, e, &p->err);
}

static void *consumer(void *arg)
{
    v2_pipe *p = arg;
    for (;;) {
        uint32_t t = atomic_load(&p->tail);
        while (p->chead != t) {
            if (!consume(p, &p->buf[p->chead & (PIPE_CAP - 1)])) {
                atomic_store(&p->failed, 1);
                wake(p);
                return NULL;
            }
            p->chead++;
            if (!(p->chead & (PUBLISH - 1))) {
                atomic_store(&p->head, p->chead);
                if (atomic_load(&p->prod_sleeping))
                    wake(p);
            }
        }
        atomic_store(&p->head, p->chead);
        if (atomic_load(&p->prod_sleeping))
            wake(p);
        if (atomic_load(&p->done) && atomic_load(&p->tail) == p->chead)
            return NULL;
        wait_until(p, &p->cons_sleeping, has_items);
    }
}

bool dec__v2_pipe_start(v2_pipe *p, v2_sink *s, cs_err *err)
{
    memset(p, 0, sizeof *p);
    p->s = s;
    p->buf = cs_alloc(PIPE_CAP * sizeof *p->buf);
    if (!p->buf)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for the event pipe");
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (pthread_create(&p->th, NULL, consumer, p)) {
        cs_free(p->buf);
        return CS_FAIL(err, CS_E_INTERNAL, CS_NO_OFFSET, "could not start a decoding thread");
    }
    p->running = true;
    return true;
}

static void publish(v2_pipe *p)
{
    atomic_store(&p->tail, p->ptail);
    if (atomic_load(&p->cons_sleeping))
        wake(p);
}

/* A slot for the next item, or NULL when the consumer has failed. */
v2_ev *dec__v2_pipe_slot(v2_pipe *p)
{
    if (p->ptail - p->room_head >= PIPE_CAP) {
        p->room_head = atomic_load(&p->head);
        if (p->ptail - p->room_head >= PIPE_CAP) {
            publish(p);
            wait_until(p, &p->prod_sleeping, has_room);
            p->room_head = atomic_load(&p->head);
        }
    }
    return atomic_load(&p->failed) ? NULL : &p->buf[p->ptail & (PIPE_CAP - 1)];
}

void dec__v2_pipe_commit(v2_pipe *p)
{
    if (!(++p->ptail & (PUBLISH - 1)))
        publish(p);
}

/* Waits until the consumer has emitted everything; false if it failed. */
bool dec__v2_pipe_drain(v2_pipe *p, cs_err *err)
{
    publish(p);
    wait_until(p, &p->prod_sleeping, drained);
    if (atomic_load(&p->failed)) {
        *err = p->err;
        return false;
    }
    return true;
}

void dec__v2_pipe_set_gen(v2_pipe *p, v2_gen *g) { atomic_store(&p->g, g); }

bool dec__v2_pipe_stop(v2_pipe *p, cs_err *err)
{
    if (!p->running)
        return true;
    atomic_store(&p->done, 1);
    publish(p);
    wake(p);
    pthread_join(p->th, NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    cs_free(p->buf);
    p->running = false;
    if (atomic_load(&p->failed) && err->code == CS_OK)
        *err = p->err;
    return !atomic_load(&p->failed);
}
