// server: a program shaped like a server, one short-lived goroutine per
// request, with tracing on. A dispatcher starts a handler per request, at
// most 64 at once (a semaphore channel); each computes a little and hands
// its result to a collector on an unbuffered channel. Millions of
// goroutines, a few dozen alive at a time: about 107 MB of trace for
// N = 2200000 with Go 1.27. Usage: server OUT N
package main

import (
	"fmt"
	"os"
	"runtime/trace"
	"strconv"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: server OUT N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil || n < 1 {
		fmt.Fprintln(os.Stderr, "server: N must be a positive number")
		os.Exit(2)
	}
	f, err := os.Create(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := trace.Start(f); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	results := make(chan int)
	slots := make(chan struct{}, 64)
	done := make(chan int)
	go func() { // the collector
		sum := 0
		for i := 0; i < n; i++ {
			sum += <-results
		}
		done <- sum
	}()
	for i := 0; i < n; i++ {
		slots <- struct{}{}
		go func(i int) { // a request's handler
			x := 0
			for k := 0; k < 50; k++ {
				x += k * i
			}
			results <- x
			<-slots
		}(i)
	}
	fmt.Println(<-done)
	trace.Stop()
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
