// gcheavy: allocation-heavy workers that trigger many garbage collections,
// with tracing on, until the trace has the size asked for: a trace as large
// as you like of mark assists, sweeps, collections and preemptions rather
// than channel hand-offs. Usage: gcheavy OUT W MB: W workers allocate
// buffers of 4 to 5 KB, keeping a few alive, until MB megabytes of trace
// (a fraction too) are written (the last batches after that are written too).
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/trace"
	"strconv"
	"sync"
	"sync/atomic"
)

var sink [][]byte

// sized counts what the tracer writes and says when it reached its limit.
type sized struct {
	w     io.Writer
	n     atomic.Int64
	limit int64
	full  atomic.Bool
}

func (s *sized) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if s.n.Add(int64(n)) >= s.limit {
		s.full.Store(true)
	}
	return n, err
}

func main() {
	workers, _ := strconv.Atoi(os.Args[2])
	mb, _ := strconv.ParseFloat(os.Args[3], 64)
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	out := &sized{w: f, limit: int64(mb * (1 << 20))}
	trace.Start(out)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !out.full.Load(); i++ {
				b := make([]byte, 4096+i%1024)
				if i%100 == 0 {
					mu.Lock()
					sink = append(sink, b)
					if len(sink) > 50 {
						sink = sink[:0]
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	runtime.GC()
	trace.Stop()
	f.Close()
	fmt.Printf("{\"program\":\"gcheavy\",\"goroutines\":%d,\"bytes\":%d}\n", workers, out.n.Load())
}
