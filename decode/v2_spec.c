/* decode/v2_spec.c — the event table of the Go 1.22+ wire format: name,
 * argument count, public kind and which arguments are stacks or strings, for
 * every type of wire versions 1.22, 1.23, 1.25 and 1.26 (docs/trace-format.md §4.5;
 * taken from Go's internal/trace/tracev2/spec.go). Nothing here allocates.
 *
 * Columns: name, nargs (dt included), kind, timed, stack (1-based index after
 * dt of the event's stack), stack2 (GoCreate's new_stack), strmask (bit i =
 * argument i after dt is a string id), minver. */
#include "v2.h"

#define S(name, n, kind, timed, stk, stk2, str, ver) {name, n, kind, timed, stk, stk2, str, ver}

const v2_spec dec__v2_specs[137] = {
    [V2_EvEventBatch] = S("EventBatch", 4, V2K_NONE, 0, 0, 0, 0, 1022),
    [V2_EvStacks] = S("Stacks", 0, V2K_NONE, 0, 0, 0, 0, 1022),
    [V2_EvStack] = S("Stack", 2, V2K_NONE, 0, 0, 0, 0, 1022),
    [V2_EvStrings] = S("Strings", 0, V2K_NONE, 0, 0, 0, 0, 1022),
    [V2_EvString] = S("String", 1, V2K_NONE, 0, 0, 0, 0, 1022),
    [V2_EvCPUSamples] = S("CPUSamples", 0, V2K_NONE, 0, 0, 0, 0, 1022),
    [V2_EvCPUSample] = S("CPUSample", 5, V2K_STACK_SAMPLE, 1, 0, 0, 0, 1022),
    [V2_EvFrequency] = S("Frequency", 1, V2K_NONE, 0, 0, 0, 0, 1022),
    [V2_EvProcsChange] = S("ProcsChange", 3, V2K_METRIC, 1, 2, 0, 0, 1022),
    [V2_EvProcStart] = S("ProcStart", 3, V2K_STATE, 1, 0, 0, 0, 1022),
    [V2_EvProcStop] = S("ProcStop", 1, V2K_STATE, 1, 0, 0, 0, 1022),
    [V2_EvProcSteal] = S("ProcSteal", 4, V2K_STATE, 1, 0, 0, 0, 1022),
    [V2_EvProcStatus] = S("ProcStatus", 3, V2K_STATE, 1, 0, 0, 0, 1022),
    [V2_EvGoCreate] = S("GoCreate", 4, V2K_STATE, 1, 3, 2, 0, 1022),
    [V2_EvGoCreateSyscall] = S("GoCreateSyscall", 2, V2K_STATE, 1, 0, 0, 0, 1022),
    [V2_EvGoStart] = S("GoStart", 3, V2K_STATE, 1, 0, 0, 0, 1022),
    [V2_EvGoDestroy] = S("GoDestroy", 1, V2K_STATE, 1, 0, 0, 0, 1022),
    [V2_EvGoDestroySyscall] = S("GoDestroySyscall", 1, V2K_STATE, 1, 0, 0, 0, 1022),
    [V2_EvGoStop] = S("GoStop", 3, V2K_STATE, 1, 2, 0, 1, 1022),
    [V2_EvGoBlock] = S("GoBlock", 3, V2K_STATE, 1, 2, 0, 1, 1022),
    [V2_EvGoUnblock] = S("GoUnblock", 4, V2K_STATE, 1, 3, 0, 0, 1022),
    [V2_EvGoSyscallBegin] = S("GoSyscallBegin", 3, V2K_STATE, 1, 2, 0, 0, 1022),
    [V2_EvGoSyscallEnd] = S("GoSyscallEnd", 1, V2K_STATE, 1, 0, 0, 0, 1022),
    [V2_EvGoSyscallEndBlocked] = S("GoSyscallEndBlocked", 1, V2K_STATE, 1, 0, 0, 0, 1022),
    [V2_EvGoStatus] = S("GoStatus", 4, V2K_STATE, 1, 0, 0, 0, 1022),
    [V2_EvSTWBegin] = S("STWBegin", 3, V2K_RANGE_BEGIN, 1, 2, 0, 1, 1022),
    [V2_EvSTWEnd] = S("STWEnd", 1, V2K_RANGE_END, 1, 0, 0, 0, 1022),
    [V2_EvGCActive] = S("GCActive", 2, V2K_RANGE_ACTIVE, 1, 0, 0, 0, 1022),
    [V2_EvGCBegin] = S("GCBegin", 3, V2K_RANGE_BEGIN, 1, 2, 0, 0, 1022),
    [V2_EvGCEnd] = S("GCEnd", 2, V2K_RANGE_END, 1, 0, 0, 0, 1022),
    [V2_EvGCSweepActive] = S("GCSweepActive", 2, V2K_RANGE_ACTIVE, 1, 0, 0, 0, 1022),
    [V2_EvGCSweepBegin] = S("GCSweepBegin", 2, V2K_RANGE_BEGIN, 1, 1, 0, 0, 1022),
    [V2_EvGCSweepEnd] = S("GCSweepEnd", 3, V2K_RANGE_END, 1, 0, 0, 0, 1022),
    [V2_EvGCMarkAssistActive] = S("GCMarkAssistActive", 2, V2K_RANGE_ACTIVE, 1, 0, 0, 0, 1022),
    [V2_EvGCMarkAssistBegin] = S("GCMarkAssistBegin", 2, V2K_RANGE_BEGIN, 1, 1, 0, 0, 1022),
    [V2_EvGCMarkAssistEnd] = S("GCMarkAssistEnd", 1, V2K_RANGE_END, 1, 0, 0, 0, 1022),
    [V2_EvHeapAlloc] = S("HeapAlloc", 2, V2K_METRIC, 1, 0, 0, 0, 1022),
    [V2_EvHeapGoal] = S("HeapGoal", 2, V2K_METRIC, 1, 0, 0, 0, 1022),
    [V2_EvGoLabel] = S("GoLabel", 2, V2K_LABEL, 1, 0, 0, 1, 1022),
    [V2_EvUserTaskBegin] = S("UserTaskBegin", 5, V2K_TASK_BEGIN, 1, 4, 0, 4, 1022),
    [V2_EvUserTaskEnd] = S("UserTaskEnd", 3, V2K_TASK_END, 1, 2, 0, 0, 1022),
    [V2_EvUserRegionBegin] = S("UserRegionBegin", 4, V2K_REGION_BEGIN, 1, 3, 0, 2, 1022),
    [V2_EvUserRegionEnd] = S("UserRegionEnd", 4, V2K_REGION_END, 1, 3, 0, 2, 1022),
    [V2_EvUserLog] = S("UserLog", 5, V2K_LOG, 1, 4, 0, 6, 1022),
    [V2_EvGoSwitch] = S("GoSwitch", 3, V2K_STATE, 1, 0, 0, 0, 1023),
    [V2_EvGoSwitchDestroy] = S("GoSwitchDestroy", 3, V2K_STATE, 1, 0, 0, 0, 1023),
    [V2_EvGoCreateBlocked] = S("GoCreateBlocked", 4, V2K_STATE, 1, 3, 2, 0, 1023),
    [V2_EvGoStatusStack] = S("GoStatusStack", 5, V2K_STATE, 1, 4, 0, 0, 1023),
    [V2_EvExperimentalBatch] = S("ExperimentalBatch", 0, V2K_NONE, 0, 0, 0, 0, 1023),
    [V2_EvSync] = S("Sync", 0, V2K_NONE, 0, 0, 0, 0, 1025),
    [V2_EvClockSnapshot] = S("ClockSnapshot", 4, V2K_NONE, 1, 0, 0, 0, 1025),
    [V2_EvEndOfGeneration] = S("EndOfGeneration", 0, V2K_NONE, 0, 0, 0, 0, 1026),
    /* AllocFree experiment */
    [128] = S("Span", 4, V2K_EXPERIMENTAL, 1, 0, 0, 0, 1023),
    [129] = S("SpanAlloc", 4, V2K_EXPERIMENTAL, 1, 0, 0, 0, 1023),
    [130] = S("SpanFree", 2, V2K_EXPERIMENTAL, 1, 0, 0, 0, 1023),
    [131] = S("HeapObject", 3, V2K_EXPERIMENTAL, 1, 0, 0, 0, 1023),
    [132] = S("HeapObjectAlloc", 3, V2K_EXPERIMENTAL, 1, 0, 0, 0, 1023),
    [133] = S("HeapObjectFree", 2, V2K_EXPERIMENTAL, 1, 0, 0, 0, 1023),
    [134] = S("GoroutineStack", 3, V2K_EXPERIMENTAL, 1, 0, 0, 0, 1023),
    [135] = S("GoroutineStackAlloc", 3, V2K_EXPERIMENTAL, 1, 0, 0, 0, 1023),
    [136] = S("GoroutineStackFree", 2, V2K_EXPERIMENTAL, 1, 0, 0, 0, 1023),
};

const char *const dec__v2_kind_names[V2K_COUNT] = {
    [V2K_NONE] = "", [V2K_SYNC] = "Sync", [V2K_METRIC] = "Metric", [V2K_LABEL] = "Label",
    [V2K_STACK_SAMPLE] = "StackSample", [V2K_RANGE_BEGIN] = "RangeBegin",
    [V2K_RANGE_ACTIVE] = "RangeActive", [V2K_RANGE_END] = "RangeEnd",
    [V2K_TASK_BEGIN] = "TaskBegin", [V2K_TASK_END] = "TaskEnd",
    [V2K_REGION_BEGIN] = "RegionBegin", [V2K_REGION_END] = "RegionEnd", [V2K_LOG] = "Log",
    [V2K_STATE] = "StateTransition", [V2K_EXPERIMENTAL] = "Experimental",
};

const v2_spec *dec__v2_spec(unsigned type, int version)
{
    if (type >= sizeof dec__v2_specs / sizeof *dec__v2_specs)
        return NULL;
    const v2_spec *s = &dec__v2_specs[type];
    return s->name && s->minver <= version ? s : NULL;
}
