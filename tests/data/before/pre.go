// pre: goroutines that exist before trace.Start: blocked on a channel for
// good (leak), blocked on a channel until main sends at 3 ms, asleep until
// ~6 ms, in a read(2) until main writes at 8 ms. Tracing lasts ~10 ms.
package main

import (
	"os"
	"runtime/trace"
	"syscall"
	"time"
)

func leak(c chan int)  { <-c }
func woken(c chan int) { <-c }
func sleeper()         { time.Sleep(16 * time.Millisecond) }
func reader(fd int)    { b := make([]byte, 1); syscall.Read(fd, b) }

func main() {
	var p [2]int
	syscall.Pipe(p[:])
	never, later := make(chan int), make(chan int)
	go leak(never)
	go woken(later)
	go sleeper()
	go reader(p[0])
	time.Sleep(10 * time.Millisecond)
	f, _ := os.Create(os.Args[1])
	trace.Start(f)
	time.Sleep(3 * time.Millisecond)
	later <- 1
	time.Sleep(5 * time.Millisecond)
	syscall.Write(p[1], []byte("x"))
	time.Sleep(2 * time.Millisecond)
	trace.Stop()
	f.Close()
}
