// regions: an annotated worker pool, with tracing on. Usage: regions OUT W N
// [PAUSE]: W workers, each inside a user region ("worker") for its whole
// life, take N requests from a channel and handle each inside nested
// regions ("handle" around "compute", and a sleep of PAUSE, e.g. 5ms, in
// "handle" after it), sending a result on a buffered channel; a feeder in a
// region of its own sends the requests, all inside one user task. Regions
// of many goroutines open and close between one another's, any cut of the
// trace falls inside some, and with a pause they stay open from one
// generation into the next (Go starts one about every second).
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/trace"
	"strconv"
	"sync"
	"time"
)

func main() {
	if len(os.Args) != 4 && len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: regions OUT W N [PAUSE]")
		os.Exit(2)
	}
	workers, err1 := strconv.Atoi(os.Args[2])
	reqs, err2 := strconv.Atoi(os.Args[3])
	if err1 != nil || err2 != nil || workers < 1 || reqs < 0 {
		fmt.Fprintln(os.Stderr, "regions: W and N are counts")
		os.Exit(2)
	}
	var pause time.Duration
	if len(os.Args) == 5 {
		var err error
		if pause, err = time.ParseDuration(os.Args[4]); err != nil || pause < 0 {
			fmt.Fprintln(os.Stderr, "regions: PAUSE is a duration, e.g. 5ms")
			os.Exit(2)
		}
	}
	f, err := os.Create(os.Args[1])
	if err == nil {
		err = trace.Start(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "regions:", err)
		os.Exit(1)
	}
	ctx, task := trace.NewTask(context.Background(), "serve")
	in := make(chan int)
	res := make(chan int, 16)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer trace.StartRegion(ctx, "worker").End()
			for v := range in {
				handle := trace.StartRegion(ctx, "handle")
				compute := trace.StartRegion(ctx, "compute")
				x := v
				for i := 0; i < 20000; i++ {
					x = x*31 + i
				}
				compute.End()
				if pause > 0 {
					time.Sleep(pause)
				}
				res <- x
				handle.End()
			}
		}()
	}
	go func() {
		defer trace.StartRegion(ctx, "feed").End()
		for i := 0; i < reqs; i++ {
			in <- i
		}
		close(in)
	}()
	go func() { wg.Wait(); close(res) }()
	sum := 0
	for x := range res {
		sum += x
	}
	task.End()
	trace.Stop()
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "regions:", err)
		os.Exit(1)
	}
	fmt.Println("sum", sum)
}
