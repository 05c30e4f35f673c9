package anthropic

import (
	"context"
	"net/http"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
)

// TestStreamErrorStatus: an error event inside a 200 stream carries only its type, which
// decides whether it is worth another attempt.
func TestStreamErrorStatus(t *testing.T) {
	m := &Model{name: "anthropic/claude-test", key: "sk-ant-internal-test-key"}
	tests := []struct {
		kind          string
		wantStatus    int
		wantRetryable bool
	}{
		{"overloaded_error", 529, true},
		{"api_error", 500, true},
		{"rate_limit_error", 429, true},
		{"invalid_request_error", 400, false},
		{"something_new", 500, true},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			var apiErr sdk.Error
			if err := apiErr.UnmarshalJSON([]byte(`{"type":"error","error":{"type":"` + tt.kind + `","message":"mid-stream"}}`)); err != nil {
				t.Fatal(err)
			}
			apiErr.StatusCode = http.StatusOK
			e := m.translate(context.Background(), &apiErr, &http.Response{StatusCode: http.StatusOK})
			if e.Status != tt.wantStatus || e.Retryable != tt.wantRetryable || e.Code != tt.kind {
				t.Errorf("translate(%s) = status %d retryable %v code %q; want %d %v %q",
					tt.kind, e.Status, e.Retryable, e.Code, tt.wantStatus, tt.wantRetryable, tt.kind)
			}
		})
	}
}
