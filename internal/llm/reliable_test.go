package llm

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"
	"time"
)

// flaky fails with errs in order, then answers.
func flaky(errs ...error) (Model, *atomic.Int64) {
	var calls atomic.Int64
	return Func{ModelName: "test/flaky", Fn: func(ctx context.Context, req *Request) (*Reply, error) {
		n := calls.Add(1)
		if int(n) <= len(errs) {
			return nil, errs[n-1]
		}
		return &Reply{Text: "ok", Finish: FinishStop}, nil
	}}, &calls
}

func fastRetry(m Model, attempts int) *retrying {
	r := WithRetry(m, RetryPolicy{MaxAttempts: attempts, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}, nil, nil).(*retrying)
	return r
}

func TestRetry(t *testing.T) {
	rate := &Error{Provider: "p", Status: 429, Retryable: true}
	server := &Error{Provider: "p", Status: 500, Retryable: true}
	bad := &Error{Provider: "p", Status: 400}
	auth := &Error{Provider: "p", Status: 401}
	tests := []struct {
		name      string
		errs      []error
		attempts  int
		wantCalls int64
		wantErr   bool
	}{
		{"answers first time", nil, 3, 1, false},
		{"retries 429 then answers", []error{rate, rate}, 3, 3, false},
		{"retries 500", []error{server}, 3, 2, false},
		{"gives up after max attempts", []error{server, server, server}, 3, 3, true},
		{"never retries 400", []error{bad}, 5, 1, true},
		{"never retries 401", []error{auth}, 5, 1, true},
		{"plain errors are not retried", []error{errors.New("boom")}, 5, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, calls := flaky(tt.errs...)
			reply, err := fastRetry(m, tt.attempts).Generate(context.Background(), UserText("", "hi"))
			if (err != nil) != tt.wantErr {
				t.Fatalf("Generate() error = %v; want error %v", err, tt.wantErr)
			}
			if calls.Load() != tt.wantCalls {
				t.Errorf("calls = %d; want %d", calls.Load(), tt.wantCalls)
			}
			if err == nil && reply.Attempts != int(tt.wantCalls) {
				t.Errorf("Attempts = %d; want %d", reply.Attempts, tt.wantCalls)
			}
			if err != nil && AttemptsOf(err) != int(tt.wantCalls) {
				t.Errorf("AttemptsOf(err) = %d; want %d", AttemptsOf(err), tt.wantCalls)
			}
		})
	}
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	m, _ := flaky(&Error{Provider: "p", Status: 429, Retryable: true, RetryAfter: 3 * time.Second})
	r := fastRetry(m, 2)
	var waited []time.Duration
	r.sleep = func(ctx context.Context, d time.Duration) error { waited = append(waited, d); return nil }
	if _, err := r.Generate(context.Background(), UserText("", "hi")); err != nil {
		t.Fatal(err)
	}
	if len(waited) != 1 || waited[0] != 3*time.Second {
		t.Errorf("waited %v; want [3s]", waited)
	}
}

func TestRetryBackoffIsCappedAndJittered(t *testing.T) {
	r := WithRetry(Func{}, RetryPolicy{MaxAttempts: 10, BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}, nil, nil).(*retrying)
	err := &Error{Retryable: true}
	distinct := map[time.Duration]bool{}
	for attempt := 1; attempt <= 9; attempt++ {
		for range 20 {
			d := r.backoff(attempt, err)
			if d < 0 || d > time.Second {
				t.Fatalf("backoff(%d) = %v; want within [0, 1s]", attempt, d)
			}
			distinct[d] = true
		}
	}
	if len(distinct) < 10 {
		t.Errorf("backoff produced %d distinct waits; want jitter", len(distinct))
	}
}

func TestRetryStopsWhenContextEnds(t *testing.T) {
	m, calls := flaky(&Error{Retryable: true}, &Error{Retryable: true}, &Error{Retryable: true})
	r := WithRetry(m, RetryPolicy{MaxAttempts: 5, BaseDelay: time.Hour, MaxDelay: time.Hour}, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, err := r.Generate(ctx, UserText("", "hi"))
	if err == nil || calls.Load() != 1 {
		t.Fatalf("Generate() = %v after %d calls; want an error after 1 call", err, calls.Load())
	}
}

func TestPerAttemptTimeoutIsRetryable(t *testing.T) {
	var calls atomic.Int64
	m := Func{ModelName: "test/slow", Fn: func(ctx context.Context, req *Request) (*Reply, error) {
		if calls.Add(1) == 1 {
			<-ctx.Done()
			return nil, TransportError("test", ctx.Err())
		}
		return &Reply{Text: "ok"}, nil
	}}
	r := WithRetry(m, RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond, Timeout: 20 * time.Millisecond}, nil, nil)
	reply, err := r.Generate(context.Background(), UserText("", "hi"))
	if err != nil || reply.Attempts != 2 {
		t.Fatalf("Generate() = %+v, %v; want an answer on attempt 2", reply, err)
	}
}

func TestRetryAfterHeader(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		h    http.Header
		want time.Duration
	}{
		{"none", http.Header{}, 0},
		{"seconds", http.Header{"Retry-After": {"2"}}, 2 * time.Second},
		{"fraction", http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{"milliseconds win", http.Header{"Retry-After": {"2"}, "Retry-After-Ms": {"150"}}, 150 * time.Millisecond},
		{"http date", http.Header{"Retry-After": {now.Add(7 * time.Second).Format(http.TimeFormat)}}, 7 * time.Second},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RetryAfter(tt.h, now); got != tt.want {
				t.Errorf("RetryAfter(%v) = %v; want %v", tt.h, got, tt.want)
			}
		})
	}
}

func TestLimitsCapConcurrency(t *testing.T) {
	var in, peak atomic.Int64
	m := Func{ModelName: "test/busy", Fn: func(ctx context.Context, req *Request) (*Reply, error) {
		n := in.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(2 * time.Millisecond)
		in.Add(-1)
		return &Reply{}, nil
	}}
	l := WithLimits(m, Limits{Concurrency: 3})
	done := make(chan struct{})
	for range 30 {
		go func() { l.Generate(context.Background(), UserText("", "x")); done <- struct{}{} }()
	}
	for range 30 {
		<-done
	}
	if peak.Load() > 3 || peak.Load() < 2 {
		t.Errorf("peak concurrency = %d; want at most 3 (and the cap reached)", peak.Load())
	}
}

func TestParseModelName(t *testing.T) {
	for _, s := range []string{"openai/gpt-4.1", "ollama/llama3.1:8b", "baseline/keyword", "openai/org/model"} {
		if _, err := ParseModelName(s); err != nil {
			t.Errorf("ParseModelName(%q) = %v; want ok", s, err)
		}
	}
	for _, s := range []string{"gpt-4", "/x", "openai/", "", "open ai/x"} {
		if _, err := ParseModelName(s); err == nil {
			t.Errorf("ParseModelName(%q) = nil error; want an error", s)
		}
	}
}

func TestTransportErrorRetryable(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"cancelled", context.Canceled, false},
		{"deadline", context.DeadlineExceeded, true},
		{"url timeout", &url.Error{Op: "Post", URL: "http://x", Err: context.DeadlineExceeded}, true},
		{"connection refused", &url.Error{Op: "Post", URL: "http://x", Err: &net.OpError{Op: "dial", Err: errors.New("connect: connection refused")}}, true},
		{"reset", &url.Error{Op: "Post", URL: "http://x", Err: errors.New("read: connection reset by peer")}, true},
		{"unexpected EOF", io.ErrUnexpectedEOF, true},
		{"bad certificate", &url.Error{Op: "Post", URL: "https://x", Err: errors.New("tls: failed to verify certificate: x509: certificate signed by unknown authority")}, false},
		{"unsupported scheme", &url.Error{Op: "Post", URL: "ftp://x", Err: errors.New(`unsupported protocol scheme "ftp"`)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TransportError("p", tt.err).Retryable; got != tt.want {
				t.Errorf("TransportError(%v).Retryable = %v; want %v", tt.err, got, tt.want)
			}
		})
	}
}

// TestLimitWaitIsNotPartOfTheAttempt: a request queued behind the concurrency cap or the
// rate budget must not time out, fail, or spend attempts while it has not been sent.
func TestLimitWaitIsNotPartOfTheAttempt(t *testing.T) {
	policy := RetryPolicy{MaxAttempts: 1, Timeout: 20 * time.Millisecond}
	t.Run("concurrency slot", func(t *testing.T) {
		gate := make(chan struct{})
		var calls atomic.Int64
		m := Func{ModelName: "test/busy", Fn: func(ctx context.Context, req *Request) (*Reply, error) {
			if calls.Add(1) == 1 {
				<-gate
			}
			return &Reply{Text: "ok"}, nil
		}}
		l := WithLimits(m, Limits{Concurrency: 1})
		held := make(chan struct{})
		go func() { l.Generate(context.Background(), UserText("", "holder")); close(held) }()
		for calls.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		time.AfterFunc(100*time.Millisecond, func() { close(gate) })
		reply, err := WithRetry(l, policy, nil, nil).Generate(context.Background(), UserText("", "queued"))
		<-held
		if err != nil || reply.Attempts != 1 {
			t.Fatalf("Generate() behind a busy slot = %+v, %v; want an answer on attempt 1", reply, err)
		}
	})
	t.Run("rate budget", func(t *testing.T) {
		m := Func{ModelName: "test/fast", Fn: func(ctx context.Context, req *Request) (*Reply, error) {
			return &Reply{Text: "ok"}, nil
		}}
		// 600 RPM is 10 a second with a burst of 10: the 11th request waits about 100 ms,
		// longer than the attempt's timeout.
		r := WithRetry(WithLimits(m, Limits{RPM: 600}), policy, nil, nil)
		for i := range 11 {
			if reply, err := r.Generate(context.Background(), UserText("", "x")); err != nil || reply.Attempts != 1 {
				t.Fatalf("Generate() #%d = %+v, %v; want an answer on attempt 1", i+1, reply, err)
			}
		}
	})
}
