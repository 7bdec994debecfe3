/* layout/spawn.c — the spawn tree of internal.h. Goroutines whose parent is
 * unknown are roots; over lines (line), a line's parent is the line its
 * goroutine's parent is drawn on. One sort by (parent, creation, goid)
 * gives every children list at once: stable radix sorts by creation (the
 * ties by goid), then by parent, so the build is O(n); the walk is
 * iterative (a chain of 100k goroutines must not overflow the C stack) and
 * marks visited goroutines, so even a parent cycle in a corrupt model
 * ends. */
#include "internal.h"

#include <string.h>

/* Depth-first from each root in turn; `first` slots double as cursors. */
static void walk(const cs_model *m, lay__spawn *s, uint32_t *stack, uint32_t *cursor,
                 uint8_t *seen)
{
    uint32_t n_out = 0;
    for (uint32_t pass = 0; pass < 2; pass++) {
        for (uint32_t r = 1; r < m->n_g; r++) {
            /* pass 0: real roots in creation order; pass 1: leftovers of cycles */
            uint32_t root = pass == 0 ? (r - 1 < s->first[1] ? s->child[r - 1] : 0) : r;
            if (!root || seen[root])
                continue;
            uint32_t sp = 0;
            stack[sp++] = root;
            seen[root] = 1;
            s->depth[root] = 0;
            s->order[n_out++] = root;
            while (sp) {
                uint32_t g = stack[sp - 1];
                if (cursor[g] == s->first[g + 1]) {
                    sp--;
                    continue;
                }
                uint32_t c = s->child[cursor[g]++];
                if (seen[c])
                    continue;
                seen[c] = 1;
                s->depth[c] = s->depth[g] + 1;
                s->order[n_out++] = c;
                stack[sp++] = c;
            }
        }
    }
}

/* The parent the tree gives goroutine i: 0 (a root) when it has none in
 * the model, or is its own. */
static uint32_t parent_of(const cs_model *m, uint32_t i)
{
    uint32_t p = m->g[i].parent;
    return p < m->n_g && p != i ? p : 0;
}

/* c[0, n) by creation (key holds their time keys, and is used up), the
 * ties by goid, each order stable: what a sort by goid and then a stable
 * one by creation give, with the goids sorted among the ties only (a
 * server's 2.2 M goroutines are made at times of their own). */
static bool by_creation(const cs_model *m, uint64_t *key, uint32_t *c, uint32_t n, cs_err *err)
{
    if (!lay__sort_keys(key, c, n, err))
        return false;
    for (uint32_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && key[j] == key[i]; j++)
            ;
        if (j - i < 2)
            continue;
        for (uint32_t k = i; k < j; k++)
            key[k] = m->g[c[k]].goid;
        if (!lay__sort_keys(key + i, c + i, j - i, err))
            return false;
    }
    return true;
}

bool lay__spawn_build(const cs_model *m, const uint32_t *line, lay__spawn *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    uint32_t n_all = m->n_g ? m->n_g - 1 : 0, n = 0;
    uint64_t *key = cs_alloc((size_t)n_all * sizeof *key + 1);
    uint32_t *stack = cs_alloc(((size_t)n_all + 1) * sizeof *stack);
    uint32_t *cursor = cs_alloc(((size_t)n_all + 2) * sizeof *cursor);
    uint8_t *seen = cs_calloc((size_t)n_all + 1, 1);
    out->child = cs_alloc((size_t)n_all * sizeof *out->child + 1);
    out->first = cs_calloc((size_t)n_all + 2, sizeof *out->first);
    out->order = cs_alloc((size_t)n_all * sizeof *out->order + 1);
    out->depth = cs_calloc((size_t)n_all + 1, sizeof *out->depth);
    bool made = key && stack && cursor && seen && out->child && out->first && out->order && out->depth, ok = made;
    uint32_t *c = out->child; /* goroutines, sorted a key at a time, the first last */
    for (uint32_t i = 1; ok && i <= n_all; i++)
        if (!line || line[i] == i)
            c[n] = i, key[n++] = m->g[i].goid;
        else
            seen[i] = 1; /* not in the tree */
    out->n = n;
    for (uint32_t i = 0; ok && i < n; i++)
        key[i] = lay__time_key(m->g[c[i]].create_ns);
    ok = ok && by_creation(m, key, c, n, err);
    for (uint32_t i = 0; ok && i < n; i++) {
        uint32_t p = parent_of(m, c[i]);
        p = line && p ? line[p] : p;
        key[i] = p == c[i] ? 0 : p;
    }
    ok = ok && lay__sort_keys(key, c, n, err);
    if (ok) {
        for (uint32_t i = 0; i < n; i++)
            out->first[key[i] + 1]++;
        for (uint32_t i = 1; i <= n_all + 1; i++)
            out->first[i] += out->first[i - 1];
        memcpy(cursor, out->first, ((size_t)n_all + 2) * sizeof *cursor);
        walk(m, out, stack, cursor, seen);
    }
    cs_free(key), cs_free(stack), cs_free(cursor), cs_free(seen);
    if (!ok) {
        lay__spawn_deinit(out);
        return !made ? CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a spawn tree of %u", n_all) : false;
    }
    return true;
}

void lay__spawn_order_only(lay__spawn *s)
{
    cs_free(s->child), cs_free(s->first), cs_free(s->depth);
    s->child = s->first = s->depth = NULL;
}

void lay__spawn_deinit(lay__spawn *s)
{
    cs_free(s->child), cs_free(s->first), cs_free(s->order), cs_free(s->depth);
    memset(s, 0, sizeof *s);
}
