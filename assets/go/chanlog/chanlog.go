// Package chanlog makes channel traffic visible in a Go execution trace,
// buffered channels included, with a stock runtime: call Send and Recv
// instead of `ch <- v` and `<-ch`, and each operation is announced with
// runtime/trace.Log. chanscope pairs the announcements into exact messages
// (sender, receiver, times, value):
//
//	category "chan.send", logged just before the send:   "ch=<id> seq=<n> val=<v>"
//	category "chan.recv", logged just after the receive: "ch=<id> seq=<n> val=<v>"
//
// <id> is the channel's address (%p) and <n> counts the operations on that
// channel from 0, separately for sends and receives, so the n-th send pairs
// with the n-th receive (channels are FIFO). <v> is the value formatted with
// %v. Nothing is logged while tracing is off, apart from the counting.
//
// To keep the counts in the channel's own order, concurrent senders on one
// channel take turns on a mutex held across the send (and receivers across
// the receive): a second sender waiting behind a blocked first one shows up
// in the trace as a sync wait rather than a channel wait. Closing a channel
// needs no wrapper; Recv reports ok == false like `v, ok := <-ch` and logs
// nothing then. Use one wrapper consistently for all traffic on a channel:
// a plain `ch <- v` next to Send shifts the counts.
package chanlog

import (
	"context"
	"fmt"
	"runtime/trace"
	"sync"
)

type counter struct {
	sendMu, recvMu sync.Mutex
	sends, recvs   uint64
}

var counters sync.Map // channel (as any) -> *counter

func counterOf(ch any) *counter {
	if c, ok := counters.Load(ch); ok {
		return c.(*counter)
	}
	c, _ := counters.LoadOrStore(ch, new(counter))
	return c.(*counter)
}

// Send logs "chan.send" and then sends v on ch.
func Send[T any](ctx context.Context, ch chan T, v T) {
	c := counterOf(ch)
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	if trace.IsEnabled() {
		trace.Log(ctx, "chan.send", fmt.Sprintf("ch=%p seq=%d val=%v", ch, c.sends, v))
	}
	c.sends++
	ch <- v
}

// Recv receives from ch and then logs "chan.recv". ok is false when ch is
// closed and drained; nothing is logged then.
func Recv[T any](ctx context.Context, ch chan T) (v T, ok bool) {
	c := counterOf(ch)
	c.recvMu.Lock()
	defer c.recvMu.Unlock()
	v, ok = <-ch
	if !ok {
		return v, false
	}
	if trace.IsEnabled() {
		trace.Log(ctx, "chan.recv", fmt.Sprintf("ch=%p seq=%d val=%v", ch, c.recvs, v))
	}
	c.recvs++
	return v, true
}

// Forget drops the counts of ch, for programs that make many short-lived
// channels; call it once nobody sends on or receives from ch any more.
func Forget[T any](ch chan T) {
	counters.Delete(ch)
}
