package llmtest

import (
	"sync/atomic"
	"time"
)

// Peak wraps a Responder to count the requests it is answering at once: each one is
// held for delay inside the count, so overlapping requests show. Use it to check a
// concurrency limit from the provider's side.
type Peak struct {
	inner   Responder
	delay   time.Duration
	now     atomic.Int64
	peak    atomic.Int64
	handled atomic.Int64
}

// NewPeak counts the requests in flight of inner (Echo when nil), holding each for delay.
func NewPeak(inner Responder, delay time.Duration) *Peak {
	if inner == nil {
		inner = Echo
	}
	return &Peak{inner: inner, delay: delay}
}

// Respond is the Responder to give Options.
func (p *Peak) Respond(req *Request) Response {
	n := p.now.Add(1)
	for {
		old := p.peak.Load()
		if n <= old || p.peak.CompareAndSwap(old, n) {
			break
		}
	}
	defer p.now.Add(-1)
	p.handled.Add(1)
	if p.delay > 0 {
		time.Sleep(p.delay)
	}
	return p.inner(req)
}

// Max is the most requests that were in flight at once.
func (p *Peak) Max() int64 { return p.peak.Load() }

// Answered is how many requests reached the Responder.
func (p *Peak) Answered() int64 { return p.handled.Load() }
