/* core/stats.h — per-goroutine statistics as Go's own tools compute them:
 * Go 1.21's GoroutineStats for legacy traces (docs/trace-format.md §5.1) and
 * Go 1.27's Summarizer for 1.22+ traces (§5.2), quirks included. Decoders
 * fill it; cli/ prints it. Names (cs_sid) live in the model's string table.
 */
#ifndef CS_STATS_H
#define CS_STATS_H

#include "model.h"

typedef enum cs_stat_table {
    CS_STAT_BLOCK_BY_REASON = 0, /* 1.22+: BlockTimeByReason */
    CS_STAT_RANGE_TIME = 1       /* 1.22+: RangeTime */
} cs_stat_table;

typedef struct cs_stat_kv {
    cs_sid key;        /* reason or range name, exactly as Go spells it */
    uint32_t table;    /* cs_stat_table */
    int64_t ns;
} cs_stat_kv;

typedef struct cs_gstat {
    uint64_t goid;
    uint64_t pc;
    cs_sid name;
    uint32_t kv_first, kv_count;  /* entries of this goroutine in cs_stats.kv */
    int64_t creation, start, end; /* Go's values: 0 = none */
    /* legacy columns (GoroutineStats) */
    int64_t exec, sched_wait, io, block, syscall, gc, sweep, total;
    /* 1.22+ only (exec, sched_wait, syscall, total are shared) */
    int64_t syscall_block;
} cs_gstat;

typedef struct cs_stats {
    cs_family family;
    cs_gstat *g;       /* sorted by goid */
    uint32_t n, cap;
    cs_stat_kv *kv;
    uint32_t n_kv, cap_kv;
} cs_stats;

void cs_stats_deinit(cs_stats *s);
/* Puts s->g in goid order (equal goids as they were), moving each row
 * once: a sort of 16-byte keys, then cs_permute. CS_E_NOMEM. */
bool cs_stats_sort(cs_stats *s, cs_err *err);

#endif
