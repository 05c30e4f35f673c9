package main

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// A scripted court for the stand-in, copied from internal/court's test helpers: each
// role's reply depends only on its request, so a request asked again gets the same answer.

var playHistoryLine = regexp.MustCompile(`(?m)^\[\d+\] `)

// playTurnOf is the number of the turn a role request asks for: one past the history.
func playTurnOf(user string) int { return len(playHistoryLine.FindAllString(user, -1)) + 1 }

// playScript answers like a small, well-behaved court; role is the model id.
func playScript(role, system, user string) string {
	n := playTurnOf(user)
	switch role {
	case "judge":
		switch {
		case strings.HasPrefix(system, "You are the court reporter"):
			return "Summary: the watchman saw a figure but no face; the pawnbroker saw a bearded man."
		case strings.HasPrefix(system, "You decide the outcome"):
			return `{"outcome": "win", "justification": "No witness placed the defendant at the theft or the pawn shop."}`
		case strings.Contains(user, "Pronounce the verdict now"):
			return "The court finds the defendant not guilty. The trial is closed."
		case n >= 10:
			return fmt.Sprintf("The court has heard the case and will proceed to closing statements. (turn %d)", n)
		}
		return fmt.Sprintf("Counsel, continue. (turn %d)", n)
	case "prosecutor":
		if strings.Contains(user, "Phase: interrogation") && n%4 == 1 {
			return fmt.Sprintf("Witness, tell the court what you saw that night. (%s, turn %d)", role, n)
		}
		return fmt.Sprintf("Your Honour, the record speaks for itself. (%s, turn %d)", role, n)
	case "witness":
		return fmt.Sprintf("I saw a figure in the fog, no face. (turn %d)", n)
	case "analyzer":
		return playAnalyzerScript(user)
	}
	return "?"
}

var playRouteLine = regexp.MustCompile(`(?m)^The turn to route: ([^:]+): (.*)$`)
var playBeforeLine = regexp.MustCompile(`(?m)^The turn before \(for context\): ([^:]+):`)

// playAnalyzerScript routes witness questions to a witness, addresses of the bench to
// the Judge, and the Judge's floor to the side that did not speak before it, or to closing.
func playAnalyzerScript(user string) string {
	m := playRouteLine.FindStringSubmatch(user)
	if m == nil {
		return "I cannot tell."
	}
	speaker, text := m[1], m[2]
	switch {
	case speaker == "Judge" && strings.Contains(text, "closing"):
		return "<NextSpeaker: Verdict>"
	case speaker == "Judge":
		if b := playBeforeLine.FindStringSubmatch(user); b != nil && b[1] == "Prosecutor" {
			return "<NextSpeaker: Defense>"
		}
		return "<NextSpeaker: Prosecutor>"
	case strings.HasPrefix(text, "Witness,"):
		return "<NextSpeaker: Witness_tomas>"
	}
	return "<NextSpeaker: Judge>"
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
