package main

import (
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/court/courttest"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// playScript is courttest's scripted court; role is the model id.
func playScript(role, system, user string) string {
	return courttest.Script{}.Reply(role, system, user)
}

// playStandIn serves the scripted court over the OpenAI wire format (model ids judge,
// prosecutor, witness, analyzer); override, when it returns true, answers instead. It
// keeps what each request asked.
type playStandIn struct {
	*llmtest.Server
	mu    sync.Mutex
	users []string // every request's model and last user message
}

func newPlayStandIn(t *testing.T, override func(req *llmtest.Request) (llmtest.Response, bool)) *playStandIn {
	t.Helper()
	s := &playStandIn{}
	s.Server = llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		s.mu.Lock()
		s.users = append(s.users, req.Model+"\x00"+req.LastUser())
		s.mu.Unlock()
		if override != nil {
			if resp, ok := override(req); ok {
				return resp
			}
		}
		first := ""
		if len(req.Messages) > 0 {
			first = req.Messages[0].Text
		}
		return llmtest.Response{Text: playScript(req.Model, req.System, first)}
	}})
	t.Cleanup(s.Close)
	return s
}

// sawText counts the requests to the model role ("" for any) whose user message holds text.
func (s *playStandIn) sawText(role, text string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, u := range s.users {
		model, user, _ := strings.Cut(u, "\x00")
		if (role == "" || model == role) && strings.Contains(user, text) {
			n++
		}
	}
	return n
}

// playArgs are the flags that point a court game at the stand-in and a fresh store.
func (s *playStandIn) playArgs(db string, more ...string) []string {
	args := []string{"court", "play", "--db", db, "--base-url", s.OpenAIBaseURL(), "--no-cache",
		"--judge-model", "openai/judge", "--prosecutor-model", "openai/prosecutor",
		"--witness-model", "openai/witness", "--analyzer-model", "openai/analyzer"}
	return append(args, more...)
}
