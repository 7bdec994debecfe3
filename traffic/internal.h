/* traffic/internal.h — what the files of traffic/ share
 * (docs/trace-format.md §6–7). trf_build() (build.c) runs them in order on a
 * finished model:
 *   classify.c  every wake-up edge gets its cs_edge_kind
 *   patched.c   gotrace GoSend/GoRecv events -> exact messages
 *   annot.c     trace.Log "chan.send"/"chan.recv" -> exact messages
 *   infer.c     channel wake-ups -> inferred messages (site grouping)
 *   blocks.c    the time blocks of messages and sync wake-ups (cs_model.msg_block)
 *   trim.c      for a still picture (trf_build_drawn), the edges not drawn go as
 *               infer.c makes their messages
 * sites.c names code sites and recognises the runtime's channel frames.
 * Nothing here reads trace bytes: the input is the model the decoders built.
 *
 * API (folder-private)
 *   trf__role trf__func_role(const char *func)
 *   trf__role trf__stack_role(trf__ctx *c, uint32_t stack)      cached per stack
 *   uint32_t trf__select_line(trf__ctx *c, uint32_t stack)     cached per stack
 *       the line of runtime.selectgo in the stack, 0 none or unknown
 *   const cs_frame *trf__site_frame(const cs_model *m, uint32_t stack)
 *   cs_sid trf__site(trf__ctx *c, uint32_t stack, cs_err *err)    0 = no site; cached
 *   cs_sid trf__frame_site(trf__ctx *c, const cs_frame *f, cs_err *err)
 *   cs_sid trf__chan_name(trf__ctx *c, const char *prefix, cs_sid send, cs_sid recv, cs_err *err)
 *       "<prefix>main.player:23 → main.player:18"
 *   uint32_t trf__chan_by_sites(trf__ctx *c, cs_sid send, cs_sid recv, bool close, cs_err *err)
 *       close: the send site is a close(), the name reads "close main.f:9 → main.g:4"
 *   uint32_t trf__chan_by_id(trf__ctx *c, uint64_t rt_id, cs_sid name, cs_sid send,
 *                            cs_sid recv, cs_err *err)     found by id, or created with these
 *   bool trf__msg_add(trf__ctx *c, const cs_msg_in *msg, cs_sid value, cs_err *err)
 *       appends a message and counts it for its channel; while the messages come in
 *       order (trf__msg_order), its time block takes it in (trf__msg_block_add)
 *   bool trf__msgs_add(trf__ctx *c, const cs_msg_in *x, uint32_t n, cs_err *err)
 *       the same for n messages without a value (cs_model_msgs_add)
 *   int trf__msg_order(const cs_model *m, uint32_t i, uint32_t j)   (inline) <0, 0, >0
 *   bool trf__classify(trf__ctx *c, cs_err *err)
 *   bool trf__patched(trf__ctx *c, cs_err *err)
 *   bool trf__annot(trf__ctx *c, cs_err *err)
 *   bool trf__infer(trf__ctx *c, cs_err *err)
 *   bool trf__msg_blocks(cs_model *m, cs_err *err)    the messages' time blocks (blocks.c),
 *       all again (after a sort)
 *   bool trf__msg_block_add(trf__ctx *c, uint32_t i, cs_err *err)   message i, in its
 *       final place, widens its block (the blocks grow by one as i starts one)
 *   bool trf__sync_blocks(cs_model *m, cs_err *err)   the sync wake-ups' time blocks
 *   bool trf__trim(trf__ctx *c, uint32_t upto, cs_err *err)
 *       with c->drawn_only: edges [c->trim_read, upto) are done with; the drawn
 *       ones move down to c->trim_write, the pages of the others go back; upto
 *       is a block's first edge (CS_T0_BLOCK), as trim_read then is, or the
 *       end (trf__trim_end)
 *   bool trf__trim_end(trf__ctx *c, cs_err *err)   the rest, then the messages name no edge
 * All return 0/false with *err filled on failure (out of memory only).
 */
#ifndef TRF_INTERNAL_H
#define TRF_INTERNAL_H

#include "traffic.h"
#include "../core/map.h"

/* What a runtime frame does to a channel. */
typedef enum trf__role {
    TRF_ROLE_NONE = 0,
    TRF_ROLE_SEND,   /* chansend1, chansend, selectnbsend, reflect.chansend */
    TRF_ROLE_RECV,   /* chanrecv1/2, chanrecv, selectnbrecv, reflect.chanrecv */
    TRF_ROLE_SELECT, /* selectgo, reflect.rselect: direction not visible */
    TRF_ROLE_CLOSE,  /* closechan, reflect.chanclose (usually skipped by Go) */
    TRF_ROLE_TIMER,  /* time.sendTime: a timer channel firing */
    TRF_ROLE_RUNTIME /* a stack's send, receive or select made by the runtime for itself (its
                      * caller a runtime function: GC workers starting, signal.Notify's
                      * handshake, the tracer's goroutines) */
} trf__role;

typedef struct trf__ctx {
    cs_model *m;
    cs_map site_of;   /* (line << 32 | func sid) -> site sid */
    cs_map by_sites;  /* (send site << 32 | recv site) -> chan index */
    cs_map by_close;  /* (close site << 32 | recv site) -> chan index */
    uint64_t last_key;    /* the last by_sites/by_close answer, */
    uint32_t last_chan;   /* 0 none */
    bool last_close;
    cs_map by_id;     /* runtime / annotation channel id -> chan index */
    uint32_t *stack_site; /* per stack: site sid, UINT32_MAX not yet known */
    uint8_t *stack_role;  /* per stack: trf__role, 0xff not yet known */
    uint32_t *stack_sel_line; /* per stack: trf__select_line, UINT32_MAX not yet known */
    uint32_t n_stack;     /* entries in the three */
    bool patched;     /* exact GoSend/GoRecv traffic present: no inference */
    bool drawn_only;  /* trf_build_drawn: of the edges keep the drawn ones (trim.c) */
    uint32_t trim_read, trim_write; /* edges before trim_read are done with; the drawn
                                       ones among them are below trim_write */
    uint32_t n_exact; /* exact messages so far (annotation windows for dedupe) */
    bool msgs_unsorted;   /* a message sorts before the one added just before it: build.c sorts */
    uint32_t cap_msg_block; /* the blocks made as the messages come (blocks.c) */
} trf__ctx;

trf__role trf__func_role(const char *func);
trf__role trf__stack_role(trf__ctx *c, uint32_t stack);
uint32_t trf__select_line(trf__ctx *c, uint32_t stack);
const cs_frame *trf__site_frame(const cs_model *m, uint32_t stack);
cs_sid trf__site(trf__ctx *c, uint32_t stack, cs_err *err);
cs_sid trf__frame_site(trf__ctx *c, const cs_frame *f, cs_err *err);
cs_sid trf__chan_name(trf__ctx *c, const char *prefix, cs_sid send, cs_sid recv, cs_err *err);
uint32_t trf__chan_by_sites(trf__ctx *c, cs_sid send, cs_sid recv, bool close, cs_err *err);
uint32_t trf__chan_by_id(trf__ctx *c, uint64_t rt_id, cs_sid name, cs_sid send, cs_sid recv,
                         cs_err *err);
bool trf__msg_add(trf__ctx *c, const cs_msg_in *msg, cs_sid value, cs_err *err);
bool trf__msgs_add(trf__ctx *c, const cs_msg_in *x, uint32_t n, cs_err *err);

/* Messages i and j by time (t_send, else t_recv: cs_msg_t), then receive;
 * 0 for a tie. */
static inline int trf__msg_order(const cs_model *m, uint32_t i, uint32_t j)
{
    int64_t ti = cs_msg_t(m, i), tj = cs_msg_t(m, j);
    if (ti != tj)
        return ti < tj ? -1 : 1;
    ti = cs_msg_t_recv(m, i), tj = cs_msg_t_recv(m, j);
    return (ti > tj) - (ti < tj);
}

bool trf__classify(trf__ctx *c, cs_err *err);
bool trf__patched(trf__ctx *c, cs_err *err);
bool trf__annot(trf__ctx *c, cs_err *err);
bool trf__infer(trf__ctx *c, cs_err *err);
bool trf__msg_blocks(cs_model *m, cs_err *err);
bool trf__msg_block_add(trf__ctx *c, uint32_t i, cs_err *err);
bool trf__sync_blocks(cs_model *m, cs_err *err);
bool trf__trim(trf__ctx *c, uint32_t upto, cs_err *err);
bool trf__trim_end(trf__ctx *c, cs_err *err);

#endif
