package seduce

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/input"
)

func TestLoadDatasetRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "x.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero.csv")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, zero} {
		_, err := LoadDataset(path, nil)
		var ve *ValidationError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), "not a regular file") || !strings.HasPrefix(err.Error(), path) {
			t.Errorf("LoadDataset(%s) = %v; want a *ValidationError naming the file: not a regular file", path, err)
		}
	}
}

func TestDatasetInvalidUTF8(t *testing.T) {
	lines := bytes.SplitAfter(referenceJSONL, []byte("\n"))
	bad := bytes.Replace(lines[1], []byte(`"statement":"`), []byte("\"statement\":\"\xff"), 1)
	data := bytes.Join([][]byte{lines[0], bad, lines[2]}, nil)
	_, err := ReadDataset(bytes.NewReader(data), "d.jsonl", FormatJSONL, nil)
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Errs[0].Line != 2 || !strings.Contains(err.Error(), "not UTF-8") {
		t.Errorf("ReadDataset(invalid UTF-8 on line 2) = %v; want d.jsonl:2: not UTF-8", err)
	}
}

func TestDatasetManyProblems(t *testing.T) {
	_, err := ReadDataset(strings.NewReader(strings.Repeat("junk\n", 100000)), "junk.jsonl", FormatJSONL, nil)
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Errs) != input.MaxErrors || ve.More != 100000-input.MaxErrors || ve.Errs[0].Line != 1 {
		t.Fatalf("ReadDataset(100000 junk lines) = %v; want 50 problems from line 1 and 99950 more", err)
	}
}

func TestTaxonomyYAMLLimits(t *testing.T) {
	bomb := "settings: &s [a, a, a, a, a, a, a, a, a, a]\n"
	for i, prev := 1, "s"; i <= 4; i++ {
		name := string(rune('a' + i))
		bomb += name + ": &" + name + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
		prev = name
	}
	_, err := ParseTaxonomy([]byte(bomb), "t.yaml")
	var ve *ValidationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), "more than 10000 nodes") {
		t.Errorf("ParseTaxonomy(billion laughs) = %v; want more than 10000 nodes", err)
	}
}

func TestParseLinesLineCap(t *testing.T) {
	in := `{"id": "a", "text": "No roll."}` + "\n" + strings.Repeat("x", input.MaxLineBytes+1) + "\n"
	var out bytes.Buffer
	err := ParseLines(strings.NewReader(in), "stdin", &out, nil)
	if err == nil || !strings.Contains(err.Error(), "stdin:2") || !strings.Contains(err.Error(), "longer than 1 MiB") {
		t.Errorf("ParseLines(a 1 MiB line) = %v; want stdin:2: line longer than 1 MiB", err)
	}
}
