// tools/oracle/main.go — the reference that chanscope's tests compare with:
// Go's own trace reader (internal/trace: NewReader, ReadEvent) and its
// Summarizer, the code behind `go tool trace`, printing what they report
// about one trace as JSON (the NAME.oracle*.json files beside the test
// traces).
//
// internal/trace is internal to the Go source tree, so this program is built
// from inside a Go toolchain's source tree, as $GOROOT/src/cmd/csoracle
// (tools/oracle.sh does that).
//
// Usage:
//
//	csoracle TRACE        print the oracle JSON for TRACE
//	csoracle -read TRACE  only read every event (no Summarizer) and print
//	                      the event count: times Go's reader alone
//
// The JSON holds: events (every event ReadEvent returns, Sync events
// included) and event_counts by EventKind name; first_ts and last_ts, the
// times of the first and last events; goroutines, the Summarizer's statistics
// sorted by ID (times are trace timestamps in ns, durations in ns); and
// unblocks, every goroutine Waiting->Runnable transition in event order with
// the woken goroutine's reason from its last Running->Waiting transition and
// the event's stack (function names, innermost first; null with no stack).
package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"internal/trace"
	"io"
	"os"
	"slices"
	"time"
)

type goroutine struct {
	ID            trace.GoID
	Name          string
	PC            uint64
	Creation      trace.Time
	Start         trace.Time
	End           trace.Time
	Exec          time.Duration
	SchedWait     time.Duration
	BlockByReason map[string]time.Duration
	Syscall       time.Duration
	SyscallBlock  time.Duration
	Total         time.Duration
	RangeTime     map[string]time.Duration
}

type unblock struct {
	Ts      trace.Time
	From    trace.GoID
	To      trace.GoID
	Blocked string
	Stack   []string
}

type oracle struct {
	EventCounts map[string]int `json:"event_counts"`
	Events      int            `json:"events"`
	FirstTs     trace.Time     `json:"first_ts"`
	Goroutines  []goroutine    `json:"goroutines"`
	LastTs      trace.Time     `json:"last_ts"`
	Unblocks    []unblock      `json:"unblocks"`
}

func main() {
	args := os.Args[1:]
	readOnly := len(args) == 2 && args[0] == "-read"
	if readOnly {
		args = args[1:]
	}
	if len(args) != 1 || args[0] == "" || args[0][0] == '-' {
		fmt.Fprintln(os.Stderr, "usage: csoracle [-read] TRACE")
		os.Exit(2)
	}
	f, err := os.Open(args[0])
	if err != nil {
		fail(err)
	}
	defer f.Close()
	r, err := trace.NewReader(f)
	if err != nil {
		fail(err)
	}

	if readOnly {
		n := 0
		for {
			_, err := r.ReadEvent()
			if err == io.EOF {
				break
			}
			if err != nil {
				fail(err)
			}
			n++
		}
		fmt.Println(n)
		return
	}

	out := oracle{EventCounts: map[string]int{}, Unblocks: []unblock{}}
	sum := trace.NewSummarizer()
	blockReason := map[trace.GoID]string{}
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			fail(err)
		}
		sum.Event(&ev)
		if out.Events == 0 {
			out.FirstTs = ev.Time()
		}
		out.LastTs = ev.Time()
		out.Events++
		out.EventCounts[ev.Kind().String()]++

		if ev.Kind() != trace.EventStateTransition {
			continue
		}
		st := ev.StateTransition()
		if st.Resource.Kind != trace.ResourceGoroutine {
			continue
		}
		id := st.Resource.Goroutine()
		from, to := st.Goroutine()
		switch {
		case from == trace.GoRunning && to == trace.GoWaiting:
			blockReason[id] = st.Reason
		case from == trace.GoWaiting && to == trace.GoRunnable:
			u := unblock{Ts: ev.Time(), From: ev.Goroutine(), To: id, Blocked: blockReason[id]}
			if stk := ev.Stack(); stk != trace.NoStack {
				u.Stack = []string{}
				for frame := range stk.Frames() {
					u.Stack = append(u.Stack, frame.Func)
				}
			}
			out.Unblocks = append(out.Unblocks, u)
		}
	}

	out.Goroutines = []goroutine{}
	for _, g := range sum.Finalize().Goroutines {
		out.Goroutines = append(out.Goroutines, goroutine{
			ID:            g.ID,
			Name:          g.Name,
			PC:            g.PC,
			Creation:      g.CreationTime,
			Start:         g.StartTime,
			End:           g.EndTime,
			Exec:          g.ExecTime,
			SchedWait:     g.SchedWaitTime,
			BlockByReason: g.BlockTimeByReason,
			Syscall:       g.SyscallTime,
			SyscallBlock:  g.SyscallBlockTime,
			Total:         g.TotalTime,
			RangeTime:     g.RangeTime,
		})
	}
	slices.SortFunc(out.Goroutines, func(a, b goroutine) int { return cmp.Compare(a.ID, b.ID) })

	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "csoracle:", err)
	os.Exit(1)
}
