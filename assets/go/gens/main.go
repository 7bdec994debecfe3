// gens: a small trace that spans several generations (Go 1.22+ starts one
// about every second). Two players ping-pong every few milliseconds, a
// sleeper stays blocked across generation boundaries, a worker writes to a
// file now and then (syscalls), and a garbage collection runs once, early
// or (with -gc-every) every second. Usage: gens OUT SECONDS [-gc-every]
package main

import (
	"os"
	"runtime"
	"runtime/trace"
	"strconv"
	"time"
)

func main() {
	secs, _ := strconv.ParseFloat(os.Args[2], 64)
	gcEvery := len(os.Args) > 3 && os.Args[3] == "-gc-every"
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	trace.Start(f)
	end := time.Now().Add(time.Duration(secs * float64(time.Second)))
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v + 1
		}
		close(pong)
	}()
	go func() { time.Sleep(time.Duration(secs*float64(time.Second)) * 9 / 10) }()
	done := make(chan bool)
	go func() {
		w, _ := os.CreateTemp("", "gens")
		defer os.Remove(w.Name())
		for time.Now().Before(end) {
			w.Write([]byte("x"))
			time.Sleep(40 * time.Millisecond)
		}
		w.Close()
		done <- true
	}()
	runtime.GC()
	lastGC := time.Now()
	for i := 0; time.Now().Before(end); i++ {
		ping <- i
		<-pong
		time.Sleep(4 * time.Millisecond)
		if gcEvery && time.Since(lastGC) > time.Second {
			runtime.GC()
			lastGC = time.Now()
		}
	}
	close(ping)
	<-pong
	<-done
	trace.Stop()
	f.Close()
}
