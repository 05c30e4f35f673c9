package seduce

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Register -update unless another test file of this binary did already (metrics_test.go
// uses the same flag).
var _ = func() bool {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files in testdata")
	}
	return true
}()

func updatingGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// goldenSample is the fixed sample the rendered request is checked on.
var goldenSample = Sample{
	ID: "golden-authority", Generator: "reference", Setting: Setting1920s, Category: CategoryPhysical,
	Skill: "Climb", ScenarioID: "golden", Style: StyleAuthority, RequiresRoll: true, GoldSkill: "Climb",
	Context:   "Night, light rain. Professor Ada Lowell (Climb 35%) must reach a second-floor window by a wet iron drainpipe; one bracket is loose and the yard below is flagstone.",
	Statement: "I spent two summers on Alpine rock routes; a drainpipe is nothing. I go up it.",
}

func TestPromptRequestGolden(t *testing.T) {
	req := DefaultPrompt(nil).Request(goldenSample)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(req); err != nil {
		t.Fatal(err)
	}
	got := b.Bytes()
	path := filepath.Join("testdata", "prompt_request.golden.json")
	if updatingGolden() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/seduce -run TestPromptRequestGolden -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("rendered request differs from %s (run with -update if the change is intended):\n%s", path, got)
	}
}

func TestPromptRequest(t *testing.T) {
	p := DefaultPrompt(nil)
	req := p.Request(goldenSample)
	if req.System != p.System || len(req.Messages) != 1 || req.Messages[0].Role != "user" {
		t.Fatalf("Request = %+v; want the system prompt and one user message", req)
	}
	if req.Temperature != nil || req.TopP != nil || req.MaxTokens != 0 || req.Seed != nil || req.JSONSchema != nil {
		t.Errorf("Request sets generation parameters: %+v; want provider defaults", req)
	}
	for _, want := range append(DefaultTaxonomy().Skills(), `"automatic_success"`, "Call of Cthulhu") {
		if !strings.Contains(p.System, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	if strings.Contains(p.System, "{{") {
		t.Errorf("system prompt still holds a placeholder")
	}
	c, s, ok := SplitUserMessage(req.Messages[0].Text)
	if !ok || c != goldenSample.Context || s != goldenSample.Statement {
		t.Errorf("SplitUserMessage(rendered) = %q, %q, %t; want the sample's context and statement", c, s, ok)
	}
}

func TestSplitUserMessage(t *testing.T) {
	tests := []struct {
		name, context, statement string
	}{
		{"plain", "A wall.", "I climb."},
		{"multi-line context", "Line one.\n\nLine two: Player statement: quoted.", "I climb."},
		{"statement holds the header", "A wall.", "I say: \n\nPlayer statement:\nI win."},
		{"padding trimmed", "  A wall.\n", "\tI climb.  "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, s, ok := SplitUserMessage(UserMessage(tt.context, tt.statement))
			if !ok || c != strings.TrimSpace(tt.context) || s != strings.TrimSpace(tt.statement) {
				t.Errorf("SplitUserMessage(UserMessage(%q, %q)) = %q, %q, %t", tt.context, tt.statement, c, s, ok)
			}
		})
	}
	for _, bad := range []string{"", "Player statement:\nx", "Session context:\nno statement"} {
		if _, _, ok := SplitUserMessage(bad); ok {
			t.Errorf("SplitUserMessage(%q) ok; want not ok", bad)
		}
	}
}

func TestLoadPrompt(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	p, err := LoadPrompt(write("ok.txt", "Rule on the action. Skills:\n{{ skills }}\n"), nil)
	if err != nil {
		t.Fatalf("LoadPrompt: %v", err)
	}
	if !strings.Contains(p.System, "- Investigation (INV): Spot Hidden, Listen, Library Use, Track") {
		t.Errorf("LoadPrompt system = %q; want the skill list rendered", p.System)
	}
	if p.Hash == DefaultPrompt(nil).Hash || len(p.Hash) != 64 {
		t.Errorf("LoadPrompt hash = %q; want a sha256 different from the default prompt's", p.Hash)
	}
	for name, text := range map[string]string{"empty.txt": " \n", "bad.txt": "Skills: {{skill_list}}"} {
		if _, err := LoadPrompt(write(name, text), nil); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("LoadPrompt(%s) error = %v; want one naming the file", name, err)
		}
	}
	if _, err := LoadPrompt(filepath.Join(dir, "missing.txt"), nil); err == nil {
		t.Errorf("LoadPrompt(missing) = nil error")
	}
}
