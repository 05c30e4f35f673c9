package openai

import (
	"testing"

	"github.com/arbiter-eval/arbiter/internal/config"
)

// FuzzBatchResults: any batch output or error file parses to results or one error,
// never a panic, and every result has an id and exactly one of a reply and an error.
func FuzzBatchResults(f *testing.F) {
	f.Add([]byte(`{"id":"r","custom_id":"l0","response":{"status_code":200,"body":{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}},"error":null}` + "\n"))
	f.Add([]byte(`{"custom_id":"l1","response":{"status_code":500,"body":{"error":{"message":"boom","type":"server_error"}}}}` + "\n"))
	f.Add([]byte(`{"custom_id":"l2","response":null,"error":{"code":"batch_expired","message":"late"}}` + "\n\n"))
	f.Add([]byte(`{"custom_id":"l3","response":{"status_code":200,"body":{"choices":[]}}}`))
	f.Add([]byte("not json\n"))
	m, err := New("openai/gm", config.Endpoint{Provider: "openai", BaseURL: "http://127.0.0.1:1/v1", Key: "sk-secret-fuzz"}, Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		rs, err := m.parseResults(body)
		if err != nil {
			return
		}
		for _, r := range rs {
			if r.ID == "" || (r.Reply == nil) == (r.Err == nil) {
				t.Fatalf("result %+v: want an id and exactly one of reply and error", r)
			}
		}
	})
}
