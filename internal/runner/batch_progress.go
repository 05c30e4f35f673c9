package runner

import (
	"fmt"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// Batches implements BatchReporter: a line of the batches' states (validating, in
// progress, counts) and the time waited, at most once per every.
func (l *Lines) Batches(states []llm.BatchStatus, waited time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if time.Since(l.lastLine) < l.every {
		return
	}
	l.lastLine = time.Now()
	fmt.Fprintf(l.out, "%s: %s\n", l.label, batchLabel(states, waited))
}

// Batches implements BatchReporter: the bar shows the batches' states and the time
// waited after its counts.
func (b *Bar) Batches(states []llm.BatchStatus, waited time.Duration) {
	s := batchLabel(states, waited)
	b.batches.Store(&s)
}
