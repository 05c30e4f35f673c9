package llm

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
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

// countingConn counts the writes made on a connection.
type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// wrappedBody is a request body as the SDKs send one: wrapped in a type of their own,
// with GetBody giving the bytes again.
type wrappedBody struct{ io.ReadCloser }

// TestRequestGoesOutInOneWrite: a request whose body the SDK wrapped goes out with its
// headers in one write on the connection, and the server reads the whole body. Without
// inMemoryBody the transport flushes the headers first (two writes).
func TestRequestGoesOutInOneWrite(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, string(b))
	}))
	defer srv.Close()
	var writes atomic.Int64
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		return countingConn{c, &writes}, err
	}}
	c := CapReplies(&http.Client{Transport: tr})
	body := []byte(`{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("x", 2000) + `"}]}`)
	for i := range 3 {
		req, err := http.NewRequest(http.MethodPost, srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		rc, _ := req.GetBody()
		req.Body, req.ContentLength = wrappedBody{rc}, int64(len(body))
		before := writes.Load()
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if n := writes.Load() - before; n != 1 {
			t.Errorf("request %d went out in %d writes; want 1", i, n)
		}
	}
	if len(got) != 3 || got[2] != string(body) {
		t.Errorf("the server read %d bodies, the last %d bytes; want 3 of %d", len(got), len(got[len(got)-1]), len(body))
	}
}
