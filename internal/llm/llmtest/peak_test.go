package llmtest

import (
	"sync"
	"testing"
	"time"
)

// TestPeak: overlapping requests raise the peak, sequential ones do not.
func TestPeak(t *testing.T) {
	p := NewPeak(nil, 20*time.Millisecond)
	for range 3 {
		p.Respond(&Request{})
	}
	if p.Max() != 1 {
		t.Fatalf("sequential peak %d, want 1", p.Max())
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 4 {
		wg.Go(func() { <-start; p.Respond(&Request{}) })
	}
	close(start)
	wg.Wait()
	if p.Max() < 2 || p.Max() > 4 || p.Answered() != 7 {
		t.Fatalf("peak %d answered %d, want 2..4 and 7", p.Max(), p.Answered())
	}
}
