package court

import (
	"context"
	"errors"
	"fmt"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// KindCourt is the store's kind of a court run: simulated trials, or the games of a
// server or a terminal.
const KindCourt store.Kind = "court"

// Recorded is an Asker that makes every call a job of one run of a runner.Session,
// keyed by its call key: the request and reply are stored as the benchmark stores its
// own, a call the run has answered is read back instead of asked (so a trial run again,
// after a crash or on a later day, asks only what it lacks), an identical request comes
// from the cache, and failures are recorded. Offline (a session with no models) it only
// reads, and a call not recorded is an error.
//
// Recorded is safe for concurrent use by trials of the same run, whose call keys differ
// (Settings.TrialID).
type Recorded struct {
	Session *runner.Session
	Run     store.RunID
	// Label names the calls in progress output; default "court".
	Label string
	// Tally, when set, counts what the calls asked; it is not safe for concurrent use,
	// so give each trial its own.
	Tally *runner.Tally
	// Stop, when set, cancels the trial's context with the session's own failure (the
	// store cannot write, the run was interrupted, an offline call is not recorded), so
	// that the trial stops instead of meeting it with a restart as it does a model's
	// failure.
	Stop context.CancelCauseFunc
	// Gather, when set, asks through a gathering of several callers (many generations
	// at once) instead of one request at a time: its rounds are the session's.
	Gather *runner.Gathering
}

// ErrNotRecorded is an offline Recorded's answer to a call the run has not answered.
var ErrNotRecorded = errors.New("not recorded in the store")

// Ask implements Asker.
func (r *Recorded) Ask(ctx context.Context, call Call, req *llm.Request) (*llm.Reply, error) {
	label := r.Label
	if label == "" {
		label = "court"
	}
	job := runner.Job{Key: call.Key, Model: call.Model, Item: call.Key, Request: req}
	var res *store.Result
	var err error
	if r.Gather != nil {
		res, err = r.Gather.Ask(ctx, job)
	} else {
		res, err = r.Session.Ask(ctx, r.Run, label, runner.Ask{Job: job}, r.Tally)
	}
	if err == nil && res == nil {
		err = fmt.Errorf("%s: %w", call.Key, ErrNotRecorded)
	}
	switch {
	case err != nil:
		if r.Stop != nil {
			r.Stop(err)
		}
		return nil, err
	case res.Err != "":
		return nil, fmt.Errorf("%s: %s", call.Model, res.Err)
	}
	reply := res.Reply
	return &reply, nil
}
