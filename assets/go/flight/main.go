// flight: flight-recorder windows (runtime/trace.FlightRecorder, Go 1.25+)
// of a busy program. A ring of goroutines passes a token, workers share a
// mutex-guarded map and a buffered queue, a ticker fires, a writer does file
// syscalls and a sleeper stays blocked from the start, while the recorder
// keeps the last second or so; a window is written every SECONDS/N, so later
// windows begin at a late generation whose goroutines existed before it.
// Usage: flight OUTPREFIX SECONDS N   (writes OUTPREFIX-1.trace ... -N.trace)
package main

import (
	"fmt"
	"os"
	"runtime/trace"
	"strconv"
	"sync"
	"time"
)

func main() {
	secs, _ := strconv.ParseFloat(os.Args[2], 64)
	n, _ := strconv.Atoi(os.Args[3])
	fr := trace.NewFlightRecorder(trace.FlightRecorderConfig{MinAge: time.Second, MaxBytes: 1 << 20})
	never := make(chan int)
	go func() { <-never }() // blocked in every window

	stop := make(chan struct{})
	var wg sync.WaitGroup
	// a ring of 8 goroutines
	const ringN = 8
	ring := make([]chan int, ringN)
	for i := range ring {
		ring[i] = make(chan int)
	}
	for i := 0; i < ringN; i++ {
		wg.Add(1)
		go func(in, out chan int) {
			defer wg.Done()
			for {
				select {
				case v := <-in:
					time.Sleep(100 * time.Microsecond)
					select {
					case out <- v + 1:
					case <-stop:
						return
					}
				case <-stop:
					return
				}
			}
		}(ring[i], ring[(i+1)%ringN])
	}
	// workers on a buffered queue and a shared map
	var mu sync.Mutex
	seen := map[int]int{}
	queue := make(chan int, 16)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range queue {
				mu.Lock()
				seen[v%64]++
				mu.Unlock()
			}
		}()
	}
	// a writer doing syscalls
	wg.Add(1)
	go func() {
		defer wg.Done()
		f, err := os.CreateTemp("", "flight")
		if err != nil {
			return
		}
		defer os.Remove(f.Name())
		defer f.Close()
		for {
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
				f.Write(make([]byte, 512))
			}
		}
	}()

	if err := fr.Start(); err != nil {
		panic(err)
	}
	ring[0] <- 0
	tick := time.NewTicker(200 * time.Microsecond)
	every := time.Duration(secs * float64(time.Second) / float64(n))
	next, k := time.Now().Add(every), 0
	for v := 0; k < n; v++ {
		<-tick.C
		queue <- v
		if v%64 == 0 {
			_ = make([]byte, 256<<10) // some garbage
		}
		if time.Now().After(next) {
			k++
			next = next.Add(every)
			f, err := os.Create(fmt.Sprintf("%s-%d.trace", os.Args[1], k))
			if err != nil {
				panic(err)
			}
			if _, err := fr.WriteTo(f); err != nil {
				panic(err)
			}
			f.Close()
		}
	}
	fr.Stop()
	tick.Stop()
	close(stop)
	close(queue)
	wg.Wait()
}
