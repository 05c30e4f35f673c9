package runner

import (
	"context"
	"errors"

	"github.com/arbiter-eval/arbiter/internal/store"
)

// ErrDryRun ends a dry run's first round: the jobs it would ask are known, and the
// rounds after it depend on replies a dry run does not get.
var ErrDryRun = errors.New("dry run: nothing was sent")

// dryRun tells s.DryRun which jobs of the round the store and the cache cannot answer,
// then stops the run with ErrDryRun. It asks no server and writes no result.
func (s *Session) dryRun(ctx context.Context, run store.RunID, jobs []Job) (Summary, error) {
	sum := Summary{Jobs: len(jobs)}
	answered, err := answeredOf(ctx, s.Store, run, jobs)
	if err != nil {
		return sum, err
	}
	var pending []Job
	for _, j := range jobs {
		if answered[j.Key] {
			sum.Resumed++
			continue
		}
		if s.Local != nil && s.Local(j.Model) {
			continue
		}
		pending = append(pending, j)
	}
	if !s.NoCache && len(pending) > 0 {
		// A cache that cannot be read answers nothing: every request counts as sent.
		hits, _, rest, _ := fromCache(ctx, s.Store, s.Endpoint, pending)
		sum.Cached += len(hits)
		pending = rest
	}
	s.DryRun(run, pending)
	return sum, ErrDryRun
}
