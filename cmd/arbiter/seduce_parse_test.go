package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

func TestSeduceParseExplain(t *testing.T) {
	in := `{"id": "a", "text": "Decision: roll\nSkill: Climb"}
{"id": "b", "text": "Make a Climb roll. Actually, no roll is needed."}
`
	r := arbiterIn(t, nil, in, "seduce", "parse", "--explain")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := `{"id":"a","decision":"roll","skill":"Climb","rule":"label","span":"Decision: roll"}
{"id":"b","decision":"unparsed","skill":null,"rule":"contradiction","span":"Make a Climb roll | no roll"}`
	if got := strings.TrimSpace(r.stdout); got != want {
		t.Errorf("seduce parse --explain printed\n%s\nwant\n%s", got, want)
	}
}

// TestSeduceParseAbstentions: --rule keeps one rule's lines and --unparsed exports the
// abstentions with their text, as input lines of seduce parse again.
func TestSeduceParseAbstentions(t *testing.T) {
	in := `{"id": "a", "text": "Make a Climb roll."}
{"id": "b", "text": "She makes a Swim roll if she falls in."}
{"id": "c", "text": "Make a Climb roll. Actually, no roll is needed."}
{"id": "d", "text": "No roll is needed."}
`
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"one rule", []string{"--rule", "conditional"}, `{"id":"b","decision":"unparsed","skill":null}`},
		{"two rules", []string{"--rule", "conditional", "--rule", "prose:negated"},
			`{"id":"b","decision":"unparsed","skill":null}` + "\n" + `{"id":"d","decision":"pass","skill":null}`},
		{"unparsed", []string{"--unparsed"},
			`{"id":"b","decision":"unparsed","skill":null,"text":"She makes a Swim roll if she falls in."}` + "\n" +
				`{"id":"c","decision":"unparsed","skill":null,"text":"Make a Climb roll. Actually, no roll is needed."}`},
		{"unparsed of one rule", []string{"--unparsed", "--rule", "contradiction", "--explain"},
			`{"id":"c","decision":"unparsed","skill":null,"rule":"contradiction","span":"Make a Climb roll | no roll","text":"Make a Climb roll. Actually, no roll is needed."}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := arbiterIn(t, nil, in, append([]string{"seduce", "parse"}, tt.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if got := strings.TrimSpace(r.stdout); got != tt.want {
				t.Errorf("seduce parse %v printed\n%s\nwant\n%s", tt.args, got, tt.want)
			}
		})
	}
}

func TestSeduceParseLexicon(t *testing.T) {
	dir := t.TempDir()
	it := filepath.Join(dir, "it.json")
	if err := os.WriteFile(it, []byte(`{"language": "it", "roll": ["fai un tiro"], "skills": {"arrampicarsi": "Climb"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	in := `{"id": "a", "text": "Fai un tiro di Arrampicarsi."}` + "\n"
	if r := arbiterIn(t, nil, in, "seduce", "parse", "--lexicon", it); r.code != 0 || strings.TrimSpace(r.stdout) != `{"id":"a","decision":"roll","skill":"Climb"}` {
		t.Errorf("seduce parse --lexicon: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"roll": ["x"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := arbiterIn(t, nil, in, "seduce", "parse", "--lexicon", bad); r.code != 2 || !strings.Contains(r.stderr, "bad.json") {
		t.Errorf("seduce parse --lexicon bad.json: exit %d, stderr %q; want 2 naming the file", r.code, r.stderr)
	}
}

// TestSeduceParseModel: only the replies the rules leave unparsed reach the model, a
// rerun on the same store sends nothing, and the model's rulings are marked and counted.
func TestSeduceParseModel(t *testing.T) {
	var mu sync.Mutex
	var sent []string
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		mu.Lock()
		sent = append(sent, req.LastUser())
		mu.Unlock()
		if len(req.JSONSchema) == 0 {
			return llmtest.Response{Text: "no schema"}
		}
		if strings.Contains(req.LastUser(), "Dodge") {
			return llmtest.Response{Text: `{"decision": "roll", "skill": "Dodge"}`}
		}
		return llmtest.Response{Text: `{"decision": "unclear", "skill": null}`}
	}})
	defer srv.Close()
	in := `{"id": "a", "text": "Make a Climb roll."}
{"id": "b", "text": "Dodge, I suppose? Hard to call."}
{"id": "c", "text": "Hmm, hard to say."}
{"id": "d", "text": ""}
`
	env := map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	db := filepath.Join(t.TempDir(), "p.db")
	want := `{"id":"a","decision":"roll","skill":"Climb"}
{"id":"b","decision":"roll","skill":"Dodge","parsed_by":"model"}
{"id":"c","decision":"unparsed","skill":null}
{"id":"d","decision":"unparsed","skill":null}`
	for run := 1; run <= 2; run++ {
		r := arbiterIn(t, env, in, "seduce", "parse", "--parse-model", "openai/reader", "--db", db)
		if r.code != 0 {
			t.Fatalf("run %d: exit %d: %s", run, r.code, r.stderr)
		}
		if got := strings.TrimSpace(r.stdout); got != want {
			t.Errorf("run %d printed\n%s\nwant\n%s", run, got, want)
		}
		if !strings.Contains(r.stderr, "3 of 4 replies unparsed by the rules; 2 asked") || !strings.Contains(r.stderr, "1 ruled by it") {
			t.Errorf("run %d: stderr %q; want the counts", run, r.stderr)
		}
		if n := srv.Requests(); n != 2 {
			t.Errorf("after run %d the stand-in saw %d requests; want 2 (b and c, once)", run, n)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range sent {
		if strings.Contains(s, "Climb") {
			t.Errorf("a reply the rules read was sent: %q", s)
		}
	}
}
