/* decode/stream.c — a trace decoded while its stream is still being
 * written (`view --follow`): each call decodes the generations of a Go
 * 1.22+ trace that are wholly in hand, once each, and never waits for
 * bytes; the model so far can be had as a finished copy at any time. A
 * legacy trace (its events are not in time order) is decoded once its
 * stream has ended, or, from a file still being written (which never
 * ends), whole again each time it has grown and then stopped for a while.
 * The caller reads the stream (cs_file_poll). */
#include "v2.h"

struct dec_stream {
    dec_desc d;
    cs_file *f;
    cs_model m;            /* being built; finished at the end (done) */
    v2_run *run;           /* NULL before the header has come, and for legacy */
    bool legacy, done;
    bool decoded;          /* legacy: m holds a decode of the bytes in hand */
    uint64_t seen, tried;  /* legacy, a growing file: its size at the last call, at the last decode */
};

bool dec_stream_open(const dec_desc *d, cs_file *f, dec_stream **out, cs_err *err)
{
    dec_stream *ds = cs_calloc(1, sizeof *ds);
    if (!(*out = ds))
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
    ds->d = *d, ds->f = f;
    cs_model_init(&ds->m);
    return true;
}

/* The header, once 16 bytes (or the end) are in hand: the family, and for
 * 1.22+ the decode, with the defaults of a big input. */
static bool start(dec_stream *ds, cs_err *err)
{
    int version;
    cs_family fam;
    if (!dec_detect(ds->f->data, ds->f->size, &version, &fam, err))
        return false;
    ds->m.family = fam, ds->m.version = version;
    ds->legacy = fam == CS_FAM_LEGACY;
    ds->d = dec__desc_defaults(&ds->d, fam, SIZE_MAX);
    return ds->legacy || (ds->run = dec__v2_run_create(&ds->d, ds->f, version, &ds->m, NULL, err));
}

bool dec_stream_feed(dec_stream *ds, bool settled, uint32_t *added, cs_err *err)
{
    *added = 0;
    cs_file *f = ds->f;
    if (ds->done || (!ds->run && !ds->legacy && f->size < 16 && !f->ended))
        return true;
    if (!ds->run && !ds->legacy && !start(ds, err))
        return false;
    if (ds->legacy) {
        bool still = f->size == ds->seen && f->size != ds->tried; /* a growing file that paused */
        ds->seen = f->size;
        if (!f->ended && !(f->growing && still))
            return true;
        ds->done = f->ended, ds->tried = f->size;
        cs_file whole = {.data = f->data, .size = f->size, .path = f->path}; /* nothing dropped: base 0 */
        cs_model m;
        cs_model_init(&m);
        if (!dec_trace_load(&ds->d, f->ended ? f : &whole, &m, NULL, err)) {
            cs_model_deinit(&m);
            if (!f->growing)
                return false;
            *err = (cs_err){0}; /* a file cut where its writer is: again once it has more */
            return true;
        }
        cs_model_deinit(&ds->m);
        ds->m = m, ds->decoded = true, *added = 1;
        return true;
    }
    if (!dec__v2_run_gens(ds->run, false, settled, added, err))
        return false;
    if (!dec__v2_run_is_done(ds->run))
        return true;
    ds->done = true;
    return dec__v2_run_finish(ds->run, err);
}

bool dec_stream_done(const dec_stream *ds)
{
    return ds->done;
}

bool dec_stream_model(const dec_stream *ds, cs_model *out, cs_err *err)
{
    if (ds->done || ds->decoded)
        return cs_model_copy(&ds->m, out, err);
    if (!ds->run)
        return CS_FAIL(err, CS_E_INTERNAL, CS_NO_OFFSET, "no generation decoded yet");
    return dec__v2_run_model(ds->run, out, err);
}

void dec_stream_close(dec_stream *ds)
{
    if (!ds)
        return;
    dec__v2_run_destroy(ds->run);
    cs_model_deinit(&ds->m);
    cs_free(ds);
}
