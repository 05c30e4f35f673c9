package runner

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// Bar draws a live progress bar on a terminal: done/total, rate, ETA, failures, retries
// in progress and tokens.
type Bar struct {
	out      io.Writer
	label    string
	counters *llm.Counters
	p        *mpb.Progress
	bar      *mpb.Bar
	failed   atomic.Int64
	batches  atomic.Pointer[string] // how a batch run's batches stand (batch_progress.go)

	mu   sync.Mutex // Done is called from every worker at once
	last time.Time
}

// NewBar makes a bar writing to out (a terminal). counters may be nil.
func NewBar(out io.Writer, label string, counters *llm.Counters) *Bar {
	if counters == nil {
		counters = new(llm.Counters)
	}
	return &Bar{out: out, label: label, counters: counters}
}

// Start implements Progress.
func (b *Bar) Start(total, already int) {
	b.p = mpb.New(mpb.WithOutput(b.out), mpb.WithWidth(40), mpb.WithRefreshRate(150*time.Millisecond))
	b.bar = b.p.AddBar(int64(total),
		mpb.PrependDecorators(decor.Name(b.label+" "), decor.CountersNoUnit("%d/%d")),
		mpb.AppendDecorators(
			decor.AverageSpeed(0, " %.1f/s"),
			decor.Any(func(decor.Statistics) string {
				s := fmt.Sprintf(" fail %d retry %d tok %s", b.failed.Load(), b.counters.Retrying.Load(),
					humanCount(b.counters.InputTokens.Load()+b.counters.OutputTokens.Load()))
				if bs := b.batches.Load(); bs != nil {
					s += " " + *bs
				}
				return s
			}),
			decor.OnComplete(decor.AverageETA(decor.ET_STYLE_GO, decor.WC{W: 6}), " done"),
		))
	b.bar.SetCurrent(int64(already))
	b.bar.SetRefill(int64(already))
	b.last = time.Now()
}

// Done implements Progress.
func (b *Bar) Done(failed bool) {
	if failed {
		b.failed.Add(1)
	}
	b.mu.Lock()
	now := time.Now()
	d := now.Sub(b.last)
	b.last = now
	b.mu.Unlock()
	b.bar.EwmaIncrement(d)
}

// Finish implements Progress.
func (b *Bar) Finish() {
	if !b.bar.Completed() {
		b.bar.Abort(false)
	}
	b.p.Wait()
}

// Lines logs a plain line now and then, for logs and pipes where a bar would be noise.
type Lines struct {
	out      io.Writer
	label    string
	every    time.Duration
	counters *llm.Counters

	mu       sync.Mutex
	total    int
	done     int
	failed   int
	start    time.Time
	lastLine time.Time
}

// NewLines logs to out at most once per every.
func NewLines(out io.Writer, label string, every time.Duration, counters *llm.Counters) *Lines {
	if counters == nil {
		counters = new(llm.Counters)
	}
	return &Lines{out: out, label: label, every: every, counters: counters}
}

// Start implements Progress.
func (l *Lines) Start(total, already int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total, l.done, l.start, l.lastLine = total, already, time.Now(), time.Now()
	fmt.Fprintf(l.out, "%s: %d jobs, %d already answered\n", l.label, total, already)
}

// Done implements Progress.
func (l *Lines) Done(failed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done++
	if failed {
		l.failed++
	}
	if time.Since(l.lastLine) >= l.every {
		l.line()
	}
}

// Finish implements Progress.
func (l *Lines) Finish() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.line()
}

func (l *Lines) line() {
	l.lastLine = time.Now()
	el := time.Since(l.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(l.done) / el
	}
	fmt.Fprintf(l.out, "%s: %d/%d done, %.1f/s, %d failed, %d retrying, %s tokens\n", l.label, l.done, l.total, rate,
		l.failed, l.counters.Retrying.Load(), humanCount(l.counters.InputTokens.Load()+l.counters.OutputTokens.Load()))
}

func humanCount(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
