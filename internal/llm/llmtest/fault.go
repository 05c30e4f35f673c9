package llmtest

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"net/http"
	"time"
)

// FaultKind is a way for a request to go wrong.
type FaultKind string

// The faults the server can inject.
const (
	FaultNone FaultKind = ""
	// FaultRateLimit answers 429 with Retry-After in seconds (rounded up) and, for
	// OpenAI, retry-after-ms; Gemini also gets a RetryInfo detail.
	FaultRateLimit FaultKind = "rate_limit"
	// FaultServerError answers 500.
	FaultServerError FaultKind = "server_error"
	// FaultUnavailable answers 503.
	FaultUnavailable FaultKind = "unavailable"
	// FaultSlow waits Fault.Delay (default 500ms), then replies normally.
	FaultSlow FaultKind = "slow"
	// FaultHang sends nothing until the client goes away, the server closes or
	// Options.HangCap passes, then drops the connection.
	FaultHang FaultKind = "hang"
	// FaultTruncate sends half of the reply (half the events of a stream, half the bytes
	// of a JSON body) and drops the connection.
	FaultTruncate FaultKind = "truncate"
	// FaultMalformed answers 200 with a body (or stream event) that is not valid JSON.
	FaultMalformed FaultKind = "malformed"
	// FaultEndless answers 200 with a body that does not end: a JSON reply whose string
	// never closes or, for a stream, one text delta sent over and over. The server stops
	// when the client goes away, the server closes or Options.EndlessCap bytes are sent.
	FaultEndless FaultKind = "endless"
	// FaultReset resets the TCP connection instead of answering.
	FaultReset FaultKind = "reset"
	// FaultBadRequest answers 400.
	FaultBadRequest FaultKind = "bad_request"
	// FaultUnauthorized answers 401 with a message that echoes the credential sent.
	FaultUnauthorized FaultKind = "unauthorized"
	// FaultNotFound answers 404, as for an unknown model.
	FaultNotFound FaultKind = "not_found"
)

const (
	defaultSlowDelay  = 500 * time.Millisecond
	defaultRetryAfter = time.Second
)

// status is the HTTP status and message of a fault that answers with an error body; ok
// is false for a kind this package does not know.
func (k FaultKind) status() (status int, msg string, ok bool) {
	switch k {
	case FaultRateLimit:
		return http.StatusTooManyRequests, "Rate limit reached for requests. Please try again later.", true
	case FaultServerError:
		return http.StatusInternalServerError, "The server had an error while processing your request.", true
	case FaultUnavailable:
		return http.StatusServiceUnavailable, "The server is overloaded. Please try again later.", true
	case FaultBadRequest:
		return http.StatusBadRequest, "Invalid request: the stand-in was told to reject it.", true
	case FaultUnauthorized:
		return http.StatusUnauthorized, "Incorrect API key provided: ", true
	case FaultNotFound:
		return http.StatusNotFound, "The model does not exist or you do not have access to it.", true
	}
	return 0, "", false
}

// Fault is something going wrong with one request.
type Fault struct {
	Kind FaultKind
	// RetryAfter is the wait a rate limit asks for (default 1s).
	RetryAfter time.Duration
	// Delay is how long a slow reply takes (default 500ms).
	Delay time.Duration
}

func (f Fault) retryAfter() time.Duration { return cmp.Or(f.RetryAfter, defaultRetryAfter) }

// Chance is a fault and the probability, per attempt, of injecting it.
type Chance struct {
	Fault Fault
	P     float64
}

// FaultPlan injects faults at random. The draw for a request depends only on Seed, the
// request body and how many times that body has arrived, so a run is reproducible even
// under concurrency, and a retried request gets a fresh draw and eventually succeeds.
type FaultPlan struct {
	Seed   uint64
	Faults []Chance
}

func (p *FaultPlan) validate() error {
	var sum float64
	for _, c := range p.Faults {
		if c.P < 0 || c.P > 1 {
			return fmt.Errorf("fault plan: %s has probability %v, want 0..1", c.Fault.Kind, c.P)
		}
		if c.Fault.Kind == FaultNone {
			return fmt.Errorf("fault plan: a chance has no fault kind")
		}
		sum += c.P
	}
	if sum > 1+1e-9 {
		return fmt.Errorf("fault plan: probabilities sum to %v, want at most 1", sum)
	}
	return nil
}

// draw picks the fault for one attempt of the body with this hash; ok is false when the
// request goes through untouched. A nil plan never faults.
func (p *FaultPlan) draw(sum [sha256.Size]byte, attempt int) (f Fault, ok bool) {
	if p == nil || len(p.Faults) == 0 {
		return Fault{}, false
	}
	u := uniform(p.Seed, sum, attempt)
	var acc float64
	for _, c := range p.Faults {
		acc += c.P
		if u < acc {
			return c.Fault, true
		}
	}
	return Fault{}, false
}

// uniform maps (seed, body, attempt) to a number in [0, 1) with splitmix64.
func uniform(seed uint64, sum [sha256.Size]byte, attempt int) float64 {
	x := seed ^ binary.LittleEndian.Uint64(sum[:8]) ^ (uint64(attempt) * 0x9e3779b97f4a7c15)
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}
