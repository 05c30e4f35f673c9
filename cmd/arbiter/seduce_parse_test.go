package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
