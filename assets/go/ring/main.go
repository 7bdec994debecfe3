// ring: N goroutines in a ring pass one token M times over unbuffered
// channels, with tracing on: a trace as large as you like of nothing but
// channel hand-offs. Usage: ring OUT N M
package main

import (
	"fmt"
	"os"
	"runtime/trace"
	"strconv"
)

func main() {
	n, _ := strconv.Atoi(os.Args[2])
	m, _ := strconv.Atoi(os.Args[3])
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	trace.Start(f)
	chans := make([]chan int, n)
	for i := range chans {
		chans[i] = make(chan int)
	}
	done := make(chan bool)
	for i := 0; i < n; i++ {
		go func(in <-chan int, out chan<- int) {
			for t := range in {
				if t == m {
					done <- true
					return
				}
				out <- t + 1
			}
		}(chans[i], chans[(i+1)%n])
	}
	chans[0] <- 1
	<-done
	trace.Stop()
	f.Close()
	fmt.Printf("{\"program\":\"ring\",\"handoffs\":%d,\"goroutines\":%d}\n", m, n+1)
}
