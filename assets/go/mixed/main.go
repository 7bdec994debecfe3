// mixed: a worker pool and a pipeline side by side, with tracing on: 64
// workers take N jobs from a buffered channel, add their sizes under a
// mutex and hand each result on through a select with a timeout, while
// N/4 values pass through a pipeline of 200 stages on unbuffered channels
// that close in turn; the jobs' buffers keep the GC busy. About 117 MB of
// trace for N = 135000 with Go 1.27. Usage: mixed OUT N
package main

import (
	"fmt"
	"os"
	"runtime/trace"
	"strconv"
	"sync"
	"time"
)

type job struct {
	id  int
	buf []byte
}

func main() {
	n, _ := strconv.Atoi(os.Args[2])
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
	jobs := make(chan job, 16)
	results := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	for w := 0; w < 64; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				mu.Lock()
				total += len(j.buf)
				mu.Unlock()
				select {
				case results <- j.id:
				case <-time.After(time.Millisecond):
				}
			}
		}()
	}
	in := make(chan int)
	c := in
	for s := 0; s < 200; s++ {
		out := make(chan int)
		go func(a, b chan int) {
			for v := range a {
				b <- v + 1
			}
			close(b)
		}(c, out)
		c = out
	}
	done := make(chan bool)
	go func() {
		for range c {
		}
		done <- true
	}()
	go func() {
		for range results {
		}
	}()
	go func() {
		for i := 0; i < n/4; i++ {
			in <- i
		}
		close(in)
	}()
	for i := 0; i < n; i++ {
		jobs <- job{i, make([]byte, 64+i%512)}
	}
	close(jobs)
	wg.Wait()
	<-done
	trace.Stop()
	if err := f.Close(); err != nil {
		panic(err)
	}
	fmt.Println(total)
}
