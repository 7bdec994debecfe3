/* decode/legacy_post.c — Go's post-merge steps on a materialised event list
 * (docs/trace-format.md §3.8–3.9): the order check, GoSysExit real times with a
 * stable re-sort (order1007), and removeFutile. Used for Go 1.5 traces,
 * traces containing FutileWakeup, and callers that want every event in Go's
 * exact order. */
#include "legacy.h"

#include <string.h>

bool dec__lg_list_push(dec__lg_list *l, const dec__lg_ev *ev, cs_err *err)
{
    if (l->n == l->cap && !cs_grow((void **)&l->ev, &l->cap, l->n + 1, sizeof *l->ev, err))
        return false;
    l->ev[l->n++] = *ev;
    return true;
}

void dec__lg_list_free(dec__lg_list *l)
{
    cs_free(l->ev);
    memset(l, 0, sizeof *l);
}

/* Stable merge sort by ts (Go's sort.Stable). */
static void sort_stable(dec__lg_ev *a, dec__lg_ev *tmp, uint32_t n)
{
    if (n < 2)
        return;
    uint32_t h = n / 2;
    sort_stable(a, tmp, h);
    sort_stable(a + h, tmp, n - h);
    if (a[h - 1].ts <= a[h].ts)
        return;
    uint32_t i = 0, j = h, o = 0;
    while (i < h && j < n)
        tmp[o++] = a[j].ts < a[i].ts ? a[j++] : a[i++];
    while (i < h)
        tmp[o++] = a[i++];
    while (j < n)
        tmp[o++] = a[j++];
    memcpy(a, tmp, (size_t)n * sizeof *a);
}

typedef struct sysblock {
    cs_map idx;
    int64_t *ts;
    uint32_t n, cap;
} sysblock;

static int64_t *sys_slot(sysblock *sb, uint64_t g, cs_err *err)
{
    uint32_t i;
    if (cs_map_get(&sb->idx, g, &i))
        return &sb->ts[i];
    if (!cs_grow((void **)&sb->ts, &sb->cap, sb->n + 1, sizeof *sb->ts, err) ||
        !cs_map_put(&sb->idx, g, sb->n, err))
        return NULL;
    sb->ts[sb->n] = 0;
    return &sb->ts[sb->n++];
}

static bool fix_sysexit(dec__lg_list *l, cs_err *err)
{
    sysblock sb = {0};
    bool ok = true;
    for (uint32_t i = 0; ok && i < l->n; i++) {
        dec__lg_ev *ev = &l->ev[i];
        if (ev->type != LG_SYSBLOCK && ev->type != LG_GOINSYSCALL && ev->type != LG_SYSEXIT)
            continue;
        int64_t *blk = sys_slot(&sb, ev->g, err);
        if (!blk)
            ok = false;
        else if (ev->type != LG_SYSEXIT)
            *blk = ev->ts;
        else if (ev->args[2] && !*blk)
            ok = CS_FAIL(err, CS_E_INVALID, ev->off, "stray syscall exit");
        else if (ev->args[2] && (int64_t)ev->args[2] < *blk)
            ok = CS_FAIL(err, CS_E_INVALID, ev->off, "time stamps out of order");
        else if (ev->args[2])
            ev->ts = (int64_t)ev->args[2];
    }
    cs_map_deinit(&sb.idx);
    cs_free(sb.ts);
    return ok;
}

bool dec__lg_post1007(dec__lg_list *l, cs_err *err)
{
    for (uint32_t i = 1; i < l->n; i++)
        if (l->ev[i].ts < l->ev[i - 1].ts)
            return CS_FAIL(err, CS_E_INVALID, l->ev[i].off, "time stamps out of order");
    if (!fix_sysexit(l, err))
        return false;
    dec__lg_ev *tmp = cs_alloc((size_t)l->n * sizeof *tmp + 1);
    if (!tmp)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory sorting %u events", l->n);
    sort_stable(l->ev, tmp, l->n);
    cs_free(tmp);
    return true;
}

/* removeFutile: per goroutine the wake-up chain since its last GoUnblock
 * (linked through `next`), and whether a FutileWakeup was seen. */
typedef struct futg {
    uint32_t head, tail;    /* event index + 1 */
    uint8_t futile;
} futg;

static bool is_block(uint8_t t)
{
    return t == LG_GOBLOCK || t == LG_BLOCKSEND || t == LG_BLOCKRECV || t == LG_BLOCKSELECT ||
           t == LG_BLOCKSYNC || t == LG_BLOCKCOND;
}

static futg *fut_slot(cs_map *idx, futg **arr, uint32_t *n, uint32_t *cap, uint64_t g, cs_err *err)
{
    uint32_t i;
    if (cs_map_get(idx, g, &i))
        return &(*arr)[i];
    if (!cs_grow((void **)arr, cap, *n + 1, sizeof **arr, err) || !cs_map_put(idx, g, *n, err))
        return NULL;
    memset(&(*arr)[*n], 0, sizeof **arr);
    return &(*arr)[(*n)++];
}

bool dec__lg_remove_futile(dec__lg_list *l, cs_err *err)
{
    cs_map idx = {0};
    futg *gs = NULL;
    uint32_t n = 0, cap = 0;
    uint32_t *next = cs_calloc((size_t)l->n + 1, sizeof *next);
    bool ok = next != NULL;
    if (!ok)
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for futile wake-ups");
    for (uint32_t i = 0; ok && i < l->n; i++) {
        dec__lg_ev *ev = &l->ev[i];
        uint8_t t = ev->type;
        if (t != LG_GOUNBLOCK && t != LG_GOSTART && t != LG_GOPREEMPT && t != LG_FUTILE && !is_block(t))
            continue;
        futg *g = fut_slot(&idx, &gs, &n, &cap, t == LG_GOUNBLOCK ? ev->args[0] : ev->g, err);
        if (!g) {
            ok = false;
        } else if (t == LG_GOUNBLOCK) {
            g->head = g->tail = i + 1;
            next[i] = 0;
        } else if (!is_block(t)) {
            if (g->tail)
                next[g->tail - 1] = i + 1;
            else
                g->head = i + 1;
            g->tail = i + 1;
            next[i] = 0;
            g->futile |= t == LG_FUTILE;
        } else {
            if (g->futile) {
                ev->dead = 1;
                for (uint32_t j = g->head; j; j = next[j - 1])
                    l->ev[j - 1].dead = 1;
            }
            memset(g, 0, sizeof *g); /* Go deletes the record */
        }
    }
    cs_free(next);
    cs_free(gs);
    cs_map_deinit(&idx);
    return ok;
}
