package chanlog

import (
	"context"
	"os"
	"runtime/trace"
	"sync"
	"testing"
)

// A buffered pipeline: two producers, one consumer, every value arrives
// once, in per-producer order, and the counts match.
func TestValuesArriveInOrder(t *testing.T) {
	ctx := context.Background()
	ch := make(chan int, 3)
	var wg sync.WaitGroup
	for p := 0; p < 2; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				Send(ctx, ch, p*1000+i)
			}
		}(p)
	}
	go func() { wg.Wait(); close(ch) }()
	last := map[int]int{0: -1, 1: -1}
	n := 0
	for {
		v, ok := Recv(ctx, ch)
		if !ok {
			break
		}
		p, i := v/1000, v%1000
		if i != last[p]+1 {
			t.Fatalf("producer %d: got %d after %d", p, i, last[p])
		}
		last[p] = i
		n++
	}
	c := counterOf(ch)
	if n != 100 || c.sends != 100 || c.recvs != 100 {
		t.Fatalf("received %d, counted %d sends and %d receives; want 100", n, c.sends, c.recvs)
	}
	Forget(ch)
	if _, ok := counters.Load(ch); ok {
		t.Fatal("Forget kept the counter")
	}
}

// With CHANLOG_TRACE=path, writes a trace of ten annotated sends of
// strings through a buffered channel (capacity 4), for chanscope to pair.
func TestWriteTrace(t *testing.T) {
	path := os.Getenv("CHANLOG_TRACE")
	if path == "" {
		t.Skip("CHANLOG_TRACE not set")
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := trace.Start(f); err != nil {
		t.Fatal(err)
	}
	ctx, task := trace.NewTask(context.Background(), "chanlog")
	ch := make(chan string, 4)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if _, ok := Recv(ctx, ch); !ok {
				return
			}
		}
	}()
	for i := 0; i < 10; i++ {
		Send(ctx, ch, string(rune('a'+i))+"-value")
	}
	close(ch)
	<-done
	task.End()
	trace.Stop()
}
