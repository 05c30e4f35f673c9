package runner

import (
	"io"
	"sync"
	"testing"
)

// TestBarDoneFromManyWorkers: the runner's workers report to one Bar at once; under -race
// this fails if Done shares state without a lock.
func TestBarDoneFromManyWorkers(t *testing.T) {
	b := NewBar(io.Discard, "test", nil)
	const workers, each = 8, 50
	b.Start(workers*each, 0)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range each {
				b.Done(i%10 == 0)
			}
		})
	}
	wg.Wait()
	b.Finish()
	if got, want := b.failed.Load(), int64(workers*each/10); got != want {
		t.Errorf("failed = %d; want %d", got, want)
	}
}
