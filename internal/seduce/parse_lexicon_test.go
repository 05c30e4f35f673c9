package seduce

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultLexicon(t *testing.T) {
	lex := DefaultLexicon()
	for _, lang := range []string{"en", "fr", "de", "es", "it", "pt"} {
		if !strings.Contains(strings.Join(lex.Languages, " "), lang) {
			t.Errorf("DefaultLexicon languages = %v; want %s", lex.Languages, lang)
		}
	}
}

// TestLoadLexicons: a user's file adds a language; the built-in ones stay.
func TestLoadLexicons(t *testing.T) {
	dir := t.TempDir()
	nl := filepath.Join(dir, "sv.json")
	if err := os.WriteFile(nl, []byte(`{"language": "sv", "roll": ["gör ett slag"], "pass": ["inget slag"],
		"negation": ["inget"], "refusal": ["jag kan inte hjälpa dig"], "skills": {"klättra": "Climb"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	lex, err := LoadLexicons([]string{nl})
	if err != nil {
		t.Fatalf("LoadLexicons: %v", err)
	}
	tests := []struct {
		text     string
		lex      *Lexicon
		decision Decision
		skill    string
	}{
		{"Gör ett slag för Klättra.", lex, DecisionRoll, "Climb"},
		{"Inget slag: dörren står öppen.", lex, DecisionPass, ""},
		{"Förlåt, jag kan inte hjälpa dig.", lex, DecisionRefused, ""},
		{"Faites un jet de Grimper.", lex, DecisionRoll, "Climb"},
		{"Gör ett slag för Klättra.", nil, DecisionUnparsed, ""},
	}
	for _, tt := range tests {
		got := ParseReplyWith(tt.text, nil, tt.lex)
		if got.Decision != tt.decision || got.Skill != tt.skill {
			t.Errorf("ParseReplyWith(%q) = %v; want %s %s", tt.text, got, tt.decision, tt.skill)
		}
	}
}

func TestLoadLexiconsErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, body, want string }{
		{"unknown field", `{"language": "it", "rolls": ["x"]}`, "unknown field"},
		{"no language", `{"roll": ["x"]}`, "language: missing"},
		{"empty phrase", `{"language": "it", "roll": [" "]}`, "roll[0]: empty phrase"},
		{"not json", `roll`, "lexicon"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name+".json")
			if err := os.WriteFile(path, []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadLexicons([]string{path})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("LoadLexicons(%s) error = %v; want one naming the file and %q", tt.body, err, tt.want)
			}
		})
	}
	if _, err := LoadLexicons([]string{filepath.Join(dir, "missing.json")}); err == nil {
		t.Error("LoadLexicons(missing file) = nil error")
	}
}

// TestPhraseIndexAgrees holds the one-pass phrase search to anyPhrase's answer on every
// labelled reply, for every list it indexes.
func TestPhraseIndexAgrees(t *testing.T) {
	lex := DefaultLexicon()
	lists := map[string][]string{"open": lex.open, "refusal": lex.refusal, "undetermined": lex.undetermined, "correction": lex.correction}
	for _, glob := range []string{"testdata/replies/*.jsonl", "testdata/replies-dev/*.jsonl", "testdata/replies-dev-2/*.jsonl"} {
		eachJSONLine(t, glob, func(path string, n int, r struct {
			Text string `json:"text"`
		}) {
			folded := foldLower(r.Text)
			for name, list := range lists {
				wantAt, wantP := anyPhrase(folded, list)
				gotAt, gotP := newPhraseIndex(list).first(folded)
				if gotAt != wantAt || gotP != wantP {
					t.Errorf("%s:%d %s: first = %d %q; anyPhrase = %d %q", path, n, name, gotAt, gotP, wantAt, wantP)
				}
			}
		})
	}
	for _, s := range []string{"", "i'd rather not.", "[response withheld] no", "xi'd rather not", "your callx your call"} {
		for name, list := range lists {
			wantAt, wantP := anyPhrase(s, list)
			if gotAt, gotP := newPhraseIndex(list).first(s); gotAt != wantAt || gotP != wantP {
				t.Errorf("%q %s: first = %d %q; anyPhrase = %d %q", s, name, gotAt, gotP, wantAt, wantP)
			}
		}
	}
}

// TestFirstSkillHeads holds firstSkill, which asks the taxonomy only about words that
// start a name it knows, to the answer of asking about every word, on every labelled
// reply and with aliases or without.
func TestFirstSkillHeads(t *testing.T) {
	tax := DefaultTaxonomy()
	plain := func(text string, aliases bool) string {
		words := skillWord.FindAllStringIndex(text, -1)
		for i := range words {
			for n := min(3, len(words)-i); n > 0; n-- {
				end := words[i+n-1][1]
				name := text[words[i][0]:end]
				if rest := text[end:]; strings.HasPrefix(strings.TrimLeft(rest, " "), "(") {
					if j := strings.IndexByte(rest[:min(len(rest), 40)], ')'); j >= 0 {
						name = text[words[i][0] : end+j+1]
					}
				}
				if c, ok := tax.Canonical(name); ok && (aliases || ownName(name, c)) {
					return c
				}
			}
		}
		return ""
	}
	for _, glob := range []string{"testdata/replies/*.jsonl", "testdata/replies-dev/*.jsonl", "testdata/replies-dev-2/*.jsonl"} {
		eachJSONLine(t, glob, func(path string, n int, r struct {
			Text string `json:"text"`
		}) {
			for _, aliases := range []bool{true, false} {
				if got, want := firstSkill(r.Text, tax, aliases), plain(r.Text, aliases); got != want {
					t.Errorf("%s:%d: firstSkill(aliases %v) = %q; every word asked gives %q", path, n, aliases, got, want)
				}
			}
		})
	}
}

// TestLexiconWordListsAreData holds that the word lists of the ninth round's gates are
// read from lexicon files, so a language added by a user's file gets the gates too: a
// Swedish file that hands the ruling to the Keeper ("fråga din spelledare") makes a reply
// that does so refused, and its depend list ("beror på") keeps a reply whose ruling
// depends on something from reading as a deferral.
func TestLexiconWordListsAreData(t *testing.T) {
	dir := t.TempDir()
	load := func(name, extra string) *Lexicon {
		path := filepath.Join(dir, name)
		data := `{"language": "sv", "defer": ["fråga {}"], "deferee": ["din spelledare"]` + extra + `}`
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		lex, err := LoadLexicons([]string{path})
		if err != nil {
			t.Fatalf("LoadLexicons: %v", err)
		}
		return lex
	}
	without := load("sv.json", "")
	with := load("sv-depend.json", `, "depend": ["beror på"]`)
	tests := []struct {
		text string
		lex  *Lexicon
		want Decision
	}{
		{"Fråga din spelledare.", without, DecisionRefused},
		{"Fråga din spelledare.", with, DecisionRefused},
		{"Det beror på ljuset; fråga din spelledare.", without, DecisionRefused},
		{"Det beror på ljuset; fråga din spelledare.", with, DecisionUnparsed},
	}
	for _, tt := range tests {
		if got := ParseReplyWith(tt.text, nil, tt.lex); got.Decision != tt.want {
			t.Errorf("ParseReplyWith(%q) = %v; want %s", tt.text, got, tt.want)
		}
	}
}
