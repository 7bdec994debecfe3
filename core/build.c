/* core/build.c — the model builder of build.h: its calls, the goroutines'
 * cursors, the join of a part, and the chunks. Each goroutine's spans are
 * appended in time order to chunks of its own, which grow as it has more
 * (CHUNK_MIN to CS__MB_CHUNK_MAX spans and the rest of a page; a small one
 * moves to a bigger one when full, chunk_move), so the hot path is an
 * append; build_lay.c lays them out in the model's columns as the
 * goroutine ends, or at cs_mb_finish. A chunk keeps its starts in 32 bits
 * over the first one's (a start further off begins a new chunk). A span's
 * end is kept only when its goroutine's next span does not begin there
 * (model.h: far ends); in the model its start is in 32 bits over its
 * block's earliest start (model.h: wide starts). */
#include "build_int.h"

#include <string.h>
#include <xxhash.h>

static inline bool site_same(const cs_wsite *a, const cs_wsite *b)
{
    uint64_t x[2], y[2];
    memcpy(x, a, sizeof x), memcpy(y, b, sizeof y);
    return !((x[0] ^ y[0]) | (x[1] ^ y[1]));
}

static uint32_t site_hash(const cs_wsite *w)
{
    return (uint32_t)XXH3_64bits(w, sizeof *w);
}

/* The slot of site w in site_slot: its own, or the empty one it would take. */
static uint32_t site_slot_of(const cs_mb *mb, const cs_wsite *w)
{
    uint32_t h = site_hash(w) & (mb->site_cap - 1), i;
    while ((i = mb->site_slot[h]) && !site_same(&mb->m->wsites[i - 1], w))
        h = (h + 1) & (mb->site_cap - 1);
    return h;
}

/* site_slot made (again) from the model's sites, with room for one more
 * at most half full. */
static bool site_index(cs_mb *mb, cs_err *err)
{
    const cs_model *m = mb->m;
    uint32_t cap = 64;
    while (cap < (uint64_t)(m->n_wsites + 1) * 2) /* at most 2 * CS_WSITE_MAX */
        cap *= 2;
    uint32_t *slot = cs_calloc(cap, sizeof *slot);
    if (!slot)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory indexing %u wake-up sites", m->n_wsites);
    cs_free(mb->site_slot);
    mb->site_slot = slot, mb->site_cap = cap;
    for (uint32_t i = 0; i < m->n_wsites; i++)
        slot[site_slot_of(mb, &m->wsites[i])] = i + 1;
    return true;
}

/* *found: wake-up site w's index in the model's wsites, added when new,
 * found by the hash of its bytes (site_slot, 4 bytes a slot). A trace whose
 * every wake-up has a site of its own costs 16 bytes a wake-up more, and
 * 8 to 16 of index until decoding ends (cs_mb_finish lets it go). */
static bool site_find(cs_mb *mb, const cs_wsite *w, uint32_t *found, cs_err *err)
{
    cs_model *m = mb->m;
    if (!mb->site_cap && !site_index(mb, err))
        return false;
    uint32_t h = site_slot_of(mb, w);
    if (mb->site_slot[h]) {
        *found = mb->site_slot[h] - 1;
        return true;
    }
    if (m->n_wsites >= CS_WSITE_MAX)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "more than %u wake-up sites", CS_WSITE_MAX);
    if (!cs_grow((void **)&m->wsites, &m->cap_wsites, m->n_wsites + 1, sizeof *m->wsites, err))
        return false;
    if ((uint64_t)(m->n_wsites + 1) * 2 > mb->site_cap) { /* placed again, w's slot too */
        if (!site_index(mb, err))
            return false;
        h = site_slot_of(mb, w);
    }
    m->wsites[m->n_wsites] = *w;
    mb->site_slot[h] = ++m->n_wsites;
    *found = m->n_wsites - 1;
    return true;
}

/* *out: site w's index, the sites used lately first (site_recent, by
 * their stacks), the others by site_find. */
static inline __attribute__((always_inline)) bool site_of(cs_mb *mb, const cs_wsite *w, uint32_t *out,
                                                          cs_err *err)
{
    uint32_t *recent = &mb->site_recent[(w->stack * 0x9E3779B1u ^ w->block_stack) & (CS_MB_SITES - 1)];
    if (!(*recent < mb->m->n_wsites && site_same(&mb->m->wsites[*recent], w)) && !site_find(mb, w, recent, err))
        return false;
    *out = *recent;
    return true;
}

bool cs_mb_init(cs_mb *mb, cs_model *m, cs_err *err)
{
    memset(mb, 0, sizeof *mb);
    mb->m = m;
    /* index 0 of goroutines and edges means "none" */
    if (!cs_grow((void **)&m->g, &m->cap_g, 1, sizeof *m->g, err) ||
        !cs_grow((void **)&m->edges, &m->cap_edges, 1, sizeof *m->edges, err) ||
        !cs_grow((void **)&m->chans, &m->cap_chans, 1, sizeof *m->chans, err) ||
        !cs_grow((void **)&mb->gref, &mb->cap_gref, 1, sizeof *mb->gref, err) ||
        !cs_grow((void **)&mb->cur, &mb->cap_cur, 1, sizeof *mb->cur, err))
        return false;
    memset(&m->g[0], 0, sizeof m->g[0]);
    memset(&m->edges[0], 0, sizeof m->edges[0]);
    memset(&m->chans[0], 0, sizeof m->chans[0]);
    memset(&mb->gref[0], 0, sizeof mb->gref[0]);
    memset(&mb->cur[0], 0, sizeof mb->cur[0]);
    m->n_g = m->n_edges = m->n_chans = mb->n_cur = 1;
    uint32_t zero;
    return cs_model_intern(m, "", 0, err) == 0 && err->code == CS_OK &&
           site_of(mb, &(cs_wsite){0}, &zero, err); /* site 0, the edge 0's */
}

#define CHUNK_MIN 2u /* a goroutine's first: one of a span or two takes 34 bytes */

/* Chunks are cut from slabs of whole pages (cs_pages), not from malloc's
 * heap: finish gives each chunk's pages back as it copies it and the slabs
 * at its end, and none of it stays behind as free heap that a later table
 * would touch again. A chunk of a page or more starts on a page and takes
 * whole pages (chunk_room), so that every page of it is its own: one cut
 * from its last page after it would keep that page until the slabs go. */
#define SLAB_MIN ((size_t)64 << 10) /* the first; each next twice the last, up to SLAB_MAX */
#define SLAB_MAX ((size_t)4 << 20)

struct cs_mb_slab {
    cs_mb_slab *next;
    size_t bytes, used;
};

void *cs__mb_slab_take(cs_mb *mb, size_t bytes, cs_err *err)
{
    size_t page = cs_page_bytes(), align = bytes >= page ? page - 1 : 7; /* a mask */
    cs_mb_slab *s = mb->slabs;
    size_t at = s ? (s->used + align) & ~align : 0;
    if (!s || at + bytes > s->bytes) {
        size_t n = (sizeof *s + bytes + 2 * page - 1) & ~(page - 1),
               want = !s ? SLAB_MIN : s->bytes < SLAB_MAX / 2 ? 2 * s->bytes : SLAB_MAX;
        n = n > want ? n : want;
        if (!(s = cs_pages(n))) {
            CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for the spans");
            return NULL;
        }
        *s = (cs_mb_slab){.next = mb->slabs, .bytes = n};
        mb->slabs = s;
        at = (sizeof *s + align) & ~align;
    }
    s->used = at + bytes;
    return (char *)s + at;
}

void cs__mb_slabs_free(cs_mb *mb)
{
    for (cs_mb_slab *s = mb->slabs, *next; s; s = next)
        next = s->next, cs_pages_free(s, s->bytes);
    mb->slabs = NULL;
    memset(mb->spare, 0, sizeof mb->spare);
}

/* A goroutine's chunk of fewer spans than MOVE_MAX, when full, moves to one
 * twice as big, which takes over its place and links; the one it leaves is
 * spare for another goroutine's move (cs_mb.spare), so that a goroutine of
 * a few spans has one chunk: with a chunk a span or two at first and another
 * twice as big on each, a goroutine of 8 spans took three chunks and 142
 * bytes, now one and 64. */
#define MOVE_MAX 256u

/* Room for a chunk of cap spans: a spare one of that room, or from the slab. */
static cs_mb_chunk *chunk_take(cs_mb *mb, uint32_t cap, cs_err *err)
{
    uint32_t log = (uint32_t)__builtin_ctz(cap);
    cs_mb_chunk *k = !(cap & (cap - 1)) && log < CS_MB_SPARE ? mb->spare[log] : NULL;
    if (!k)
        return cs__mb_slab_take(mb, cs__mb_chunk_room(cap), err);
    mb->spare[log] = k->prev;
    return k;
}

void cs__mb_chunk_give(cs_mb *mb, cs_mb_chunk *k)
{
    uint32_t log = (uint32_t)__builtin_ctz(k->cap);
    if (!(k->cap & (k->cap - 1)) && log < CS_MB_SPARE) {
        k->prev = mb->spare[log], mb->spare[log] = k;
        return;
    }
    cs_release(k, cs__mb_chunk_room(k->cap));
}

/* A chunk of a page or more is written a page at a time, and where a page
 * fault is dear (a virtual machine that traps each one: README, "the
 * blocks of 2 MB or more") that was most of the spans' cost. Its pages are
 * faulted in AHEAD bytes at a time instead (cs_prefault, one call: half
 * the time a page there), c->k_cap saying where they end, so the hot path
 * tests one bound as before; a goroutine's last chunk holds at most AHEAD
 * bytes written by none. */
#define AHEAD ((size_t)16 << 10)

/* c's last chunk's pages from its next span's on, AHEAD bytes of them or
 * up to its end, faulted in; c->k_cap the spans they hold. */
static void chunk_ahead(cs_mb_cur *c)
{
    size_t page = cs_page_bytes(), room = cs__mb_chunk_room(c->last->cap);
    if (room < 2 * page)
        return;
    uintptr_t k = (uintptr_t)c->last, rec = (uintptr_t)cs__mb_rec(c->last),
              at = (rec + (uintptr_t)c->k_n * CS__MB_REC) & ~(uintptr_t)(page - 1),
              end = at + AHEAD < k + room ? at + AHEAD : k + room;
    cs_prefault((void *)at, end - at);
    uint32_t fit = (uint32_t)((end - rec) / CS__MB_REC); /* at the chunk's end, past its room */
    c->k_cap = fit < c->last->cap ? fit : c->last->cap;
}

static bool chunk_move(cs_mb *mb, cs_mb_cur *c, cs_err *err)
{
    cs_mb_chunk *old = c->last, *k = chunk_take(mb, 2 * c->k_cap, err);
    if (!k)
        return false;
    *k = (cs_mb_chunk){.prev = old->prev, .base = old->base, .cap = 2 * c->k_cap};
    memcpy(cs__mb_rec(k), cs__mb_rec(old), (size_t)c->k_n * CS__MB_REC);
    cs__mb_chunk_give(mb, old);
    c->last = k, c->k_cap *= 2;
    return true;
}

/* The room of c's last chunk past its last span, *n bytes: pages faulted
 * in ahead there (chunk_ahead) hold nothing. */
static uint8_t *chunk_unwritten(const cs_mb_cur *c, size_t *n)
{
    uint8_t *end = cs__mb_rec(c->last) + (size_t)c->k_n * CS__MB_REC;
    *n = (size_t)((uint8_t *)c->last + cs__mb_chunk_room(c->last->cap) - end);
    return end;
}

/* c's last chunk left behind for good, another to follow it: its count in
 * its header, and its pages past its last span given back. One that a far
 * start cuts short (a span 2^32 ns or more after the chunk's base) had
 * kept up to 16 KB faulted in ahead: in a trace longer than 4.3 s every
 * goroutine leaves such a chunk every 4.3 s (the 85 MB Go 1.19 ring's
 * thousand goroutines two each, 12 MB of its peak). */
static void chunk_leave(cs_mb_cur *c)
{
    size_t n;
    uint8_t *at = chunk_unwritten(c, &n);
    c->last->n = c->k_n;
    cs_release(at, n);
}

/* The spans a chunk of cap spans holds in the whole pages it takes: one
 * of a page or more fills its last page. Its 24-byte header put 5 bytes a
 * span for 2^n of them just past a page's end from 1024 spans on, so each
 * such chunk had a page faulted in ahead and never written (13 MB of the
 * 117 MB Go 1.25 ring's pictures' peak, its 1000 goroutines' 12,000
 * chunks). */
static uint32_t chunk_fill(uint32_t cap)
{
    size_t room = cs__mb_chunk_room(cap);
    return room < cs_page_bytes() ? cap : (uint32_t)((room - sizeof(cs_mb_chunk)) / CS__MB_REC);
}

/* A new last chunk for c, its starts over c's open span's: twice as big
 * as the spans the last one took, within CHUNK_MIN..CS__MB_CHUNK_MAX and
 * the rest of its last page (one cut short by a far start does not make
 * the next bigger). */
static bool chunk_add(cs_mb *mb, cs_mb_cur *c, cs_err *err)
{
    uint32_t cap = c->last ? 2 * c->k_n : CHUNK_MIN;
    cap = chunk_fill(cap < CHUNK_MIN ? CHUNK_MIN : cap > CS__MB_CHUNK_MAX ? CS__MB_CHUNK_MAX : cap);
    cs_mb_chunk *k = chunk_take(mb, cap, err);
    if (!k)
        return false;
    if (c->last)
        chunk_leave(c);
    *k = (cs_mb_chunk){.prev = c->last, .base = c->t0, .cap = cap};
    c->last = k, c->k_base = c->t0, c->k_n = 0, c->k_cap = cap;
    chunk_ahead(c);
    return true;
}

/* Room for c's next span, whose start is dt over its last chunk's base: the
 * next pages of that chunk faulted in, a chunk moved or a new one (dt then
 * 0, over the new chunk's base). */
static bool chunk_room(cs_mb *mb, cs_mb_cur *c, uint64_t *dt, cs_err *err)
{
    if (*dt <= UINT32_MAX && c->last && c->k_n < c->last->cap) {
        chunk_ahead(c);
        return true;
    }
    bool move = *dt <= UINT32_MAX && c->k_cap >= CHUNK_MIN && c->k_cap < MOVE_MAX && !(c->k_cap & (c->k_cap - 1));
    *dt = move ? *dt : 0;
    return move ? chunk_move(mb, c, err) : chunk_add(mb, c, err);
}

/* cs_mb_cur.part: the builder set the goroutine's state; its block (waited,
 * block_stack, reason_name); made it (cs_mb_create). */
enum { P_OPS = 1, P_BLK = 2, P_MADE = 4 };

/* Cursors (build.h cs_mb_gref): a live goroutine's is cur[slot]; one that
 * ended as goroutines do gives its slot back (cur_retire), and cur_ended
 * makes its cursor again from its gref and its end, should it be given a
 * state again. A server's trace keeps 16 bytes for each of its millions of
 * goroutines, not 56. */

/* Goroutine gi's cursor while it is not live: one that ended at g->end_ns
 * (its open span begun and its last span ended then, waiting on nothing:
 * cur_retire), or one not given a state yet (its end CS_T_NONE, no spans). */
static cs_mb_cur cur_ended(const cs_mb *mb, uint32_t gi)
{
    const cs_mb_gref *r = &mb->gref[gi];
    int64_t end = mb->m->g[gi].end_ns;
    cs_mb_cur c = {.t0 = end, .last_t1 = end, .last = r->last, .n_spans = r->n_spans, .part = (uint8_t)r->part};
    if (r->last)
        c.k_base = r->last->base, c.k_n = r->last->n, c.k_cap = r->last->cap;
    return c;
}

/* Goroutine gi's cursor, live or not (a copy). */
static cs_mb_cur cur_read(const cs_mb *mb, uint32_t gi)
{
    uint32_t s = mb->gref[gi].slot;
    return s ? mb->cur[s] : cur_ended(mb, gi);
}

/* Goroutine gi's cursor's place is slot (0: not live), in its gref and
 * in the goroutines looked up lately when it is among them. */
static void cur_place(cs_mb *mb, uint32_t gi, uint32_t slot)
{
    cs_mb_recent *r = &mb->recent[mb->m->g[gi].goid & (CS_MB_RECENT - 1)];
    mb->gref[gi].slot = slot;
    if (r->idx == gi)
        r->slot = slot;
}

/* Goroutine gi's cursor made live, in a slot given back or a new one;
 * NULL when out of memory. */
static cs_mb_cur *cur_revive(cs_mb *mb, uint32_t gi, cs_err *err)
{
    if (mb->gref[gi].laid && !cs__mb_unlay(mb, gi, err))
        return NULL;
    uint32_t s = mb->cur_free;
    if (s)
        mb->cur_free = mb->cur[s].block_stack;
    else if (cs_grow((void **)&mb->cur, &mb->cap_cur, mb->n_cur + 1, sizeof *mb->cur, err))
        s = mb->n_cur++;
    else
        return NULL;
    mb->cur[s] = cur_ended(mb, gi);
    cur_place(mb, gi, s);
    return &mb->cur[s];
}

/* Goroutine gi's live cursor (inline while it is live); NULL when out of
 * memory. It stays where it is until gi ends. */
static inline __attribute__((always_inline)) cs_mb_cur *cur_live(cs_mb *mb, uint32_t gi, cs_err *err)
{
    uint32_t s = mb->gref[gi].slot;
    return s ? &mb->cur[s] : cur_revive(mb, gi, err);
}

/* Goroutine gi, whose cursor c has just ended it at t, gives its slot back
 * when cur_ended would make c again: it waits on nothing (its block's
 * fields are zero, and its reason), its last span ended at t, and its last
 * chunk has its count (in its header, from here on). Else it stays live.
 * Its spans are laid out then, unless a part's goroutine made before the
 * part (the part before has its first spans: cs_mb_join). */
static bool cur_retire(cs_mb *mb, uint32_t gi, cs_mb_cur *c, int64_t t, cs_err *err)
{
    if (c->reason || c->waited || c->block_stack || c->reason_name || (c->n_spans && c->last_t1 != t) ||
        c->n_spans >> 28)
        return true;
    if (c->last)
        c->last->n = c->k_n;
    uint32_t s = mb->gref[gi].slot;
    bool lay = c->last && (!mb->part || (c->part & P_MADE));
    mb->gref[gi] = (cs_mb_gref){.last = lay ? NULL : c->last, .n_spans = c->n_spans, .part = c->part, .laid = lay};
    cur_place(mb, gi, 0);
    c->block_stack = mb->cur_free, mb->cur_free = s;
    return !lay || cs__mb_lay_out(mb, gi, c->last, c->n_spans, err);
}

void cs_mb_deinit(cs_mb *mb)
{
    cs__mb_slabs_free(mb);
    cs__mb_lay_free(&mb->lay);
    cs_free(mb->gref);
    cs_free(mb->cur);
    cs_free(mb->far);
    cs_free(mb->pre);
    cs_free(mb->parents);
    cs_free(mb->first);
    cs_free(mb->site_slot);
    memset(mb, 0, sizeof *mb);
}

bool cs_mb_copy(const cs_mb *mb, cs_model *m, cs_mb *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    out->m = m, out->one_thread = mb->one_thread;
    uint32_t n_g = mb->m->n_g;
    if (!cs_grow((void **)&out->gref, &out->cap_gref, n_g, sizeof *out->gref, err) ||
        !cs_grow((void **)&out->cur, &out->cap_cur, mb->n_cur, sizeof *out->cur, err) ||
        !cs_grow((void **)&out->far, &out->cap_far, mb->n_far, sizeof *out->far, err) ||
        !cs__mb_lay_copy(&mb->lay, &out->lay, err)) {
        cs_mb_deinit(out);
        return false;
    }
    out->relay = mb->relay;
    memcpy(out->gref, mb->gref, (size_t)n_g * sizeof *out->gref);
    memcpy(out->cur, mb->cur, (size_t)mb->n_cur * sizeof *out->cur);
    if (mb->n_far)
        memcpy(out->far, mb->far, (size_t)mb->n_far * sizeof *out->far);
    out->n_cur = mb->n_cur, out->cur_free = mb->cur_free;
    out->n_far = mb->n_far, out->n_span = mb->n_span;
    bool ok = true;
    for (uint32_t i = 1; i < n_g; i++) { /* each chunk copied at the size it has, newest first */
        uint32_t slot = mb->gref[i].slot;
        cs_mb_cur *c = slot ? &out->cur[slot] : NULL;
        cs_mb_chunk *last = slot ? mb->cur[slot].last : mb->gref[i].last, **link = c ? &c->last : &out->gref[i].last;
        for (cs_mb_chunk *k = last; k; k = k->prev) {
            uint32_t n = k == last && c ? c->k_n : k->n, cap = n ? n : 1;
            cs_mb_chunk *to = ok ? cs__mb_slab_take(out, cs__mb_chunk_room(cap), err) : NULL;
            if (!(ok = to != NULL))
                break;
            *to = (cs_mb_chunk){.base = k->base, .n = n, .cap = cap};
            memcpy(cs__mb_rec(to), cs__mb_rec(k), (size_t)n * CS__MB_REC);
            *link = to, link = &to->prev;
        }
        *link = NULL;
        if (c)
            c->k_cap = c->k_n; /* full: the next span moves it or starts a chunk */
    }
    if (!ok)
        cs_mb_deinit(out);
    return ok;
}

_Static_assert(sizeof(cs_mb_gref) == 16, "a cursor's place is kept for every goroutine");

uint32_t cs_mb_g_find(cs_mb *mb, uint64_t goid, cs_err *err)
{
    cs_model *m = mb->m;
    cs_mb_recent *r = &mb->recent[goid & (CS_MB_RECENT - 1)];
    uint32_t i;
    if (cs_model_g_find(m, goid, &i)) {
        *r = (cs_mb_recent){.goid = goid, .idx = i, .slot = mb->gref[i].slot};
        return i;
    }
    if (!cs_grow((void **)&m->g, &m->cap_g, m->n_g + 1, sizeof *m->g, err) ||
        !cs_grow((void **)&mb->gref, &mb->cap_gref, m->n_g + 1, sizeof *mb->gref, err) ||
        cs_ids_get(&m->g_index, goid, true, err) == UINT32_MAX) /* slot n_g - 1 */
        return 0;
    i = m->n_g++;
    *r = (cs_mb_recent){.goid = goid, .idx = i};
    m->g[i] = (cs_goroutine){.goid = goid, .create_ns = CS_T_NONE, .end_ns = CS_T_NONE};
    mb->gref[i] = (cs_mb_gref){0};
    return i;
}

static bool far_add(cs_mb *mb, uint32_t gi, uint32_t span, int64_t t1, cs_err *err)
{
    if (!cs_grow((void **)&mb->far, &mb->cap_far, mb->n_far + 1, sizeof *mb->far, err))
        return false;
    mb->far[mb->n_far++] = (cs_mb_far){.t1 = t1, .g = gi, .span = span};
    return true;
}

/* always_inline, and set_idx too: every event's state change goes through
 * both, and their calls' register saves and restores made `info` run 10%
 * more instructions on the 25 MB ring. */
static inline __attribute__((always_inline)) bool span_close(cs_mb *mb, uint32_t gi, cs_mb_cur *c, int64_t t,
                                                             cs_err *err)
{
    if (c->state == CS_ST_NONE || c->t0 == CS_T_NONE || t <= c->t0)
        return true;
    if (c->n_spans && c->last_t1 != c->t0 && !far_add(mb, gi, c->n_spans - 1, c->last_t1, err))
        return false;
    if (mb->n_span == UINT32_MAX - 1)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "more than %u spans", UINT32_MAX - 2);
    uint64_t dt = (uint64_t)(c->t0 - c->k_base); /* times lie within ±CS_T_MAX: no overflow */
    if ((c->k_n == c->k_cap || dt > UINT32_MAX) && !chunk_room(mb, c, &dt, err))
        return false;
    cs__mb_rec_set(c->last, c->k_n, (uint32_t)dt, cs_span_state_reason(c->state, c->reason));
    c->k_n++;
    mb->n_span++;
    c->n_spans++;
    c->last_t1 = t;
    return true;
}

/* Goroutine goid's live cursor (made live if it is not), *gi its index:
 * inline for one looked up lately. NULL on error. */
static inline __attribute__((always_inline)) cs_mb_cur *cur_of(cs_mb *mb, uint64_t goid, uint32_t *gi,
                                                              cs_err *err)
{
    const cs_mb_recent *r = &mb->recent[goid & (CS_MB_RECENT - 1)];
    if (r->slot && r->goid == goid) {
        *gi = r->idx;
        return &mb->cur[r->slot];
    }
    *gi = cs_mb_g(mb, goid, err);
    return *gi ? cur_live(mb, *gi, err) : NULL;
}

/* Goroutine gi, its live cursor c, in state st from t on. */
static inline __attribute__((always_inline)) bool set_idx(cs_mb *mb, int64_t t, uint32_t gi, cs_mb_cur *c,
                                                          cs_state st, cs_reason r, cs_sid reason_name,
                                                          uint32_t stack, cs_err *err)
{
    cs_model *m = mb->m;
    if (!span_close(mb, gi, c, t, err))
        return false;
    if (!(c->part & (P_OPS | P_MADE)) && mb->part) { /* where the part before's state of it ends */
        if (!cs_grow((void **)&mb->first, &mb->cap_first, gi + 1, sizeof *mb->first, err))
            return false;
        mb->first[gi] = t;
    }
    c->state = (uint8_t)st;
    c->reason = (uint8_t)r;
    c->t0 = t;
    c->part |= P_OPS;
    if (st == CS_ST_BLOCKED) {
        c->part |= P_BLK;
        c->waited = true;
        c->block_stack = stack;
        c->reason_name = reason_name;
    }
    cs_goroutine *g = &m->g[gi];
    if (g->create_ns == CS_T_NONE) { /* first seen without a creation event */
        g->create_ns = t;
        g->flags |= CS_G_AT_START;
    }
    if (st == CS_ST_NONE) {
        g->end_ns = t;
        g->flags |= CS_G_ENDED;
        return cur_retire(mb, gi, c, t, err);
    }
    return true;
}

/* In a part: goroutine gi is made by parent_goid, which the part does not
 * know (CS_NO_GOID: no such parent), and the part before may (cs_mb_join). */
static bool parent_note(cs_mb *mb, uint32_t gi, uint64_t parent_goid, cs_err *err)
{
    if (!cs_grow((void **)&mb->parents, &mb->cap_parents, mb->n_parents + 1, sizeof *mb->parents, err))
        return false;
    mb->parents[mb->n_parents++] = (cs_mb_parent){.goid = parent_goid, .g = gi};
    return true;
}

bool cs_mb_create(cs_mb *mb, const cs_mb_create_desc *d, cs_err *err)
{
    uint32_t gi, parent = 0;
    cs_mb_cur *c = cur_of(mb, d->goid, &gi, err);
    if (!c)
        return false;
    bool unknown = d->parent_goid != CS_NO_GOID && !cs_model_g_find(mb->m, d->parent_goid, &parent);
    if (unknown)
        parent = 0;
    /* a parent the part does not know, or none in place of one noted when it made the goroutine before */
    if (mb->part && (unknown || (c->part & P_MADE)) &&
        !parent_note(mb, gi, unknown ? d->parent_goid : CS_NO_GOID, err))
        return false;
    c->part |= P_MADE;
    /* a goroutine made again (its id reused after its end, or a hostile
     * trace) is made no earlier than what it did last: its spans stay in
     * time order */
    int64_t t = d->t;
    t = c->t0 != CS_T_NONE && t < c->t0 ? c->t0 : t;
    t = c->n_spans && t < c->last_t1 ? c->last_t1 : t;
    cs_goroutine *g = &mb->m->g[gi];
    g->create_ns = t;
    g->parent = parent;
    if (d->name)
        g->name = d->name;
    if (d->at_start)
        g->flags |= CS_G_AT_START;
    cs_state st = d->state ? d->state : CS_ST_RUNNABLE; /* not CS_ST_NONE: c stays live */
    if (st == CS_ST_BLOCKED)
        c->waited = false;
    if (!set_idx(mb, t, gi, c, st, d->reason, 0, 0, err))
        return false;
    if (st == CS_ST_BLOCKED && d->at_start)
        c->waited = false; /* it was waiting before the trace began */
    return true;
}

bool cs_mb_set(cs_mb *mb, int64_t t, uint64_t goid, cs_state st, cs_reason r,
               cs_sid reason_name, uint32_t stack, cs_err *err)
{
    uint32_t gi;
    cs_mb_cur *c = cur_of(mb, goid, &gi, err);
    return c && set_idx(mb, t, gi, c, st, r, reason_name, stack, err);
}

bool cs_mb_unblock(cs_mb *mb, int64_t t, uint64_t from_goid, uint64_t to_goid,
                   uint32_t stack, cs_err *err)
{
    cs_model *m = mb->m;
    uint32_t to, from = 0;
    cs_mb_cur *c = cur_of(mb, to_goid, &to, err); /* live until its end: set_idx makes it runnable */
    if (!c)
        return false;
    if (from_goid != CS_NO_GOID && !(from = cs_mb_g(mb, from_goid, err)))
        return false;
    if (!cs_grow((void **)&m->edges, &m->cap_edges, m->n_edges + 1, sizeof *m->edges, err))
        return false;
    if (mb->part && !(c->part & P_BLK)) { /* blocked, if it was, before the part */
        if (!cs_grow((void **)&mb->pre, &mb->cap_pre, mb->n_pre + 1, sizeof *mb->pre, err))
            return false;
        mb->pre[mb->n_pre++] = (cs_mb_pre){.edge = m->n_edges, .state_before = !(c->part & P_OPS)};
    }
    uint32_t site;
    if (!site_of(mb, &(cs_wsite){.stack = stack, .block_stack = c->block_stack, .reason_name = c->reason_name,
                                 .reason = c->reason, .wait_before = !c->waited},
                 &site, err))
        return false;
    m->edges[m->n_edges] = (cs_edge){.from = from, .to = to, .site = site};
    if (!cs_edge_ts_set(m, m->n_edges, t, err))
        return false;
    m->n_edges++;
    if (!set_idx(mb, t, to, c, CS_ST_RUNNABLE, CS_R_NONE, 0, 0, err))
        return false;
    c->waited = false;
    c->block_stack = 0;
    c->reason_name = 0;
    c->part |= P_BLK;
    return true;
}

bool cs_mb_waiting_before(cs_mb *mb, uint64_t goid, cs_err *err)
{
    uint32_t gi;
    cs_mb_cur *c = cur_of(mb, goid, &gi, err);
    if (c)
        c->waited = false;
    return c != NULL;
}

bool cs_mb_name(cs_mb *mb, uint64_t goid, cs_sid name, cs_err *err)
{
    uint32_t gi = cs_mb_g(mb, goid, err);
    if (!gi)
        return false;
    cs_goroutine *g = &mb->m->g[gi];
    if (!g->name && name)
        g->name = name;
    return true;
}

/* The wake-ups of b onto mb's, mapped; those of goroutines b had not seen
 * before take their block from mb's state at the cut. Their sites are
 * added to mb's as the wake-ups first use them, as one builder given b's
 * calls would have. b's pages go back as they are copied, a batch at a
 * time: b's and mb's would otherwise be held at once, twice the part's
 * wake-ups. */
#define SITE_NONE UINT32_MAX

static bool join_edges(cs_mb *mb, cs_mb *b, const cs_model_map *map, uint32_t n_a, cs_err *err)
{
    cs_model *m = mb->m, *bm = b->m;
    uint32_t e0 = m->n_edges - 1; /* b's edge i is e0 + i */
    if (bm->n_edges > UINT32_MAX - m->n_edges)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "too many wake-ups");
    uint32_t *site = cs_alloc((size_t)bm->n_wsites * sizeof *site + 1); /* b's sites in m, SITE_NONE not yet */
    if (!site)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u wake-up sites", bm->n_wsites);
    memset(site, 0xff, (size_t)bm->n_wsites * sizeof *site);
    bool ok = cs_grow((void **)&m->edges, &m->cap_edges, m->n_edges + bm->n_edges, sizeof *m->edges, err);
    uint32_t pre = 0; /* b->pre, in edge order */
    for (uint32_t i = 1; ok && i < bm->n_edges; i++) {
        cs_edge x = bm->edges[i];
        x.t_lo = 0; /* cs_edge_ts_set's to set, or not (a wide block) */
        x.from = map->g[x.from], x.to = map->g[x.to];
        bool pre_i = pre < b->n_pre && b->pre[pre].edge == i;
        if (pre_i || site[x.site] == SITE_NONE) {
            cs_wsite w = bm->wsites[x.site];
            w.stack = map->stack[w.stack], w.block_stack = map->stack[w.block_stack];
            w.reason_name = map->sid[w.reason_name];
            if (pre_i) {
                /* n_a: join_index; one mb had not waits on nothing */
                cs_mb_cur c = x.to < n_a ? cur_read(mb, x.to) : (cs_mb_cur){0};
                w.block_stack = c.block_stack, w.reason_name = c.reason_name;
                w.wait_before = !c.waited;
                if (b->pre[pre].state_before)
                    w.reason = c.reason;
                pre++;
            }
            uint32_t s;
            if (!(ok = site_of(mb, &w, &s, err)))
                break;
            if (!pre_i)
                site[x.site] = s;
            x.site = s;
        } else {
            x.site = site[x.site];
        }
        m->edges[e0 + i] = x;
        if (!(ok = cs_edge_ts_set(m, e0 + i, cs_edge_ts(bm, i), err)))
            break;
        m->n_edges++;
        if (i % CS__MB_JOIN_BATCH == 0) /* b's edges up to i are read: none is read again */
            cs_release(bm->edges + i - CS__MB_JOIN_BATCH, (size_t)CS__MB_JOIN_BATCH * sizeof *bm->edges);
    }
    cs_free(site);
    return ok;
}

/* The first of c's chunks (c has one). */
static cs_mb_chunk *chunk_first(const cs_mb_cur *c)
{
    cs_mb_chunk *k = c->last;
    while (k->prev)
        k = k->prev;
    return k;
}

/* b's goroutine j onto mb's gi, which mb had before the join: mb's open
 * span closes when b first gave it a state, b's chunks follow mb's (*off:
 * mb's spans before them), and what b set of it wins. */
static bool join_known(cs_mb *mb, uint32_t gi, const cs_mb *b, uint32_t j, const cs_model_map *map,
                       uint32_t *off, cs_err *err)
{
    const cs_mb_cur cb_ = cur_read(b, j), *cb = &cb_;
    cs_goroutine *g = &mb->m->g[gi];
    const cs_goroutine *x = &b->m->g[j];
    if (cb->part & P_OPS) {
        cs_mb_cur *ca = cur_live(mb, gi, err);
        if (!ca || !span_close(mb, gi, ca, b->first[j], err))
            return false;
        *off = ca->n_spans;
        if (cb->last) {
            /* b's first span, closed in b, met no span of mb's before it: the end of mb's last
             * is kept if it is not that span's start, as span_close keeps one */
            cs_mb_chunk *first = chunk_first(cb);
            if (ca->n_spans && ca->last_t1 != cs__mb_rec_t0(first, 0) && !far_add(mb, gi, ca->n_spans - 1, ca->last_t1, err))
                return false;
            if (ca->last)
                chunk_leave(ca);
            first->prev = ca->last;
            ca->last = cb->last, ca->k_n = cb->k_n, ca->k_cap = cb->k_cap, ca->k_base = cb->k_base;
        }
        ca->n_spans += cb->n_spans;
        ca->last_t1 = cb->n_spans ? cb->last_t1 : ca->last_t1;
        ca->t0 = cb->t0, ca->state = cb->state, ca->reason = cb->reason;
        if (cb->part & P_BLK)
            ca->waited = cb->waited, ca->block_stack = map->stack[cb->block_stack],
            ca->reason_name = map->sid[cb->reason_name];
    }
    if (x->end_ns != CS_T_NONE)
        g->end_ns = x->end_ns;
    g->flags |= x->flags & CS_G_ENDED;
    if (g->create_ns == CS_T_NONE)
        g->create_ns = x->create_ns, g->flags |= x->flags & CS_G_AT_START;
    if (!g->name && x->name)
        g->name = map->sid[x->name];
    return true;
}

/* The parents b did not know, of the goroutines b made: mb's that were
 * before the join (mb had n_a goroutines then). The last making of a
 * goroutine is the one that counts. */
static bool join_parents(cs_mb *mb, const cs_mb *b, const cs_model_map *map, uint32_t n_a, cs_err *err)
{
    cs_model *m = mb->m;
    uint8_t *seen = cs_calloc(b->m->n_g, 1);
    if (!seen)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u goroutines", b->m->n_g);
    for (uint32_t i = b->n_parents; i-- > 0;) {
        const cs_mb_parent *x = &b->parents[i];
        uint32_t p;
        if (!seen[x->g] && x->goid != CS_NO_GOID && cs_model_g_find(m, x->goid, &p) && p < n_a)
            m->g[map->g[x->g]].parent = p;
        seen[x->g] = 1;
    }
    cs_free(seen);
    return true;
}

/* The index of goroutine goid in mb's model, a new one when it has none
 * (in the order b has them): its place in the model and its cursor are
 * made when join_new comes to it, so that mb's grow as b's go back
 * (join_release); until then its index is n_a or more. */
static uint32_t join_index(cs_mb *mb, uint64_t goid, cs_err *err)
{
    cs_model *m = mb->m;
    uint32_t i;
    if (cs_model_g_find(m, goid, &i))
        return i;
    return cs_ids_get(&m->g_index, goid, true, err) == UINT32_MAX ? 0 : m->n_g++; /* slot n_g - 1 */
}

/* b's goroutine j, which mb did not have, at its index gi (join_index);
 * b's spans laid out are mb's from lay_off on (join_lay). */
static bool join_new(cs_mb *mb, uint32_t gi, const cs_mb *b, uint32_t j, const cs_model_map *map,
                     uint32_t lay_off, cs_err *err)
{
    cs_model *m = mb->m;
    if (!cs_grow((void **)&m->g, &m->cap_g, gi + 1, sizeof *m->g, err) ||
        !cs_grow((void **)&mb->gref, &mb->cap_gref, gi + 1, sizeof *mb->gref, err))
        return false;
    cs_goroutine *g = &m->g[gi];
    *g = b->m->g[j];
    g->name = map->sid[g->name], g->parent = map->g[g->parent];
    mb->gref[gi] = b->gref[j];
    if (b->gref[j].laid)
        g->span_first += lay_off;
    if (!b->gref[j].slot)
        return true; /* not live: its gref is all */
    mb->gref[gi].slot = 0;
    cs_mb_cur *c = cur_revive(mb, gi, err);
    if (!c)
        return false;
    *c = b->cur[b->gref[j].slot];
    c->block_stack = map->stack[c->block_stack], c->reason_name = map->sid[c->reason_name];
    return true;
}

/* b's goroutines from..to, taken over by the join: their cursors' and
 * model's pages go back, so that b's and mb's are not held at once. */
static void join_release(cs_mb *b, uint32_t from, uint32_t to)
{
    cs_release(b->gref + from, (size_t)(to - from) * sizeof *b->gref);
    cs_release(b->m->g + from, (size_t)(to - from) * sizeof *b->m->g);
}

bool cs_mb_join_fits(const cs_mb *mb, const cs_mb *b)
{
    uint32_t gi;
    for (uint32_t j = 1; j < b->m->n_g; j++)
        if ((cur_read(b, j).part & P_MADE) && cs_model_g_find(mb->m, b->m->g[j].goid, &gi))
            return false;
    return true;
}

bool cs_mb_join(cs_mb *mb, cs_mb *b, cs_model_map *map, cs_err *err)
{
    cs_model *m = mb->m;
    const cs_model *bm = b->m;
    uint32_t n_a = m->n_g, gi;
    if ((uint64_t)b->n_span + mb->n_span + bm->n_g > UINT32_MAX - 2)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "more than %u spans", UINT32_MAX - 2);
    uint32_t *off = cs_calloc(bm->n_g, sizeof *off);
    map->g = cs_calloc(bm->n_g, sizeof *map->g);
    if (!off || !map->g) {
        cs_free(off);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u goroutines", bm->n_g);
    }
    bool ok = true;
    for (uint32_t j = 1; ok && j < bm->n_g; j++)
        ok = (map->g[j] = join_index(mb, bm->g[j].goid, err)) != 0;
    if (b->slabs) { /* b's chunks are mb's from here on, whatever follows */
        cs_mb_slab *tail = b->slabs;
        while (tail->next)
            tail = tail->next;
        tail->next = mb->slabs, mb->slabs = b->slabs, b->slabs = NULL;
    }
    uint32_t lay_off = 0;
    ok = ok && join_edges(mb, b, map, n_a, err) && cs__mb_lay_join(mb, b, &lay_off, err);
    for (uint32_t j = 1; ok && j < bm->n_g; j++) {
        if (!(j % CS__MB_JOIN_BATCH))
            join_release(b, j - CS__MB_JOIN_BATCH, j);
        if ((gi = map->g[j]) < n_a) {
            ok = join_known(mb, gi, b, j, map, &off[j], err);
            continue;
        }
        ok = join_new(mb, gi, b, j, map, lay_off, err);
    }
    ok = ok && join_parents(mb, b, map, n_a, err);
    for (uint32_t i = 0; ok && i < b->n_far; i++) {
        const cs_mb_far *f = &b->far[i];
        ok = far_add(mb, map->g[f->g], off[f->g] + f->span, f->t1, err);
    }
    cs_free(off);
    if (!ok)
        return false;
    mb->n_span += b->n_span;
    cs_free(b->gref), cs_free(b->cur);
    b->gref = NULL, b->cur = NULL, b->cap_gref = b->cap_cur = b->n_cur = b->cur_free = 0, b->n_span = 0;
    return true;
}

/* A runtime goroutine, as Go's internal/trace.IsSystemGoroutine has it
 * (summary.go): runtime.* but runtime.main, or one without a name. But
 * runtime.corostart runs the program's coroutine (iter.Pull) and is the
 * program's, as the runtime itself counts it (runtime/traceback.go,
 * isSystemGoroutine); and one without a name is the runtime's only when it
 * kept one state through the trace (seen through its status alone): one
 * that did something is the program's, named or not (from before the trace,
 * its events may carry no stack). The tracer's own goroutines, which the
 * trace exists for and the program does not (runtime/trace.*: the one that
 * reads the trace out, a flight recorder's), count as the runtime's. In a
 * trace that names no goroutine (Go 1.5 carries PCs only) nothing tells
 * them apart, and all are the program's. */
static bool is_system(const char *name, bool named, uint32_t spans)
{
    if (!name[0])
        return named && spans <= 1;
    if (strncmp(name, "runtime/trace.", 14) == 0)
        return true;
    return cs_runtime_func(name) && strcmp(name, "runtime.corostart") != 0;
}

/* The pages of c's last chunk faulted in ahead (chunk_ahead) that no span
 * was written to, to r: given back before the spans are laid out, since
 * the columns are made while the chunks are still held, and 16 KB ahead in
 * each of a thousand goroutines' last chunks was 16 MB of that peak. Also
 * those of a chunk whose pages ahead reached its end. Only a live
 * cursor's: the place of one that ended may still name a chunk that its
 * goroutine, given a state again in another place, writes on in. */
static void chunk_trim(cs_releases *r, const cs_mb_cur *c)
{
    if (!c->last)
        return;
    size_t n;
    uint8_t *at = chunk_unwritten(c, &n);
    cs_release_add(r, at, n);
}

bool cs_mb_finish(cs_mb *mb, int64_t t_end, cs_err *err)
{
    cs_model *m = mb->m;
    cs_releases ahead = {0};
    for (uint32_t i = 1; i < m->n_g; i++)
        if (mb->gref[i].slot)
            chunk_trim(&ahead, &mb->cur[mb->gref[i].slot]);
    cs_release_flush(&ahead);
    cs_free(mb->site_slot); /* no wake-up comes after: the spans' layout may take the room */
    mb->site_slot = NULL, mb->site_cap = 0;
    if (mb->relay && !cs__mb_lay_anew(mb, err)) /* all laid out anew, in goroutine order */
        return false;
    /* spans closed; a goroutine's last is far; those not laid out go after those that are */
    for (uint32_t i = 1, at = mb->lay.n; i < m->n_g; i++) {
        uint32_t s = mb->gref[i].slot;
        if (s && !span_close(mb, i, &mb->cur[s], t_end, err))
            return false;
        cs_mb_cur c = cur_read(mb, i);
        if (c.n_spans && !far_add(mb, i, c.n_spans - 1, c.last_t1, err))
            return false;
        if (c.last)
            c.last->n = c.k_n;
        if (!mb->gref[i].laid)
            m->g[i].span_first = at, m->g[i].span_count = c.n_spans, at += c.n_spans;
        mb->gref[i].last = c.last; /* for chunks_oldest */
    }
    cs_free(mb->cur); /* no state comes after */
    mb->cur = NULL, mb->cap_cur = mb->n_cur = mb->cur_free = 0;
    if (!cs__mb_spans_out(mb, err))
        return false;
    bool named = false;
    for (uint32_t i = 1; i < m->n_g && !named; i++)
        named = cs_model_str(m, m->g[i].name)[0] != 0;
    for (uint32_t i = 1; i < m->n_g; i++)
        if (is_system(cs_model_str(m, m->g[i].name), named, m->g[i].span_count))
            m->g[i].flags |= CS_G_SYSTEM;
    return true;
}
