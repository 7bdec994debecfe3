/* layout/lanes.c — lane assignment and labels of lanes.h. Everything is a
 * sort or a heap walk, O(n log n) in goroutines. */
#include "lanes.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *lay_short_name(const char *func)
{
    const char *s = strrchr(func, '/');
    return s ? s + 1 : func;
}

double lay_lanes_fit_px(uint32_t n_lanes, double avail_px)
{
    return avail_px / (n_lanes ? n_lanes : 1);
}

/* Min-heaps of uint64 keys (end time packed with lane for the active set). */
typedef struct heap {
    uint64_t *v;
    uint32_t n;
} heap;

static void heap_push(heap *h, uint64_t x)
{
    uint32_t i = h->n++;
    while (i && h->v[(i - 1) / 2] > x) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = x;
}

static uint64_t heap_pop(heap *h)
{
    uint64_t top = h->v[0], x = h->v[--h->n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && h->v[c + 1] < h->v[c]) c++;
        if (h->v[c] >= x) break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n) h->v[i] = x;
    return top;
}

/* Interval partitioning over `shown` (depth-first order): goroutines by
 * creation (then that order), each given the lane freed earliest, ends
 * ranked by (end, that place). The active heap is keyed by end rank << 32
 * | lane, so it pops the earliest end first, and an end rank's time is its
 * sorted key. Both orders are stable radix sorts of the times alone. */
static bool assign_compact(const cs_model *m, const uint32_t *shown, uint32_t n, lay_lanes *l,
                           cs_err *err)
{
    uint64_t *key = cs_alloc((size_t)n * sizeof *key + 1);
    uint32_t *gs = cs_alloc((size_t)n * sizeof *gs + 1);    /* by creation */
    uint32_t *erank = cs_alloc((size_t)n * sizeof *erank + 1);
    uint32_t *e = cs_alloc((size_t)n * sizeof *e + 1);
    heap act = {cs_alloc((size_t)n * sizeof(uint64_t) + 1), 0};
    heap fre = {cs_alloc((size_t)n * sizeof(uint64_t) + 1), 0};
    bool made = key && gs && erank && e && act.v && fre.v, ok = made;
    for (uint32_t i = 0; ok && i < n; i++) {
        const cs_goroutine *g = &m->g[shown[i]];
        gs[i] = shown[i];
        key[i] = lay__time_key(lay_made_at(m, g));
    }
    ok = ok && lay__sort_keys(key, gs, n, err);
    for (uint32_t i = 0; ok && i < n; i++) {
        const cs_goroutine *g = &m->g[gs[i]];
        int64_t t0 = lay_made_at(m, g), end = g->end_ns == CS_T_NONE ? INT64_MAX : g->end_ns;
        key[i] = lay__time_key(end < t0 ? t0 : end), e[i] = i;
    }
    ok = ok && lay__sort_keys(key, e, n, err);
    if (ok) {
        for (uint32_t j = 0; j < n; j++)
            erank[e[j]] = j;
        l->n_lanes = 0;
        for (uint32_t i = 0; i < n; i++) {
            /* free every lane whose goroutine ended strictly before this creation */
            uint64_t t0 = lay__time_key(lay_made_at(m, &m->g[gs[i]]));
            while (act.n && key[act.v[0] >> 32] < t0)
                heap_push(&fre, (uint32_t)heap_pop(&act));
            uint32_t lane = fre.n ? (uint32_t)heap_pop(&fre) : l->n_lanes++;
            l->lane_of_g[gs[i]] = lane;
            heap_push(&act, (uint64_t)erank[i] << 32 | lane);
        }
    }
    l->by_lane = ok ? cs_alloc((size_t)n * sizeof *l->by_lane + 1) : NULL;
    l->lane_first = ok ? cs_calloc((size_t)l->n_lanes + 2, sizeof *l->lane_first) : NULL;
    if (ok && !(l->by_lane && l->lane_first))
        ok = made = false;
    if (ok) { /* grouped by lane, in the order they were given lanes: their creation */
        for (uint32_t i = 0; i < n; i++)
            l->lane_first[l->lane_of_g[gs[i]] + 2]++;
        for (uint32_t i = 2; i <= l->n_lanes + 1; i++)
            l->lane_first[i] += l->lane_first[i - 1];
        for (uint32_t i = 0; i < n; i++)
            l->by_lane[l->lane_first[l->lane_of_g[gs[i]] + 1]++] = gs[i];
    }
    cs_free(key), cs_free(gs), cs_free(erank), cs_free(e), cs_free(act.v), cs_free(fre.v);
    return ok || (made ? false : CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory packing %u lanes", n));
}

/* One lane per distinct entry function, in order of first appearance. */
static bool assign_collapsed(const cs_model *m, const uint32_t *shown, uint32_t n, lay_lanes *l,
                             cs_err *err)
{
    cs_map by_name;
    cs_map_init(&by_name);
    l->n_lanes = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t lane;
        if (!cs_map_get(&by_name, m->g[shown[i]].name, &lane)) {
            lane = l->n_lanes++;
            if (!cs_map_put(&by_name, m->g[shown[i]].name, lane, err)) {
                cs_map_deinit(&by_name);
                return false;
            }
        }
        l->lane_of_g[shown[i]] = lane;
    }
    cs_map_deinit(&by_name);
    l->collapsed = true, l->compacted = false;
    cs_free(l->by_lane), cs_free(l->lane_first);
    l->by_lane = l->lane_first = NULL;
    return true;
}

static int short_cmp(const void *a, const void *b, void *ctx)
{
    const cs_model *m = ctx;
    cs_sid x = *(const cs_sid *)a, y = *(const cs_sid *)b;
    int c = strcmp(lay_short_name(cs_model_str(m, x)), lay_short_name(cs_model_str(m, y)));
    return c ? c : (x > y) - (x < y);
}

/* amb[sid] = 1 when another shown function shortens to the same text. */
static bool mark_ambiguous(const cs_model *m, const uint32_t *shown, uint32_t n, uint8_t *amb,
                           cs_err *err)
{
    cs_sid *ids = cs_alloc((size_t)n * sizeof *ids + 1);
    if (!ids)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for labels");
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        cs_sid s = m->g[shown[i]].name;
        if (!amb[s]) /* first use of amb: 2 = seen */
            amb[s] = 2, ids[k++] = s;
    }
    qsort_r(ids, k, sizeof *ids, short_cmp, (void *)m);
    for (uint32_t i = 0; i < k; i++)
        amb[ids[i]] = 0;
    for (uint32_t i = 1; i < k; i++)
        if (!strcmp(lay_short_name(cs_model_str(m, ids[i - 1])),
                    lay_short_name(cs_model_str(m, ids[i]))))
            amb[ids[i - 1]] = amb[ids[i]] = 1;
    cs_free(ids);
    return true;
}

/* Appends label i (labels 0..i-1 are in place). */
static bool label_add(lay_lanes *l, uint32_t *cap, uint32_t i, const char *s, cs_err *err)
{
    uint32_t len = (uint32_t)strlen(s) + 1, at = l->label_off[i];
    if (!cs_grow((void **)&l->label_bytes, cap, at + len, 1, err))
        return false;
    memcpy(l->label_bytes + at, s, len);
    l->label_off[i + 1] = at + len;
    return true;
}

static bool make_labels(const cs_model *m, const uint32_t *shown, uint32_t n, lay_lanes *l,
                        cs_err *err)
{
    uint8_t *amb = cs_calloc((size_t)m->n_str + 1, 1);
    if (!amb || !mark_ambiguous(m, shown, n, amb, err)) {
        cs_free(amb);
        return amb ? false : CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for labels");
    }
    uint32_t cap = 0;
    bool ok = true;
    for (uint32_t i = 0; i < l->n_lanes && ok; i++) {
        const cs_goroutine *g = &m->g[l->lane_g[i]];
        const char *full = cs_model_str(m, g->name);
        const char *fn = amb[g->name] ? full : lay_short_name(full);
        char buf[320];
        if (l->collapsed && l->lane_n[i] > 1)
            snprintf(buf, sizeof buf, "%s \u00d7%u", fn[0] ? fn : "(unknown)", l->lane_n[i]);
        else if (l->lane_n[i] > 1)
            snprintf(buf, sizeof buf, "G%llu %s +%u", (unsigned long long)g->goid, fn, l->lane_n[i] - 1);
        else
            snprintf(buf, sizeof buf, "G%llu%s%s", (unsigned long long)g->goid, fn[0] ? " " : "", fn);
        ok = label_add(l, &cap, i, buf, err);
    }
    cs_free(amb);
    return ok;
}

static bool alloc_lanes(lay_lanes *l, uint32_t n_g, uint32_t n, cs_err *err)
{
    l->lane_of_g = cs_alloc((size_t)n_g * sizeof *l->lane_of_g + 1);
    l->lane_g = cs_calloc((size_t)n + 1, sizeof *l->lane_g);
    l->lane_n = cs_calloc((size_t)n + 1, sizeof *l->lane_n);
    l->label_off = cs_calloc((size_t)n + 2, sizeof *l->label_off);
    if (!l->lane_of_g || !l->lane_g || !l->lane_n || !l->label_off)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u lanes", n);
    for (uint32_t i = 0; i < n_g; i++)
        l->lane_of_g[i] = LAY_NO_LANE;
    return true;
}

static bool shown(const cs_model *m, const lay_lanes_desc *d, const uint8_t *in, uint32_t gi)
{
    const cs_goroutine *g = &m->g[gi];
    if (!d->show_system && (g->flags & CS_G_SYSTEM) && gi != d->keep)
        return false;
    return !in || in[gi];
}

bool lay_lanes_build(const cs_model *m, const lay_lanes_desc *d, lay_lanes *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    lay__spawn sp;
    if (!lay__spawn_build(m, NULL, &sp, err))
        return false;
    if (d->spawn_order) {
        memcpy(d->spawn_order, sp.order, (size_t)sp.n * sizeof *sp.order);
        *d->n_spawn = sp.n;
    }
    lay__spawn_order_only(&sp); /* the lanes need no more of it */
    out->n_total = sp.n;
    uint32_t n = 0;
    uint8_t *in = d->filter && d->filter[0] ? lay_filter_build(m, d->filter, err) : NULL;
    bool ok = (in || !d->filter || !d->filter[0]) && alloc_lanes(out, m->n_g, sp.n, err);
    for (uint32_t i = 0; ok && i < sp.n; i++) /* shown goroutines, in depth-first order */
        if (shown(m, d, in, sp.order[i]))
            sp.order[n++] = sp.order[i];
    out->n_shown = n;
    bool over = d->max_lanes && n > d->max_lanes; /* one lane each is too many */
    if (ok && !d->collapse && (d->compact || over)) {
        ok = assign_compact(m, sp.order, n, out, err);
        out->compacted = true;
        over = d->max_lanes && out->n_lanes > d->max_lanes;
    }
    if (ok && (d->collapse || over))
        ok = assign_collapsed(m, sp.order, n, out, err);
    else if (ok && !out->compacted)
        for (uint32_t i = 0; i < n; i++)
            out->lane_of_g[sp.order[i]] = i;
    out->n_lanes = ok && !out->collapsed && !out->compacted ? n : out->n_lanes;
    for (uint32_t i = 0; ok && i < n; i++) {
        uint32_t g = sp.order[i], lane = out->lane_of_g[g];
        if (!out->lane_n[lane]++)
            out->lane_g[lane] = g;
    }
    ok = ok && make_labels(m, sp.order, n, out, err);
    cs_free(in);
    lay__spawn_deinit(&sp);
    return ok;
}

void lay_lanes_deinit(lay_lanes *l)
{
    cs_free(l->lane_of_g), cs_free(l->lane_g), cs_free(l->lane_n);
    cs_free(l->label_bytes), cs_free(l->label_off);
    cs_free(l->by_lane), cs_free(l->lane_first);
    memset(l, 0, sizeof *l);
}

const char *lay_lanes_label(const lay_lanes *l, uint32_t lane)
{
    return lane < l->n_lanes && l->label_bytes ? l->label_bytes + l->label_off[lane] : "";
}

uint32_t lay_lanes_alive_from(const cs_model *m, const uint32_t *gs, uint32_t ng, int64_t t)
{
    uint32_t lo = 0, hi = ng;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int64_t end = m->g[gs[mid]].end_ns;
        if (end != CS_T_NONE && end < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint32_t lay_lanes_made_from(const cs_model *m, const uint32_t *gs, uint32_t ng, int64_t t)
{
    uint32_t lo = 0, hi = ng;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int64_t made = m->g[gs[mid]].create_ns;
        if (made != CS_T_NONE && made >= t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Whether goroutine gi is alive at t: made then or before, not ended before. */
static bool alive_at(const cs_model *m, uint32_t gi, int64_t t)
{
    const cs_goroutine *g = &m->g[gi];
    return (g->create_ns == CS_T_NONE || g->create_ns <= t) && (g->end_ns == CS_T_NONE || g->end_ns >= t);
}

uint32_t lay_lanes_g_at(const cs_model *m, const lay_lanes *l, uint32_t lane, int64_t t)
{
    if (lane >= l->n_lanes)
        return 0;
    if (l->lane_n[lane] == 1 || t == CS_T_NONE)
        return l->lane_g[lane];
    if (l->by_lane) { /* at most one alive at a time, the first alive from t on */
        const uint32_t *gs = l->by_lane + l->lane_first[lane];
        uint32_t ng = l->lane_first[lane + 1] - l->lane_first[lane], k = lay_lanes_alive_from(m, gs, ng, t);
        return k < ng && alive_at(m, gs[k], t) ? gs[k] : l->lane_g[lane];
    }
    for (uint32_t gi = 1; gi < m->n_g; gi++)
        if (l->lane_of_g[gi] == lane && alive_at(m, gi, t))
            return gi;
    return l->lane_g[lane];
}
