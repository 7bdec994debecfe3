/* decode/chan.h — what the channel-traffic files of decode/ share
 * (go-trace-format.md §6–7). dec_chan_build() (chan_build.c) runs them in
 * order on a finished model:
 *   chan_classify.c  every wake-up edge gets its cs_edge_kind
 *   chan_patched.c   gotrace GoSend/GoRecv events -> exact messages
 *   chan_annot.c     trace.Log "chan.send"/"chan.recv" -> exact messages
 *   chan_infer.c     channel wake-ups -> inferred messages (site grouping)
 * chan_sites.c names code sites and recognises the runtime's channel frames.
 * Nothing here reads trace bytes: the input is the model the decoders built.
 *
 * API (folder-private)
 *   dec__role dec__chan_role(const char *func)
 *   dec__role dec__chan_stack_role(dec__chan_ctx *c, uint32_t stack)      cached per stack
 *   const cs_frame *dec__chan_site_frame(const cs_model *m, uint32_t stack)
 *   cs_sid dec__chan_site(dec__chan_ctx *c, uint32_t stack, cs_err *err)    0 = no site; cached
 *   cs_sid dec__chan_frame_site(dec__chan_ctx *c, const cs_frame *f, cs_err *err)
 *   cs_sid dec__chan_name(dec__chan_ctx *c, const char *prefix, cs_sid send, cs_sid recv, cs_err *err)
 *       "<prefix>main.player:23 → main.player:18"
 *   uint32_t dec__chan_by_sites(dec__chan_ctx *c, cs_sid send, cs_sid recv, bool close, cs_err *err)
 *       close: the send site is a close(), the name reads "close main.f:9 → main.g:4"
 *   uint32_t dec__chan_by_id(dec__chan_ctx *c, uint64_t rt_id, cs_sid name, cs_sid send,
 *                            cs_sid recv, cs_err *err)     found by id, or created with these
 *   bool dec__chan_msg_add(cs_model *m, const cs_msg *msg, cs_err *err)
 *   bool dec__chan_classify(dec__chan_ctx *c, cs_err *err)
 *   bool dec__chan_patched(dec__chan_ctx *c, cs_err *err)
 *   bool dec__chan_annot(dec__chan_ctx *c, cs_err *err)
 *   bool dec__chan_infer(dec__chan_ctx *c, cs_err *err)
 * All return 0/false with *err filled on failure (out of memory only).
 */
#ifndef DEC_CHAN_H
#define DEC_CHAN_H

#include "decode.h"

/* What a runtime frame does to a channel. */
typedef enum dec__role {
    DEC_ROLE_NONE = 0,
    DEC_ROLE_SEND,   /* chansend1, chansend, selectnbsend, reflect.chansend */
    DEC_ROLE_RECV,   /* chanrecv1/2, chanrecv, selectnbrecv, reflect.chanrecv */
    DEC_ROLE_SELECT, /* selectgo, reflect.rselect: direction not visible */
    DEC_ROLE_CLOSE,  /* closechan, reflect.chanclose (usually skipped by Go) */
    DEC_ROLE_TIMER   /* time.sendTime: a timer channel firing */
} dec__role;

typedef struct dec__chan_ctx {
    cs_model *m;
    cs_map site_of;   /* (line << 32 | func sid) -> site sid */
    cs_map by_sites;  /* (send site << 32 | recv site) -> chan index */
    cs_map by_close;  /* (close site << 32 | recv site) -> chan index */
    uint64_t last_key;    /* the last by_sites/by_close answer, */
    uint32_t last_chan;   /* 0 none */
    bool last_close;
    cs_map by_id;     /* runtime / annotation channel id -> chan index */
    uint32_t *stack_site; /* per stack: site sid, UINT32_MAX not yet known */
    uint8_t *stack_role;  /* per stack: dec__role, 0xff not yet known */
    uint32_t n_stack;     /* entries in both */
    bool patched;     /* exact GoSend/GoRecv traffic present: no inference */
    uint32_t n_exact; /* exact messages so far (annotation windows for dedupe) */
} dec__chan_ctx;

dec__role dec__chan_role(const char *func);
dec__role dec__chan_stack_role(dec__chan_ctx *c, uint32_t stack);
const cs_frame *dec__chan_site_frame(const cs_model *m, uint32_t stack);
cs_sid dec__chan_site(dec__chan_ctx *c, uint32_t stack, cs_err *err);
cs_sid dec__chan_frame_site(dec__chan_ctx *c, const cs_frame *f, cs_err *err);
cs_sid dec__chan_name(dec__chan_ctx *c, const char *prefix, cs_sid send, cs_sid recv, cs_err *err);
uint32_t dec__chan_by_sites(dec__chan_ctx *c, cs_sid send, cs_sid recv, bool close, cs_err *err);
uint32_t dec__chan_by_id(dec__chan_ctx *c, uint64_t rt_id, cs_sid name, cs_sid send, cs_sid recv,
                         cs_err *err);
bool dec__chan_msg_add(cs_model *m, const cs_msg *msg, cs_err *err);
bool dec__chan_classify(dec__chan_ctx *c, cs_err *err);
bool dec__chan_patched(dec__chan_ctx *c, cs_err *err);
bool dec__chan_annot(dec__chan_ctx *c, cs_err *err);
bool dec__chan_infer(dec__chan_ctx *c, cs_err *err);

#endif
