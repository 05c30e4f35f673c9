package llm

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestIsAuth(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"401", &Error{Status: 401}, true},
		{"403", &Error{Status: 403}, true},
		{"403 after attempts", &AttemptsError{Attempts: 1, Err: fmt.Errorf("job: %w", &Error{Status: 403})}, true},
		{"429", &Error{Status: 429, Retryable: true}, false},
		{"404", &Error{Status: 404}, false},
		{"no response", &Error{Err: errors.New("reset")}, false},
		{"plain error", errors.New("401"), false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsAuth(tt.err); got != tt.want {
				t.Errorf("IsAuth(%v) = %v; want %v", tt.err, got, tt.want)
			}
		})
	}
}

func TestTransportErrorScrubsURL(t *testing.T) {
	const key = "gateway-KEY-0123456789"
	ue := &url.Error{Op: "Post", URL: "https://u:" + key + "@h/v1?api-key=" + key, Err: context.DeadlineExceeded}
	e := TransportError("openai", fmt.Errorf("send: %w", ue))
	for _, shown := range []string{e.Error(), fmt.Sprintf("%+v", e), e.Message, e.Err.Error()} {
		if strings.Contains(shown, key) {
			t.Errorf("TransportError shows the key: %s", shown)
		}
	}
	if !e.Retryable || !errors.Is(e, context.DeadlineExceeded) {
		t.Errorf("TransportError = %+v; want a retryable error wrapping DeadlineExceeded", e)
	}
	h := &Error{Provider: "openai", Err: errors.New(`POST "http://h/?token=` + key + `": 500`)}
	if strings.Contains(h.Error(), key) {
		t.Errorf("Error() = %s; shows the key", h.Error())
	}
}
