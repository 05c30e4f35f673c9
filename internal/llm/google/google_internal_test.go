package google

import (
	"context"
	"testing"
	"time"

	"google.golang.org/genai"
)

func TestRetryInfo(t *testing.T) {
	info := func(delay any) map[string]any {
		return map[string]any{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay}
	}
	tests := []struct {
		name    string
		details []map[string]any
		want    time.Duration
	}{
		{"none", nil, 0},
		{"seconds", []map[string]any{info("2s")}, 2 * time.Second},
		{"fraction", []map[string]any{{"@type": "type.googleapis.com/google.rpc.QuotaFailure"}, info("1.5s")}, 1500 * time.Millisecond},
		{"unreadable", []map[string]any{info(17)}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := retryInfo(tt.details); got != tt.want {
				t.Errorf("retryInfo(%v) = %v; want %v", tt.details, got, tt.want)
			}
		})
	}
}

// TestStreamErrorStatus: an error inside a 200 stream carries only its gRPC status, which
// decides whether it is worth another attempt.
func TestStreamErrorStatus(t *testing.T) {
	m := &Model{name: "google/gemini-test", key: "AIza-internal-test-key"}
	tests := []struct {
		status        string
		wantStatus    int
		wantRetryable bool
	}{
		{"UNAVAILABLE", 503, true},
		{"RESOURCE_EXHAUSTED", 429, true},
		{"INVALID_ARGUMENT", 400, false},
		{"SOMETHING_NEW", 500, true},
	}
	for _, tt := range tests {
		t.Run(tt.status, func(t *testing.T) {
			e := m.translate(context.Background(), genai.APIError{Status: tt.status, Message: "mid-stream"}, &exchange{status: 200})
			if e.Status != tt.wantStatus || e.Retryable != tt.wantRetryable {
				t.Errorf("translate(%s) = status %d retryable %v; want %d %v", tt.status, e.Status, e.Retryable, tt.wantStatus, tt.wantRetryable)
			}
		})
	}
}
