package llm

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// RetryPolicy says how often and how patiently a request is tried again.
type RetryPolicy struct {
	// MaxAttempts counts the first try; 1 means no retries.
	MaxAttempts int
	// BaseDelay is the wait before the second attempt; it doubles each time, capped at
	// MaxDelay, with full jitter. A server's Retry-After wins when it is longer.
	BaseDelay time.Duration
	MaxDelay  time.Duration
	// Timeout bounds each attempt; 0 means no per-attempt timeout. Waiting for a
	// WithLimits slot or rate budget just inside WithRetry is not part of the attempt.
	Timeout time.Duration
}

// DefaultRetry is the policy arbiter uses unless told otherwise. It is a function, not
// a variable, so no caller can change it for every other.
func DefaultRetry() RetryPolicy {
	return RetryPolicy{MaxAttempts: 6, BaseDelay: 500 * time.Millisecond, MaxDelay: 30 * time.Second, Timeout: 120 * time.Second}
}

// Counters are live numbers a progress display reads. All fields are safe for
// concurrent use.
type Counters struct {
	// Retrying is how many requests are waiting to be tried again right now.
	Retrying atomic.Int64
	// Retries counts every extra attempt.
	Retries atomic.Int64
	// InputTokens and OutputTokens add up usage of successful replies.
	InputTokens  atomic.Int64
	OutputTokens atomic.Int64
}

type retrying struct {
	inner    Model
	policy   RetryPolicy
	counters *Counters
	log      *slog.Logger
	sleep    func(ctx context.Context, d time.Duration) error
}

// WithRetry wraps m so each Generate is tried up to policy.MaxAttempts times while the
// error is retryable, waiting with capped, jittered exponential backoff (or the server's
// Retry-After), and stopping as soon as ctx is done. The Reply's Attempts says how many
// tries it took. A streamed request's OnReset is called before every retry, since the
// failed attempt may have handed OnDelta part of a reply. counters and log may be nil.
func WithRetry(m Model, policy RetryPolicy, counters *Counters, log *slog.Logger) Model {
	if policy.MaxAttempts < 1 {
		policy.MaxAttempts = 1
	}
	if counters == nil {
		counters = new(Counters)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &retrying{inner: m, policy: policy, counters: counters, log: log, sleep: sleepCtx}
}

func (r *retrying) Name() ModelName { return r.inner.Name() }

func (r *retrying) Generate(ctx context.Context, req *Request) (*Reply, error) {
	var lastErr error
	for attempt := 1; ; attempt++ {
		reply, err := r.attempt(ctx, req)
		if err == nil {
			reply.Attempts = attempt
			r.counters.InputTokens.Add(reply.Usage.InputTokens)
			r.counters.OutputTokens.Add(reply.Usage.OutputTokens)
			return reply, nil
		}
		lastErr = err
		if ctx.Err() != nil || !IsRetryable(err) || attempt >= r.policy.MaxAttempts {
			return nil, &AttemptsError{Attempts: attempt, Err: lastErr}
		}
		wait := r.backoff(attempt, err)
		r.log.Debug("retrying", "model", r.inner.Name(), "attempt", attempt, "wait", wait, "err", err)
		r.counters.Retrying.Add(1)
		serr := r.sleep(ctx, wait)
		r.counters.Retrying.Add(-1)
		if serr != nil {
			return nil, &AttemptsError{Attempts: attempt, Err: lastErr}
		}
		r.counters.Retries.Add(1)
		if req.OnDelta != nil && req.OnReset != nil {
			req.OnReset()
		}
	}
}

func (r *retrying) attempt(ctx context.Context, req *Request) (*Reply, error) {
	inner := r.inner
	if l, ok := inner.(*limited); ok {
		// Waiting for a concurrency slot or a rate budget is queueing, not the attempt: a
		// long queue must neither time the attempt out nor make rate.Wait give up early
		// because the wait would pass the attempt's deadline.
		release, err := l.wait(ctx, req)
		if err != nil {
			return nil, err
		}
		defer release()
		inner = l.inner
	}
	if r.policy.Timeout <= 0 {
		return inner.Generate(ctx, req)
	}
	actx, cancel := context.WithTimeout(ctx, r.policy.Timeout)
	defer cancel()
	reply, err := inner.Generate(actx, req)
	if err != nil && ctx.Err() == nil && actx.Err() != nil {
		// The attempt ran out of time, not the caller: that is worth another try.
		return nil, &Error{Provider: r.inner.Name().Provider(), Message: "request timed out after " + r.policy.Timeout.String(), Retryable: true, Err: err}
	}
	return reply, err
}

// maxRetryAfter bounds a server's requested wait, against a bogus header.
const maxRetryAfter = 10 * time.Minute

// backoff is full jitter over a doubling window, but never shorter than Retry-After.
func (r *retrying) backoff(attempt int, err error) time.Duration {
	window := r.policy.BaseDelay << (attempt - 1)
	if window <= 0 || window > r.policy.MaxDelay {
		window = r.policy.MaxDelay
	}
	wait := time.Duration(rand.Int64N(int64(window) + 1))
	var e *Error
	if errors.As(err, &e) && e.RetryAfter > wait {
		// The server knows its own limits: honour it, up to a sanity cap.
		wait = min(e.RetryAfter, maxRetryAfter)
	}
	return wait
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// AttemptsError is the final error of a request that was tried Attempts times.
type AttemptsError struct {
	Attempts int
	Err      error
}

func (e *AttemptsError) Error() string {
	if e.Attempts <= 1 {
		return e.Err.Error()
	}
	return e.Err.Error() + " (after " + itoa(e.Attempts) + " attempts)"
}

func (e *AttemptsError) Unwrap() error { return e.Err }

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for n >= 10 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	i--
	b[i] = byte('0' + n)
	return string(b[i:])
}

// AttemptsOf returns how many attempts an error from WithRetry took (1 otherwise).
func AttemptsOf(err error) int {
	var e *AttemptsError
	if errors.As(err, &e) {
		return e.Attempts
	}
	return 1
}

// Limits caps one model's use of its provider.
type Limits struct {
	// Concurrency is the most attempts in flight at once; 0 means no cap.
	Concurrency int
	// RPM and TPM are requests and tokens per minute; 0 means no limit. Tokens are
	// estimated before the call from the prompt's length plus MaxTokens.
	RPM float64
	TPM float64
}

type limited struct {
	inner Model
	sem   chan struct{}
	rpm   *rate.Limiter
	tpm   *rate.Limiter
}

// WithLimits wraps m so every call waits for a concurrency slot and for its share of the
// request and token budgets. Put it inside WithRetry so each attempt is counted.
func WithLimits(m Model, l Limits) Model {
	w := &limited{inner: m}
	if l.Concurrency > 0 {
		w.sem = make(chan struct{}, l.Concurrency)
	}
	if l.RPM > 0 {
		w.rpm = rate.NewLimiter(rate.Limit(l.RPM/60), max(1, int(l.RPM/60)))
	}
	if l.TPM > 0 {
		w.tpm = rate.NewLimiter(rate.Limit(l.TPM/60), max(1, int(l.TPM)))
	}
	return w
}

func (w *limited) Name() ModelName { return w.inner.Name() }

func (w *limited) Generate(ctx context.Context, req *Request) (*Reply, error) {
	release, err := w.wait(ctx, req)
	if err != nil {
		return nil, err
	}
	defer release()
	return w.inner.Generate(ctx, req)
}

// wait takes a concurrency slot and the request's share of the rate budgets; release
// gives the slot back.
func (w *limited) wait(ctx context.Context, req *Request) (release func(), err error) {
	release = func() {}
	if w.sem != nil {
		select {
		case w.sem <- struct{}{}:
			release = func() { <-w.sem }
		case <-ctx.Done():
			return nil, TransportError(w.inner.Name().Provider(), ctx.Err())
		}
	}
	if w.rpm != nil {
		if err := w.rpm.Wait(ctx); err != nil {
			release()
			return nil, TransportError(w.inner.Name().Provider(), err)
		}
	}
	if w.tpm != nil {
		n := min(EstimateTokens(req), w.tpm.Burst())
		if err := w.tpm.WaitN(ctx, n); err != nil {
			release()
			return nil, TransportError(w.inner.Name().Provider(), err)
		}
	}
	return release, nil
}

// EstimateTokens guesses a request's token cost before sending it: about four characters
// a token for the prompt, plus the reply budget.
func EstimateTokens(req *Request) int {
	n := len(req.System)
	for _, m := range req.Messages {
		n += len(m.Text)
	}
	est := n/4 + 1
	if req.MaxTokens > 0 {
		est += req.MaxTokens
	} else {
		est += 256
	}
	return est
}
