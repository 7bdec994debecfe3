/* export/perfetto.h — `chanscope perfetto`: the trace as Chrome trace-event
 * JSON that the Perfetto UI and chrome://tracing open. One process, one
 * thread per goroutine (thread_name "G17 main.worker", thread_sort_index in
 * spawn-tree order so children sit under their parents), state spans as
 * complete ("X") slices, GC and stop-the-world on their own track, and every
 * channel message as a flow arrow ("s" at the send on the sender's thread,
 * "f" with bp "e" at the receive on the receiver's); spawns and sync
 * wake-ups are flows too (categories "spawn", "sync"). Times are µs from the
 * trace start with ns precision. Streams through the writer: memory does not
 * grow with the output.
 *
 * API
 *   bool exp_perfetto_write_to(cs_write_fn *fn, void *ctx, const cs_model *m,
 *                              const exp_perfetto_desc *d, cs_err *err)
 *   bool exp_perfetto_write(const char *path, const cs_model *m, const exp_perfetto_desc *d, cs_err *err)
 *       atomic: path.tmp then rename; "-" writes to standard output
 */
#ifndef EXP_PERFETTO_H
#define EXP_PERFETTO_H

#include "../core/model.h"

typedef struct exp_perfetto_desc {
    const char *name;     /* process name: the trace's file name; NULL = "go trace" */
    bool hide_system;     /* leave out runtime goroutines */
} exp_perfetto_desc;

bool exp_perfetto_write_to(cs_write_fn *fn, void *ctx, const cs_model *m,
                           const exp_perfetto_desc *d, cs_err *err);
bool exp_perfetto_write(const char *path, const cs_model *m, const exp_perfetto_desc *d,
                        cs_err *err);

#endif
