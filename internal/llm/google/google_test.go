package google_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/google"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest/conformance"
)

var _ llm.Model = (*google.Model)(nil)

// fakeKey is recognisable so that a test can prove it never reaches an error message.
const fakeKey = "AIza-llmtest-FAKE-KEY-93be17"

// provider describes the adapter to the conformance suite: Gemini carries no refusal
// text, so refusals and blocks are content filters named by their reason, and its own
// finish reasons say what blocked an answer.
func provider() conformance.Provider {
	return conformance.Provider{
		Name: "google/gemini-test",
		New: func(name llm.ModelName, ep config.Endpoint, hc *http.Client) (llm.Model, error) {
			return google.New(name, ep, google.Options{HTTPClient: hc})
		},
		BaseURL:    func(s *llmtest.Server) string { return s.URL },
		DefaultURL: "https://generativelanguage.googleapis.com/v1beta/models/gemini-test:generateContent",
		Key:        fakeKey,
		KeyVar:     "GEMINI_API_KEY",
		Endpoints: []conformance.Endpoint{
			{Name: "missing key named by GOOGLE_API_KEY", Endpoint: config.Endpoint{Provider: "google", KeyVar: "GOOGLE_API_KEY"},
				WantErr: "GOOGLE_API_KEY is not set (or pass --base-url for a local server)"},
		},
		Unset:   []string{"temperature", "topP", "seed", "maxOutputTokens", "responseMimeType", "responseJsonSchema"},
		Seed:    true,
		Refused: conformance.Outcome{Finish: llm.FinishContentFilter, Refusal: "answer blocked: SAFETY"},
		Blocked: conformance.Outcome{Finish: llm.FinishContentFilter, Refusal: "prompt blocked: SAFETY"},
		Finishes: []conformance.Finish{
			{Wire: "PROHIBITED_CONTENT", Text: "partial",
				Want: conformance.Outcome{Finish: llm.FinishContentFilter, Text: "partial", Refusal: "answer blocked: PROHIBITED_CONTENT"}},
			{Wire: "BLOCKLIST", Want: conformance.Outcome{Finish: llm.FinishContentFilter, Refusal: "answer blocked: BLOCKLIST"}},
			{Wire: "OTHER", Text: "x", Want: conformance.Outcome{Finish: llm.FinishOther, Text: "x"}},
		},
		// The stand-in's Retry-After header (whole seconds) wins over its RetryInfo
		// detail; TestRetryInfo covers the detail alone.
		FractionalRetryAfter: 2 * time.Second,
	}
}

func TestConformance(t *testing.T) { conformance.Run(t, provider()) }

func TestRequestMapping(t *testing.T) {
	t.Run("key header", func(t *testing.T) {
		_, r := provider().Sent(t, llm.UserText("sys", "hello"))
		if r.Header.Get("x-goog-api-key") != fakeKey {
			t.Errorf("x-goog-api-key header is not the configured key")
		}
	})
	t.Run("schema asks for JSON", func(t *testing.T) {
		req := llm.UserText("", "q")
		req.JSONSchema = []byte(`{"type":"object"}`)
		_, r := provider().Sent(t, req)
		if !strings.Contains(string(r.Body), `"responseMimeType":"application/json"`) {
			t.Errorf("body %s; want responseMimeType application/json", r.Body)
		}
	})
	t.Run("schema sent whole as responseJsonSchema", func(t *testing.T) {
		// A nested schema with the keywords a case record's uses: Gemini reads JSON
		// Schema from responseJsonSchema (responseSchema is its OpenAPI subset).
		schema := `{"type":"object","additionalProperties":false,"required":["kind","items"],"properties":{` +
			`"kind":{"type":"string","enum":["criminal","civil"]},` +
			`"items":{"type":"array","minItems":3,"maxItems":6,"items":{"type":"object","required":["id"],"properties":{"id":{"type":"string","pattern":"^[a-z0-9-]+$"}}}}}}`
		req := llm.UserText("", "q")
		req.JSONSchema = []byte(schema)
		_, r := provider().Sent(t, req)
		var sent, want any
		if err := json.Unmarshal(r.JSONSchema, &sent); err != nil {
			t.Fatalf("the stand-in read no responseJsonSchema from %s: %v", r.Body, err)
		}
		_ = json.Unmarshal([]byte(schema), &want)
		if !reflect.DeepEqual(sent, want) {
			t.Errorf("responseJsonSchema = %s; want %s", r.JSONSchema, schema)
		}
		if strings.Contains(string(r.Body), `"responseSchema"`) {
			t.Errorf("body %s sends responseSchema too; want responseJsonSchema alone", r.Body)
		}
	})
}

// TestNewIgnoresEnvironment checks that genai takes neither a key nor a base URL from the
// environment: config is the one reader of it.
func TestNewIgnoresEnvironment(t *testing.T) {
	t.Setenv("GEMINI_API_KEY", "env-key-must-not-be-used")
	t.Setenv("GOOGLE_API_KEY", "env-key-must-not-be-used")
	t.Setenv("GOOGLE_GEMINI_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("GOOGLE_GENAI_USE_VERTEXAI", "true")
	if _, err := google.New("google/gemini-test", config.Endpoint{Provider: "google", KeyVar: "GEMINI_API_KEY"}, google.Options{}); err == nil {
		t.Errorf("New without a configured key succeeded; want the key from config only")
	}
	var seen *llmtest.Request
	s := conformance.Server(t, func(r *llmtest.Request) llmtest.Response {
		seen = r
		return llmtest.Echo(r)
	})
	m := provider().Model(t, s)
	if n := s.Requests(); n != 0 {
		t.Errorf("New made %d requests; want none", n)
	}
	if _, err := m.Generate(context.Background(), llm.UserText("", "hi")); err != nil {
		t.Fatalf("Generate: %v (the environment's base URL or backend was used?)", err)
	}
	if seen.Header.Get("x-goog-api-key") != fakeKey {
		t.Errorf("the key sent is not the configured one")
	}
}
