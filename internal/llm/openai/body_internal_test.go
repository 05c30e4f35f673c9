package openai

import (
	"bytes"
	"encoding/json"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

// sdkParams builds the SDK's own params for req, as the adapter did before it encoded
// bodies itself: the reference body's encoding is held to.
func sdkParams(m *Model, req *llm.Request, stream bool) *sdk.ChatCompletionNewParams {
	p := &sdk.ChatCompletionNewParams{Model: sdk.ChatModel(m.name.ID())}
	if req.System != "" {
		p.Messages = append(p.Messages, sdk.SystemMessage(req.System))
	}
	for _, msg := range req.Messages {
		if msg.Role == llm.RoleUser {
			p.Messages = append(p.Messages, sdk.UserMessage(msg.Text))
		} else {
			p.Messages = append(p.Messages, sdk.AssistantMessage(msg.Text))
		}
	}
	if req.System != "" && m.provider == "openai" {
		p.PromptCacheKey = sdk.String(promptCacheKey(req.System))
	}
	if req.Temperature != nil {
		p.Temperature = sdk.Float(*req.Temperature)
	}
	if req.TopP != nil {
		p.TopP = sdk.Float(*req.TopP)
	}
	if req.Seed != nil {
		p.Seed = sdk.Int(*req.Seed)
	}
	if req.MaxTokens > 0 {
		p.MaxCompletionTokens = sdk.Int(int64(req.MaxTokens))
	}
	if req.ReasoningEffort != "" {
		p.ReasoningEffort = shared.ReasoningEffort(req.ReasoningEffort)
	}
	if len(req.JSONSchema) > 0 {
		name := req.SchemaName
		if !schemaNameRE.MatchString(name) {
			name = defaultSchemaName
		}
		p.ResponseFormat = sdk.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &sdk.ResponseFormatJSONSchemaParam{
				JSONSchema: sdk.ResponseFormatJSONSchemaJSONSchemaParam{Name: name, Schema: req.JSONSchema},
			},
		}
	}
	if stream {
		p.StreamOptions = sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)}
	}
	return p
}

// TestBodyMatchesSDK: the body the adapter encodes is, byte for byte, what the SDK's
// ChatCompletionNewParams encodes for the same request, for every field arbiter sends.
func TestBodyMatchesSDK(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	seed := int64(7)
	turns := []llm.Message{{Role: llm.RoleUser, Text: "I climb <the> \"wall\" & run\u2028é\x01"}, {Role: llm.RoleAssistant, Text: "Climb."},
		{Role: llm.RoleUser, Text: "Surely not?"}}
	reqs := map[string]*llm.Request{
		"plain":     llm.UserText("", "hi"),
		"system":    llm.UserText("You are the Keeper.\n<rules>roll or pass</rules>", "I sneak past the guard."),
		"turns":     {System: "Judge.", Messages: turns},
		"sampling":  {Messages: turns[:1], Temperature: f(0), TopP: f(0.95), Seed: &seed, MaxTokens: 512},
		"fractions": {Messages: turns[:1], Temperature: f(0.7), TopP: f(1e-7)},
		"effort":    {Messages: turns[:1], ReasoningEffort: "high"},
		"schema": {System: "s", Messages: turns[:1], SchemaName: "ruling",
			JSONSchema: json.RawMessage(`{"type":"object","properties":{"decision":{"enum":["roll","pass"]}}}`)},
		"schema bad name": {Messages: turns[:1], SchemaName: "no spaces allowed", JSONSchema: json.RawMessage(`{"type": "object"}`)},
	}
	for _, provider := range []string{"openai", "ollama"} {
		m, err := New(llm.ModelName(provider+"/gm-1"), config.Endpoint{Provider: provider, BaseURL: "http://127.0.0.1:1", Key: "sk-x"}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for name, req := range reqs {
			for _, stream := range []bool{false, true} {
				got, err := m.body(req, stream)
				if err != nil {
					t.Fatalf("%s %s: %v", provider, name, err)
				}
				want, err := sdkParams(m, req, stream).MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				// The SDK sends a schema's whitespace as given; the body, compacted.
				var compact bytes.Buffer
				if err := json.Compact(&compact, want); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, compact.Bytes()) {
					t.Errorf("%s %s stream=%v:\n got %s\nwant %s", provider, name, stream, got, want)
				}
			}
		}
	}
}
