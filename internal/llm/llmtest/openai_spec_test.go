package llmtest_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// specFile holds the schemas of OpenAI's official OpenAPI spec that the stand-in's
// Chat Completions replies must meet, with everything they refer to.
const specFile = "testdata/openai-chat-schemas.json"

var updateSpec = flag.String("update-spec", "",
	"re-extract "+specFile+" from this openapi.yaml (e.g. /work/shared/vendor/openai-openapi/openapi.yaml)")

// specRoots are the schemas the stand-in answers with.
var specRoots = []string{"CreateChatCompletionResponse", "CreateChatCompletionStreamResponse", "ErrorResponse"}

type spec struct {
	Source  string                    `json:"source"`
	Schemas map[string]map[string]any `json:"schemas"`
}

func loadSpec(t *testing.T) *spec {
	t.Helper()
	if *updateSpec != "" {
		extractSchemas(t, *updateSpec, specRoots, specFile)
	}
	b, err := os.ReadFile(specFile)
	if err != nil {
		t.Fatalf("%v (refresh with -update-spec)", err)
	}
	var sp spec
	if err := json.Unmarshal(b, &sp); err != nil {
		t.Fatalf("%s: %v", specFile, err)
	}
	return &sp
}

// refs lists the component schemas that v refers to.
func refs(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		if r, ok := v["$ref"].(string); ok {
			out = append(out, strings.TrimPrefix(r, "#/components/schemas/"))
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = append(out, refs(v[k])...)
		}
	case []any:
		for _, e := range v {
			out = append(out, refs(e)...)
		}
	}
	return out
}

// validate checks v against schema with the subset of JSON Schema the spec uses for
// these objects: $ref, type (and "null"), nullable, anyOf/oneOf/allOf, enum, required,
// properties and items. It returns the problems found, each with its JSON path.
func (sp *spec) validate(path string, v any, schema map[string]any) []string {
	if v == nil && schema["nullable"] == true {
		return nil
	}
	if r, ok := schema["$ref"].(string); ok {
		target, ok := sp.Schemas[strings.TrimPrefix(r, "#/components/schemas/")]
		if !ok {
			return []string{fmt.Sprintf("%s: unresolved %s", path, r)}
		}
		return sp.validate(path, v, target)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if alts, ok := schema[key].([]any); ok {
			var all []string
			for _, alt := range alts {
				probs := sp.validate(path, v, alt.(map[string]any))
				if len(probs) == 0 {
					return nil
				}
				all = append(all, probs...)
			}
			return []string{fmt.Sprintf("%s: matches no %s branch: %s", path, key, strings.Join(all, "; "))}
		}
	}
	var probs []string
	if alts, ok := schema["allOf"].([]any); ok {
		for _, alt := range alts {
			probs = append(probs, sp.validate(path, v, alt.(map[string]any))...)
		}
	}
	if typ, ok := schema["type"].(string); ok && !hasType(v, typ) {
		return append(probs, fmt.Sprintf("%s: %v is not of type %s", path, v, typ))
	}
	if enum, ok := schema["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		probs = append(probs, fmt.Sprintf("%s: %v is not one of %v", path, v, enum))
	}
	switch v := v.(type) {
	case map[string]any:
		required, _ := schema["required"].([]any)
		for _, r := range required {
			if _, ok := v[r.(string)]; !ok {
				probs = append(probs, fmt.Sprintf("%s: required field %s is missing", path, r))
			}
		}
		props, _ := schema["properties"].(map[string]any)
		for k, pv := range v {
			if ps, ok := props[k].(map[string]any); ok {
				probs = append(probs, sp.validate(path+"."+k, pv, ps)...)
			}
		}
	case []any:
		if items, ok := schema["items"].(map[string]any); ok {
			for i, e := range v {
				probs = append(probs, sp.validate(fmt.Sprintf("%s[%d]", path, i), e, items)...)
			}
		}
	}
	return probs
}

func hasType(v any, typ string) bool {
	switch typ {
	case "null":
		return v == nil
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f)
	}
	return true
}

// requiredOf is what the spec lists as required, so the test fails if the extraction
// lost it rather than passing on an empty list.
func requiredOf(t *testing.T, sp *spec, name string) []any {
	req, ok := sp.Schemas[name]["required"].([]any)
	if !ok || len(req) == 0 {
		t.Fatalf("%s: schema %s lists no required fields", specFile, name)
	}
	return req
}

func TestOpenAIReplyMeetsSpec(t *testing.T) {
	sp := loadSpec(t)
	requiredOf(t, sp, "CreateChatCompletionResponse")
	requiredOf(t, sp, "CreateChatCompletionStreamResponse")
	requiredOf(t, sp, "ErrorResponse")
	tests := []struct {
		name string
		resp llmtest.Response
	}{
		{"text", llmtest.Response{Text: "The claim is supported.", Reasoning: "Check clause 2."}},
		{"refusal", llmtest.Response{Refusal: "I can't help with that."}},
		{"content filter", llmtest.Response{Blocked: true}},
		{"length", llmtest.Response{Text: "cut", Finish: llm.FinishLength}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, llmtest.Options{Responder: func(*llmtest.Request) llmtest.Response { return tt.resp }})

			body := postRaw(t, s.URL, `{"model":"gpt-test","messages":[{"role":"user","content":"x"}]}`)
			checkSchema(t, sp, "CreateChatCompletionResponse", body)
			var c sdk.ChatCompletion
			if err := json.Unmarshal(body, &c); err != nil {
				t.Fatalf("SDK decode: %v", err)
			}
			if !c.JSON.ID.Valid() || c.Object != "chat.completion" || !c.JSON.Created.Valid() || c.Model != "gpt-test" ||
				len(c.Choices) != 1 || !c.Choices[0].JSON.Index.Valid() || !c.Choices[0].JSON.Message.Valid() ||
				c.Choices[0].FinishReason == "" || !c.JSON.Usage.Valid() || c.Usage.TotalTokens != c.Usage.PromptTokens+c.Usage.CompletionTokens {
				t.Errorf("SDK sees %s; want id, object, created, model, choices[0].index/message/finish_reason and usage", c.RawJSON())
			}

			stream := postRaw(t, s.URL, `{"model":"gpt-test","messages":[{"role":"user","content":"x"}],"stream":true,"stream_options":{"include_usage":true}}`)
			events := sseData(t, strings.NewReader(string(stream)))
			if len(events) < 3 || events[len(events)-1] != "[DONE]" {
				t.Fatalf("stream events %q; want chunks ending in [DONE]", events)
			}
			var usage, finishes int
			for _, e := range events[:len(events)-1] {
				checkSchema(t, sp, "CreateChatCompletionStreamResponse", []byte(e))
				var ch sdk.ChatCompletionChunk
				if err := json.Unmarshal([]byte(e), &ch); err != nil {
					t.Fatalf("SDK decode of chunk %s: %v", e, err)
				}
				if !ch.JSON.ID.Valid() || ch.Object != "chat.completion.chunk" || !ch.JSON.Created.Valid() || ch.Model != "gpt-test" {
					t.Errorf("chunk %s lacks id, object, created or model", e)
				}
				if ch.JSON.Usage.Valid() {
					usage++
				}
				for _, c := range ch.Choices {
					if c.FinishReason != "" {
						finishes++
					}
				}
			}
			if usage != 1 || finishes != 1 {
				t.Errorf("%d usage chunks and %d finish reasons; want one of each", usage, finishes)
			}
		})
	}
}

func TestOpenAIErrorMeetsSpec(t *testing.T) {
	sp := loadSpec(t)
	for _, kind := range []llmtest.FaultKind{llmtest.FaultRateLimit, llmtest.FaultServerError, llmtest.FaultUnavailable,
		llmtest.FaultBadRequest, llmtest.FaultUnauthorized, llmtest.FaultNotFound} {
		t.Run(string(kind), func(t *testing.T) {
			s := newServer(t, llmtest.Options{Responder: func(*llmtest.Request) llmtest.Response {
				return llmtest.Response{Fault: llmtest.Fault{Kind: kind}}
			}})
			resp, err := http.Post(s.URL+"/v1/chat/completions", "application/json",
				strings.NewReader(`{"model":"gpt-test","messages":[{"role":"user","content":"x"}]}`))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode < 400 {
				t.Fatalf("status %d; want an error", resp.StatusCode)
			}
			checkSchema(t, sp, "ErrorResponse", body)
		})
	}
}

func postRaw(t *testing.T, url, body string) []byte {
	t.Helper()
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST: status %d, %v", resp.StatusCode, err)
	}
	return b
}

func checkSchema(t *testing.T, sp *spec, name string, body []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s is not JSON: %v", body, err)
	}
	for _, p := range sp.validate("$", v, sp.Schemas[name]) {
		t.Errorf("%s (%s): %s", name, sp.Source, p)
	}
}

// TestSpecCheckCatchesDefects keeps the schema check honest: replies that break the spec
// in known ways must fail it.
func TestSpecCheckCatchesDefects(t *testing.T) {
	sp := loadSpec(t)
	good := `{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"x","refusal":null},"logprobs":null,"finish_reason":"stop"}]}`
	tests := []struct {
		name string
		body string
	}{
		{"no id", strings.Replace(good, `"id":"c1",`, ``, 1)},
		{"wrong object", strings.Replace(good, `"chat.completion"`, `"chat.completion.chunk"`, 1)},
		{"created is a string", strings.Replace(good, `"created":1`, `"created":"1"`, 1)},
		{"unknown finish reason", strings.Replace(good, `"stop"`, `"done"`, 1)},
		{"message without refusal", strings.Replace(good, `,"refusal":null`, ``, 1)},
		{"choice without index", strings.Replace(good, `"index":0,`, ``, 1)},
	}
	var v any
	json.Unmarshal([]byte(good), &v)
	if probs := sp.validate("$", v, sp.Schemas["CreateChatCompletionResponse"]); len(probs) > 0 {
		t.Fatalf("the good reply fails: %v", probs)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v any
			if err := json.Unmarshal([]byte(tt.body), &v); err != nil {
				t.Fatal(err)
			}
			if probs := sp.validate("$", v, sp.Schemas["CreateChatCompletionResponse"]); len(probs) == 0 {
				t.Errorf("validate(%s) found nothing wrong", tt.body)
			}
		})
	}
}
