/* decode/legacy_table.c — the legacy event table (docs/trace-format.md §3.4,
 * names as Go 1.21's internal/trace spells them), which wire types each
 * header version allows, the gotrace patched-runtime types (§7), and Go
 * 1.19's argNum rule (§3.2). */
#include "legacy.h"

const dec__lg_desc dec__lg_descs[LG_NTYPES] = {
    [LG_NONE] = {"None", 0, 0, 0},
    [LG_BATCH] = {"Batch", 1005, 2, 0},
    [LG_FREQUENCY] = {"Frequency", 1005, 1, 0},
    [LG_STACK] = {"Stack", 1005, 2, 0},
    [LG_GOMAXPROCS] = {"Gomaxprocs", 1005, 1, 1},
    [LG_PROCSTART] = {"ProcStart", 1005, 1, 0},
    [LG_PROCSTOP] = {"ProcStop", 1005, 0, 0},
    [LG_GCSTART] = {"GCStart", 1005, 1, 1},
    [LG_GCDONE] = {"GCDone", 1005, 0, 0},
    [LG_STWSTART] = {"STWStart", 1005, 1, 0},
    [LG_STWDONE] = {"STWDone", 1005, 0, 0},
    [LG_SWEEPSTART] = {"GCSweepStart", 1005, 0, 1},
    [LG_SWEEPDONE] = {"GCSweepDone", 1005, 2, 0},
    [LG_GOCREATE] = {"GoCreate", 1005, 2, 1},
    [LG_GOSTART] = {"GoStart", 1005, 2, 0},
    [LG_GOEND] = {"GoEnd", 1005, 0, 0},
    [LG_GOSTOP] = {"GoStop", 1005, 0, 1},
    [LG_GOSCHED] = {"GoSched", 1005, 0, 1},
    [LG_GOPREEMPT] = {"GoPreempt", 1005, 0, 1},
    [LG_GOSLEEP] = {"GoSleep", 1005, 0, 1},
    [LG_GOBLOCK] = {"GoBlock", 1005, 0, 1},
    [LG_GOUNBLOCK] = {"GoUnblock", 1005, 2, 1},
    [LG_BLOCKSEND] = {"GoBlockSend", 1005, 0, 1},
    [LG_BLOCKRECV] = {"GoBlockRecv", 1005, 0, 1},
    [LG_BLOCKSELECT] = {"GoBlockSelect", 1005, 0, 1},
    [LG_BLOCKSYNC] = {"GoBlockSync", 1005, 0, 1},
    [LG_BLOCKCOND] = {"GoBlockCond", 1005, 0, 1},
    [LG_BLOCKNET] = {"GoBlockNet", 1005, 0, 1},
    [LG_SYSCALL] = {"GoSysCall", 1005, 0, 1},
    [LG_SYSEXIT] = {"GoSysExit", 1005, 3, 0},
    [LG_SYSBLOCK] = {"GoSysBlock", 1005, 0, 0},
    [LG_GOWAITING] = {"GoWaiting", 1005, 1, 0},
    [LG_GOINSYSCALL] = {"GoInSyscall", 1005, 1, 0},
    [LG_HEAPALLOC] = {"HeapAlloc", 1005, 1, 0},
    [LG_HEAPGOAL] = {"HeapGoal", 1005, 1, 0},
    [LG_TIMERG] = {"TimerGoroutine", 1005, 1, 0},
    [LG_FUTILE] = {"FutileWakeup", 1005, 0, 0},
    [LG_STRING] = {"String", 1007, 0, 0},
    [LG_STARTLOCAL] = {"GoStartLocal", 1007, 1, 0},
    [LG_UNBLOCKLOCAL] = {"GoUnblockLocal", 1007, 1, 1},
    [LG_SYSEXITLOCAL] = {"GoSysExitLocal", 1007, 2, 0},
    [LG_STARTLABEL] = {"GoStartLabel", 1008, 3, 0},
    [LG_BLOCKGC] = {"GoBlockGC", 1008, 0, 1},
    [LG_ASSISTSTART] = {"GCMarkAssistStart", 1009, 0, 1},
    [LG_ASSISTDONE] = {"GCMarkAssistDone", 1009, 0, 0},
    [LG_TASKCREATE] = {"UserTaskCreate", 1011, 3, 1},
    [LG_TASKEND] = {"UserTaskEnd", 1011, 1, 1},
    [LG_REGION] = {"UserRegion", 1011, 3, 1},
    [LG_LOG] = {"UserLog", 1011, 2, 1},
    [LG_CPUSAMPLE] = {"CPUSample", 1019, 3, 1},
    [LG_GOSEND] = {"GoSend", 1005, 3, 0},
    [LG_GORECV] = {"GoRecv", 1005, 3, 0},
};

/* Highest official wire type per header version (§7 recognition rule). */
static unsigned max_type(int ver)
{
    if (ver < 1007) return 36;
    if (ver < 1008) return 40;
    if (ver < 1009) return 42;
    if (ver < 1011) return 44;
    if (ver < 1019) return 48;
    return 49;
}

int dec__lg_type(unsigned wire, int ver)
{
    unsigned max = max_type(ver);
    if (wire == max + 1)
        return LG_GOSEND;
    if (wire == max + 2)
        return LG_GORECV;
    if (wire == 0 || wire > max || dec__lg_descs[wire].min_ver > ver)
        return LG_NONE;
    return (int)wire;
}

unsigned dec__lg_argnum(int t, int ver)
{
    const dec__lg_desc *d = &dec__lg_descs[t];
    unsigned n = d->nargs + d->stack;
    if (t == LG_BATCH || t == LG_FREQUENCY || t == LG_TIMERG)
        return ver < 1007 ? n + 1 : n;
    n++; /* timestamp */
    if (ver < 1007)
        n++; /* sequence */
    if (t == LG_SWEEPDONE && ver < 1009)
        n -= 2;
    if ((t == LG_GCSTART || t == LG_GOSTART || t == LG_GOUNBLOCK) && ver < 1007)
        n--;
    if (t == LG_STWSTART && ver < 1010)
        n--;
    return n;
}

void dec__lg_vtab_init(dec__lg_vtab *v, int ver)
{
    v->ver = ver;
    for (unsigned w = 0; w < 64; w++)
        v->type[w] = (uint8_t)dec__lg_type(w, ver);
    for (int t = 0; t < LG_NTYPES; t++) {
        v->argn[t] = (uint8_t)dec__lg_argnum(t, ver);
        v->plain[t] = t != LG_NONE && t != LG_BATCH && t != LG_FREQUENCY && t != LG_STACK && t != LG_TIMERG &&
                      t != LG_STRING && t != LG_LOG && t != LG_CPUSAMPLE;
    }
}
