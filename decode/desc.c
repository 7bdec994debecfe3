/* decode/desc.c — the decoder descriptor's defaults and the progress hook.
 * A zero field of dec_desc means "the default" (as sokol's desc structs do);
 * dec__desc_defaults() is the one place the defaults are decided, once per
 * load, before either family decoder sees the descriptor. */
#include "decode.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Below this size a second thread saves less than it costs to start. */
#define THREADS_MIN (4u << 20)
/* The least work worth a second thread (dec_desc.split_min), per family:
 * a legacy file under 8 MB is scanned on one thread; a 1.22+ generation
 * under 1 MB is ordered where it is read. */
#define SPLIT_MIN_LEGACY (8u << 20)
#define SPLIT_MIN_V2     (1u << 20)

/* What /proc's stat file at path says after the command's closing
 * parenthesis (state, parent, group, ...), in buf; NULL when unreadable. */
static const char *stat_fields(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(buf, 1, n - 1, f) : 0;
    if (f)
        fclose(f);
    buf[got] = 0;
    const char *close = strrchr(buf, ')');
    return close ? close + 1 : NULL;
}

/* This process's threads runnable now (state R in /proc/self/task/N/stat,
 * the letter after the command's closing parenthesis), this one among
 * them; 1 when they cannot be read. They are the work this load is part
 * of, not other work: the viewer makes its window while its trace is
 * decoded, for a moment. */
static long own_running(void)
{
    DIR *dir = opendir("/proc/self/task");
    if (!dir)
        return 1;
    long n = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        char path[300], stat[256];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
        const char *at = stat_fields(path, stat, sizeof stat);
        n += at && at[0] == ' ' && at[1] == 'R';
    }
    closedir(dir);
    return n > 0 ? n : 1;
}

/* Other processes of this one's process group runnable now (a
 * pipeline's other commands, `chanscope stats --json t | jq .`, starting up
 * beside it): they are the command this load is part of, and mostly wait
 * for its output. A process counts by its main thread's state (the field
 * after the command's closing parenthesis, then the parent and the group). */
static long group_running(void)
{
    DIR *dir = opendir("/proc");
    if (!dir)
        return 0;
    long n = 0;
    pid_t me = getpid(), group = getpgrp();
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        char *end, path[300], stat[512];
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == me)
            continue;
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        const char *at = stat_fields(path, stat, sizeof stat);
        char state;
        long pgrp;
        n += at && sscanf(at, " %c %*d %ld", &state, &pgrp) == 2 && state == 'R' && pgrp == (long)group;
    }
    closedir(dir);
    return n;
}

/* Other threads runnable: the fewest of four looks at the "running/total"
 * field of /proc/loadavg over about 1.5 ms (the process that started this
 * one may still be running for a moment), less this process's own and
 * its process group's; 0 when it cannot be read. */
static long others_running(void)
{
    long best = -1;
    for (int i = 0; i < 4 && best != 0; i++) {
        if (i)
            nanosleep(&(struct timespec){0, 500000}, NULL);
        FILE *f = fopen("/proc/loadavg", "r");
        long r, t;
        if (!f)
            return 0;
        bool got = fscanf(f, "%*f %*f %*f %ld/%ld", &r, &t) == 2;
        fclose(f);
        r -= got ? own_running() : 0;
        r -= got && r > 0 ? group_running() : 0;
        if (got && (best < 0 || r < best))
            best = r;
    }
    return best > 0 ? best : 0;
}

/* Threads for a file of `size` bytes: one for small files, else the online
 * cores less the threads of other work runnable right now (at least 1). */
static int threads(size_t size)
{
    if (size < THREADS_MIN)
        return 1;
    long n = sysconf(_SC_NPROCESSORS_ONLN) - others_running(); /* the cores nothing else is using */
    return n > 1 ? (int)n : 1;
}

dec_desc dec__desc_defaults(const dec_desc *d, cs_family fam, size_t size)
{
    dec_desc r = *d;
    if (r.jobs <= 0)
        r.jobs = threads(size);
    if (!r.split_min)
        r.split_min = fam == CS_FAM_LEGACY ? SPLIT_MIN_LEGACY : SPLIT_MIN_V2;
    return r;
}

bool dec__progress(const dec_desc *d, uint64_t done_bytes, uint64_t total_bytes, cs_err *err)
{
    if (!d->on_progress || d->on_progress(d->progress_ud, done_bytes, total_bytes))
        return true;
    return CS_FAIL(err, CS_E_CANCELLED, CS_NO_OFFSET, "decoding cancelled");
}
