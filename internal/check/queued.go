package check

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// JudgeWork is what a queued transcript of a judge run is called (queue.WorkArgs.Of).
const JudgeWork = "check-judge"

// badWork is a queued unit no retry can mend.
type badWork struct{ err error }

func (e badWork) Error() string   { return e.err.Error() }
func (e badWork) Unwrap() error   { return e.err }
func (e badWork) Permanent() bool { return true }

// JudgeQueued judges one queued transcript (a JudgeJob as JSON) in sess within run,
// through the same session path 'check judge' takes: each round's replies are kept as
// they come, so a transcript another worker began resumes at its first request not yet
// answered. It is the checklist judge's queue.Work.
func JudgeQueued(ctx context.Context, sess *runner.Session, run store.RunID, payload json.RawMessage) (runner.Tally, error) {
	var job JudgeJob
	if err := json.Unmarshal(payload, &job); err != nil {
		return runner.Tally{}, badWork{fmt.Errorf("queued transcript: %w", err)}
	}
	j, err := JudgeTranscript(ctx, sess, run, &job)
	if j == nil {
		return runner.Tally{}, err
	}
	return j.Requests, err
}
