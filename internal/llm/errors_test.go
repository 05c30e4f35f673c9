package llm

import (
	"errors"
	"fmt"
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
