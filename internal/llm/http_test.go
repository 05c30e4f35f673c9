package llm

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// bodyOf is a transport that answers every request with a body of n bytes.
type bodyOf int64

func (n bodyOf) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Body: io.NopCloser(io.LimitReader(zeros{}, int64(n)))}, nil
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestCapReplies(t *testing.T) {
	tests := []struct {
		name    string
		size    int64
		wantErr bool
	}{
		{"small", 10, false},
		{"exactly the cap", MaxReplyBytes, false},
		{"one byte over", MaxReplyBytes + 1, true},
		{"endless", 1 << 40, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := CapReplies(&http.Client{Transport: bodyOf(tt.size)})
			resp, err := c.Get("http://stand-in.invalid/")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			n, err := io.Copy(io.Discard, resp.Body)
			if got := errors.Is(err, ErrReplyTooLarge); got != tt.wantErr {
				t.Fatalf("read %d bytes, error %v; want ErrReplyTooLarge %v", n, err, tt.wantErr)
			}
			if want := min(tt.size, MaxReplyBytes); n != want {
				t.Errorf("read %d bytes; want %d", n, want)
			}
			if tt.wantErr {
				if _, err := resp.Body.Read(make([]byte, 1)); !errors.Is(err, ErrReplyTooLarge) {
					t.Errorf("read after the cap = %v; want ErrReplyTooLarge again", err)
				}
			}
		})
	}
	t.Run("capping twice wraps once", func(t *testing.T) {
		c := CapReplies(nil)
		if CapReplies(c) != c {
			t.Error("CapReplies of a capped client made a new one")
		}
		if _, ok := NewHTTPClient().Transport.(capTransport); !ok {
			t.Error("NewHTTPClient is not capped")
		}
	})
}

func TestReplyTooLarge(t *testing.T) {
	wrapped := errors.Join(errors.New("sdk: read body"), ErrReplyTooLarge)
	e := ReplyTooLarge("openai", 200, wrapped)
	if e == nil || e.Retryable || !errors.Is(e, ErrReplyTooLarge) || !strings.Contains(e.Error(), "8 MiB") {
		t.Errorf("ReplyTooLarge = %#v; want a non-retryable *Error wrapping ErrReplyTooLarge", e)
	}
	if ReplyTooLarge("openai", 200, io.ErrUnexpectedEOF) != nil {
		t.Error("ReplyTooLarge of another error is not nil")
	}
}
