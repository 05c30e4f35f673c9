package check

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDefaultDimensions(t *testing.T) {
	d := DefaultDimensions()
	var names []string
	for _, dim := range d.Dims {
		names = append(names, dim.Name)
		if dim.Definition == "" {
			t.Errorf("%s has no definition", dim.Name)
		}
		for _, s := range dim.Subs {
			if len(s.Seeds) == 0 {
				t.Errorf("%s / %s has no seed questions", dim.Name, s.Name)
			}
		}
	}
	if got := strings.Join(names, "|"); got != "Behavioral Role Fidelity|Procedural Convergence and Stability|Linguistic Formalism and Orthography" {
		t.Errorf("dimensions = %s", got)
	}
	var subs []string
	for _, s := range d.Dims[0].Subs {
		subs = append(subs, s.Name)
	}
	if got := strings.Join(subs, "|"); got != "Role Adherence|Argumentative Depth|Factual Consistency|Contextual Relevance" {
		t.Errorf("BRF sub-dimensions = %s", got)
	}
	if len(d.Domain.PlayerRoles) != 1 || d.Domain.PlayerRoles[0] != RoleDefense {
		t.Errorf("player roles = %v; want [defense]", d.Domain.PlayerRoles)
	}
}

func TestUserDomainFile(t *testing.T) {
	d, err := LoadDimensions("testdata/keeper.yaml")
	if err != nil {
		t.Fatalf("LoadDimensions: %v", err)
	}
	if d.Domain.Name != "Keeper of Arkham" || len(d.Dims) != 3 {
		t.Fatalf("got %q with %d dimensions", d.Domain.Name, len(d.Dims))
	}
	if got := d.Dims[2].Short; got != "AAR" {
		t.Errorf("derived short code = %q; want AAR", got)
	}
	if s := d.Dims[1].Subs; len(s) != 1 || s[0].Name != "" || len(s[0].Seeds) != 1 {
		t.Errorf("a dimension without sub-dimensions = %+v; want one unnamed criterion", s)
	}
}

func TestParseDimensionsErrors(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []string
	}{
		{"not YAML", "domain: [unclosed\n", []string{"d.yaml:1: not valid YAML"}},
		{"empty", "", []string{"d.yaml: empty file"}},
		{"unknown field", "domain: X\ndescription: Y\ndimension: []\n", []string{"d.yaml:3: dimension: unknown field", "dimensions: missing"}},
		{"missing definition and seeds", "domain: X\ndescription: Y\ndimensions:\n  - name: A\n", []string{
			"d.yaml:4: dimensions[1].definition: missing", "d.yaml:4: dimensions[1].seeds: missing"}},
		{"both subdimensions and seeds", "domain: X\ndescription: Y\ndimensions:\n  - name: A\n    definition: d\n    seeds: [q?]\n    subdimensions:\n      - name: S\n        seeds: [q?]\n",
			[]string{"d.yaml:6: dimensions[1].seeds: give either subdimensions or seeds"}},
		{"duplicate names and shorts", "domain: X\ndescription: Y\ndimensions:\n  - name: Alpha Beta\n    definition: d\n    seeds: [q?]\n  - name: Alpha Beta\n    definition: d\n    seeds: [q?]\n",
			[]string{`d.yaml:7: dimensions[2].name: "Alpha Beta" appears twice`, `dimensions[2].short: "AB" is used by another dimension`}},
		{"bad player role", "domain: X\ndescription: Y\nplayer_roles: [clerk]\ndimensions:\n  - name: A\n    definition: d\n    seeds: [q?]\n",
			[]string{`d.yaml:3: player_roles[1]: "clerk" is not a transcript role`}},
		{"seed list is a mapping", "domain: X\ndescription: Y\ndimensions:\n  - name: A\n    definition: d\n    seeds:\n      q: yes\n",
			[]string{"d.yaml:7: dimensions[1].seeds: want a list, got a mapping"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseDimensions([]byte(tc.data), "d.yaml")
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("ParseDimensions = %v; want a *ValidationError", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%s\nlacks %q", err, w)
				}
			}
		})
	}
}

// TestDefaultChecklist checks the bundled checklist against the pipeline's own rules:
// about 38 questions, every one a question, none a near duplicate of another, none about
// the player alone, and the file frozen at its hash.
func TestDefaultChecklist(t *testing.T) {
	c := DefaultChecklist()
	items := c.Items()
	if len(items) != 38 {
		t.Errorf("%d questions; want 38", len(items))
	}
	if c.StatedHash != c.Hash {
		t.Errorf("stated hash %s != content hash %s: refresh data/checklist.yaml", c.StatedHash, c.Hash)
	}
	if _, removed := Prepass(c, DefaultOverlap); len(removed) > 0 {
		t.Errorf("the pre-pass would remove %+v", removed)
	}
	for _, it := range items {
		if !strings.HasSuffix(it.Text, "?") || utf8.RuneCountInString(it.Text) > maxQuestionLen {
			t.Errorf("%s %q is not a short question", it.ID, it.Text)
		}
		if strings.HasPrefix(strings.ToLower(it.Text), "does the defense") || strings.HasPrefix(strings.ToLower(it.Text), "does the player") {
			t.Errorf("%s asks about the player: %q", it.ID, it.Text)
		}
	}
	for _, d := range c.Dims {
		for _, s := range d.Subs {
			if len(s.Questions) == 0 {
				t.Errorf("%s / %s has no questions", d.Name, s.Name)
			}
		}
	}
	if got := DefaultDimensions().Domain; got.Name != c.Domain.Name || oneLine(got.Description) != c.Domain.Description {
		t.Errorf("the checklist's domain differs from the dimensions': %+v", c.Domain)
	}
}

func TestChecklistHash(t *testing.T) {
	orig := string(DefaultChecklist().Marshal())
	parse := func(t *testing.T, s string) *Checklist {
		t.Helper()
		c, err := ParseChecklist([]byte(s), "c.yaml")
		if err != nil {
			t.Fatalf("ParseChecklist: %v", err)
		}
		return c
	}
	base := parse(t, orig)
	if base.Hash != DefaultChecklist().Hash || base.Edited() {
		t.Fatalf("round trip changed the hash: %s vs %s", base.Hash, DefaultChecklist().Hash)
	}
	if again := string(base.Marshal()); again != orig {
		t.Errorf("Marshal is not stable across a round trip")
	}
	tests := []struct {
		name    string
		edit    func(string) string
		changes bool
	}{
		{"comment added", func(s string) string { return "# reviewed by hand\n" + s }, false},
		{"version bumped", func(s string) string { return strings.Replace(s, "version: 1", "version: 2", 1) }, false},
		{"text re-wrapped", func(s string) string {
			return strings.Replace(s, `"Does the trial reach a verdict?"`, ">-\n          Does the trial\n          reach a verdict?", 1)
		}, false},
		{"origin noted", func(s string) string {
			return strings.Replace(s, "      - id: PCS-01\n", "      - id: PCS-01\n        origin: hand\n", 1)
		}, false},
		{"question edited", func(s string) string {
			return strings.Replace(s, "Does the trial reach a verdict?", "Does the trial reach a final verdict?", 1)
		}, true},
		{"question removed", func(s string) string {
			i := strings.Index(s, "      - id: PCS-08")
			j := strings.Index(s[i:], "\n  - name:")
			return s[:i] + s[i+j+1:]
		}, true},
		{"definition edited", func(s string) string { return strings.Replace(s, "grammar and spelling", "spelling", 1) }, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := parse(t, tc.edit(orig))
			if changed := c.Hash != base.Hash; changed != tc.changes {
				t.Errorf("hash changed = %v; want %v", changed, tc.changes)
			}
			if c.Edited() != tc.changes {
				t.Errorf("Edited() = %v; want %v", c.Edited(), tc.changes)
			}
		})
	}
}

func TestParseChecklistErrors(t *testing.T) {
	head := "domain: X\ndescription: Y\ndimensions:\n  - name: A\n    definition: d\n"
	tests := []struct {
		name string
		data string
		want []string
	}{
		{"duplicate ids", head + "    questions:\n      - id: Q-1\n        text: a?\n      - id: Q-1\n        text: b?\n", []string{`question id "Q-1" appears twice`}},
		{"bad id", head + "    questions:\n      - id: \"has space\"\n        text: a?\n", []string{`d.yaml:7: dimensions[1].questions[1].id: "has space"`}},
		{"no questions", head + "    questions: []\n", []string{"no questions"}},
		{"seeds in a checklist", head + "    seeds: [a?]\n", []string{"d.yaml:6: dimensions[1].seeds: unknown field"}},
		{"question without text", head + "    questions:\n      - id: Q-1\n", []string{"d.yaml:7: dimensions[1].questions[1].text: missing"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseChecklist([]byte(tc.data), "d.yaml")
			if err == nil {
				t.Fatal("ParseChecklist accepted a bad file")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%s\nlacks %q", err, w)
				}
			}
		})
	}
	c, err := ParseChecklist([]byte(head+"    questions:\n      - Is it plain?\n      - Is it short?\n"), "d.yaml")
	if err != nil {
		t.Fatalf("plain question strings: %v", err)
	}
	if got := c.Items(); len(got) != 2 || got[1].ID != "A-02" {
		t.Errorf("plain questions got ids %+v; want A-01, A-02", got)
	}
}

func FuzzParseChecklist(f *testing.F) {
	// Small seeds: the fuzzer minimises every new input, and large ones take it long.
	f.Add("checklist: c\nversion: 2\nhash: x\ndomain: X\ndescription: Y\nplayer_roles: [defense]\ndimensions:\n  - name: A\n    short: A\n    definition: d\n    subdimensions:\n      - name: S\n        questions:\n          - id: A-S-01\n            text: \"Is it?\"\nremoved:\n  - id: r\n    text: t\n    reason: dup\n    by: prepass\n")
	f.Add("domain: X\ndescription: >-\n  Y\ndimensions:\n  - name: A\n    definition: d\n    seeds:\n      - Is it?\n")
	f.Add("domain: X\ndescription: Y\ndimensions:\n  - name: A\n    definition: d\n    questions: [a?, {id: Q, text: b?}]\n")
	f.Add("domain: &a X\ndescription: *a\ndimensions: {}\n")
	f.Fuzz(func(t *testing.T, data string) {
		c, err := ParseChecklist([]byte(data), "f.yaml")
		if err == nil {
			if c.Hash == "" || len(c.Items()) == 0 {
				t.Fatalf("ParseChecklist(%q) accepted a checklist without questions or hash", data)
			}
			back, err := ParseChecklist(c.Marshal(), "back.yaml")
			if err != nil || back.Hash != c.Hash {
				t.Fatalf("ParseChecklist(%q): written form does not parse back the same: %v", data, err)
			}
		} else {
			var ve *ValidationError
			if !errors.As(err, &ve) || len(ve.Errs) == 0 {
				t.Fatalf("ParseChecklist(%q): error %v is not a *ValidationError", data, err)
			}
		}
		if _, err := ParseDimensions([]byte(data), "f.yaml"); err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("ParseDimensions(%q): error %v is not a *ValidationError", data, err)
			}
		}
	})
}
