package llm

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
)

// Error is the one error type every provider returns. Callers branch with errors.As.
type Error struct {
	Provider string
	// Status is the HTTP status, or 0 when no response arrived (connection reset, timeout).
	Status int
	// Code is the provider's error code or type when it sent one.
	Code    string
	Message string
	// Retryable says whether the same request may succeed if sent again.
	Retryable bool
	// RetryAfter is the server's requested wait, from Retry-After or its relatives.
	RetryAfter time.Duration
	Err        error
}

// Error shows the error with every URL in it scrubbed (config.ScrubURL): SDK and
// net/http errors quote the request's URL, and a gateway's key may be in its query.
func (e *Error) Error() string {
	return config.ScrubText(e.text())
}

func (e *Error) text() string {
	var b strings.Builder
	b.WriteString(e.Provider)
	if e.Status != 0 {
		fmt.Fprintf(&b, ": HTTP %d", e.Status)
	}
	if e.Code != "" {
		fmt.Fprintf(&b, " %s", e.Code)
	}
	if e.Message != "" {
		fmt.Fprintf(&b, ": %s", e.Message)
	} else if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// RetryableStatus says which HTTP statuses are worth another attempt: rate limits,
// timeouts, conflicts and server errors; never bad requests, auth or not-found.
func RetryableStatus(status int) bool {
	switch {
	case status == http.StatusTooManyRequests, status == http.StatusRequestTimeout,
		status == http.StatusConflict:
		return true
	case status >= 500:
		return true
	}
	return false
}

// TransportError wraps an error that happened before a response arrived. Connection
// resets, refused connections, timeouts and truncated bodies are retryable; a cancelled
// context is not.
func TransportError(provider string, err error) *Error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.URL != config.ScrubURL(ue.URL) {
		// net/http quotes the request URL, query and all: keep a key there out of the
		// message and out of the wrapped error alike.
		scrubbed := *ue
		scrubbed.URL = config.ScrubURL(ue.URL)
		err = &scrubbed
	}
	e := &Error{Provider: provider, Err: err, Message: err.Error()}
	if errors.Is(err, context.Canceled) {
		return e
	}
	// *url.Error satisfies net.Error whatever it wraps, so look at what it wraps: a
	// timeout or a dropped connection is worth another try, a bad certificate or scheme
	// is not.
	inner := err
	if errors.As(err, &ue) {
		inner = ue.Err
	}
	var ne net.Error
	var oe *net.OpError
	switch {
	case errors.Is(inner, context.DeadlineExceeded):
		e.Retryable = true
	case errors.As(inner, &ne) && ne.Timeout():
		e.Retryable = true
	case errors.As(inner, &oe):
		e.Retryable = true
	default:
		msg := inner.Error()
		for _, s := range []string{"connection reset", "connection refused", "EOF", "broken pipe",
			"unexpected end", "timeout", "server closed"} {
			if strings.Contains(msg, s) {
				e.Retryable = true
				break
			}
		}
	}
	return e
}

// HTTPError builds an Error from a response status and headers.
func HTTPError(provider string, status int, h http.Header, code, msg string, err error) *Error {
	return &Error{Provider: provider, Status: status, Code: code, Message: msg, Err: err,
		Retryable: RetryableStatus(status), RetryAfter: RetryAfter(h, time.Now())}
}

// RetryAfter reads the wait a server asked for: retry-after-ms, then Retry-After as
// seconds or as an HTTP date. Zero when absent or unreadable.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// IsRetryable reports whether err is an *Error that may succeed on another attempt.
func IsRetryable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Retryable
}

// BadResponse builds an Error for a response that arrived with a success status but could
// not be read: a body cut short, JSON that does not parse, a stream that ended before its
// final event. Gateways and overloaded servers produce these, so it is retryable.
func BadResponse(provider string, status int, err error) *Error {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	const maxMsg = 200
	if len(msg) > maxMsg {
		msg = strings.ToValidUTF8(msg[:maxMsg], "") + "…"
	}
	return &Error{Provider: provider, Status: status, Code: "bad_response",
		Message: "unreadable response: " + msg, Retryable: true, Err: err}
}

// Redact removes secret from the error's text, for servers that echo the credential they
// were sent back in an error body. When the wrapped error shows it too, the wrapped error
// is replaced by its redacted text.
func (e *Error) Redact(secret string) *Error {
	const minSecret = 8 // shorter values are placeholders, and replacing them would garble text
	if len(secret) < minSecret {
		return e
	}
	e.Message = strings.ReplaceAll(e.Message, secret, "REDACTED")
	if e.Err != nil && strings.Contains(e.Err.Error(), secret) {
		e.Err = errors.New(strings.ReplaceAll(e.Err.Error(), secret, "REDACTED"))
	}
	return e
}

// ReplyTooLarge returns the Error for err when it comes from a response body cut off at
// MaxReplyBytes, and nil otherwise. Such a request is failed, never retried: the same
// request would most likely bring the same endless body. Adapters try it before any
// other translation, so that no status or SDK wrapping makes it look retryable.
func ReplyTooLarge(provider string, status int, err error) *Error {
	if !errors.Is(err, ErrReplyTooLarge) {
		return nil
	}
	return &Error{Provider: provider, Status: status, Code: "reply_too_large",
		Message: fmt.Sprintf("reply body is over %d MiB; the read stopped there", MaxReplyBytes>>20), Err: ErrReplyTooLarge}
}

// IsAuth reports whether err says the provider refused the credentials (HTTP 401 or 403,
// or the same inside a stream): every later request to that model will fail the same
// way, so a runner stops asking it instead of recording one failure per job.
func IsAuth(err error) bool {
	var e *Error
	return errors.As(err, &e) && (e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden)
}
