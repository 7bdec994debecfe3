// iterpull: iter.Pull over generators (coroutine switches), one of which
// receives from a channel fed by another goroutine; stop before exhaustion.
package main

import (
	"fmt"
	"iter"
	"os"
	"runtime/trace"
)

func count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func fromChan(c chan int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for v := range c {
			if !yield(v) {
				return
			}
		}
	}
}

func main() {
	f, _ := os.Create(os.Args[1])
	trace.Start(f)
	next, stop := iter.Pull(count(200))
	s := 0
	pulls := 0
	for {
		v, ok := next()
		if !ok {
			break
		}
		pulls++
		s += v
	}
	stop()
	c := make(chan int)
	go func() {
		for i := 0; i < 100; i++ {
			c <- i
		}
		close(c)
	}()
	next2, stop2 := iter.Pull(fromChan(c))
	got := 0
	for i := 0; i < 50; i++ {
		if _, ok := next2(); ok {
			got++
		}
	}
	stop2() // generator stops early; sender will block forever after that
	trace.Stop()
	f.Close()
	fmt.Printf("{\"program\":\"iterpull\",\"pulls\":%d,\"sum\":%d,\"chan_got\":%d}\n", pulls, s, got)
}
