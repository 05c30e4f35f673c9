package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestCourtValidate(t *testing.T) {
	t.Run("builtin", func(t *testing.T) {
		r := arbiter(t, nil, "court", "validate")
		code, out, errOut := r.code, r.stdout, r.stderr
		if code != 0 {
			t.Fatalf("court validate = %d; stderr %s", code, errOut)
		}
		for _, id := range []string{"summit-ridge", "chateau-trespass", "museum-code", "dukes-yard", "haunted-estate"} {
			if !strings.Contains(out, id+": ok") {
				t.Errorf("output lacks %s: %s", id, out)
			}
		}
	})
	t.Run("bad file", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "museum.json")
		bad := `{"case_id": "museum", "title": "T", "kind": "criminal", "charge": "theft",
 "defendant": {"name": "A", "description": "B"}, "summary": "S",
 "evidence": [{"id": "E1", "name": "n", "description": "d"}],
 "witnesses": [{"id": "w1", "name": "W", "occupation": "o", "called_by": "prosecution", "personality": "p", "knows": ["x"]},
               {"id": "w2", "name": "V", "occupation": "o", "called_by": "defense", "personality": "p", "knows": []}],
 "defense_goal": "g"}`
		if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		r := arbiter(t, nil, "court", "validate", "--cases", p)
		code, errOut := r.code, r.stderr
		if code != 2 {
			t.Fatalf("court validate of a bad case = %d; want 2", code)
		}
		if !strings.Contains(errOut, "museum.json: witnesses[1].knows: must not be empty") {
			t.Errorf("stderr = %q; want the file and field path", errOut)
		}
	})
}

// TestHelpNamesOnlyRealCommands reads the command list of 'arbiter --help' and runs
// '--help' of each group it names: a group the help promises must exist.
var commandWord = regexp.MustCompile(`^[a-z]+$`)

func TestHelpNamesOnlyRealCommands(t *testing.T) {
	r := arbiter(t, nil, "--help")
	if r.code != 0 {
		t.Fatalf("arbiter --help = %d", r.code)
	}
	var named []string
	for _, line := range strings.Split(r.stdout, "\n") {
		f := strings.Fields(line)
		if strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") && len(f) > 1 && commandWord.MatchString(f[0]) && f[0] != "arbiter" {
			named = append(named, f[0])
		}
	}
	if len(named) < 4 {
		t.Fatalf("help lists %q; want the command groups", named)
	}
	for _, name := range named {
		h := arbiter(t, nil, name, "--help")
		if h.code != 0 || !strings.Contains(h.stdout, "arbiter "+name) {
			t.Errorf("help names %q, but 'arbiter %s --help' = %d: %s%s", name, name, h.code, h.stdout, h.stderr)
		}
	}
}
