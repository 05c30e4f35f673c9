package runner

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/arbiter-eval/arbiter/internal/store"
)

// Gathering asks for several callers that each ask one request at a time (case
// generations, say, each re-asked until its reply is valid) as rounds of the session: it
// holds every ask until each caller still going has asked or said it is done, then sends
// the held asks together as one Round. The first asks of all the callers are thus one
// round (one batch per provider under --batch, one count under --dry-run), each round of
// re-asks the next.
type Gathering struct {
	sess  *Session
	run   store.RunID
	label string

	mu      sync.Mutex
	live    int
	waiting []*heldAsk
	rounds  int
	tally   Tally
}

type heldAsk struct {
	job  Job
	done chan heldResult
}

type heldResult struct {
	res *store.Result
	err error
}

// Gather is a Gathering of callers asking within run under label.
func (s *Session) Gather(run store.RunID, label string, callers int) *Gathering {
	return &Gathering{sess: s, run: run, label: label, live: callers}
}

// Ask asks j in the next round and returns its stored result, or nil when the session is
// offline and nothing is recorded.
func (g *Gathering) Ask(ctx context.Context, j Job) (*store.Result, error) {
	h := &heldAsk{job: j, done: make(chan heldResult, 1)}
	g.mu.Lock()
	g.waiting = append(g.waiting, h)
	round := g.takeRound()
	g.mu.Unlock()
	g.send(ctx, round)
	select {
	case r := <-h.done:
		return r.res, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Done says one caller asks nothing more.
func (g *Gathering) Done(ctx context.Context) {
	g.mu.Lock()
	g.live--
	round := g.takeRound()
	g.mu.Unlock()
	g.send(ctx, round)
}

// Tally counts what the gathering asked, over all its rounds.
func (g *Gathering) Tally() Tally {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.tally
}

// takeRound returns the held asks once every live caller is waiting; g.mu is held.
func (g *Gathering) takeRound() []*heldAsk {
	if len(g.waiting) == 0 || len(g.waiting) < g.live {
		return nil
	}
	round := g.waiting
	g.waiting = nil
	g.rounds++
	return round
}

func (g *Gathering) send(ctx context.Context, round []*heldAsk) {
	if len(round) == 0 {
		return
	}
	// Key order, so that a rerun builds the same round whatever order the asks came in.
	sort.Slice(round, func(i, k int) bool { return round[i].job.Key < round[k].job.Key })
	asks := make([]Ask, len(round))
	for i, h := range round {
		asks[i] = Ask{Job: h.job}
	}
	label := g.label
	if g.rounds > 1 {
		label = fmt.Sprintf("%s re-ask %d", g.label, g.rounds-1)
	}
	// Rounds of one gathering never overlap: the next needs every caller's answer.
	var tally Tally
	got, err := g.sess.Round(ctx, g.run, label, asks, &tally)
	g.mu.Lock()
	g.tally.Merge(tally)
	g.mu.Unlock()
	for _, h := range round {
		h.done <- heldResult{res: got[h.job.Key], err: err}
	}
}
