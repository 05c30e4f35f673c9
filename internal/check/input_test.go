package check

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestTranscriptByteOrderMark(t *testing.T) {
	files := map[string]string{
		"a.txt":   "\ufeffJudge: Order in the court.\nDefense: We are ready.\n",
		"b.json":  "\ufeff" + `{"trial_id": "b", "turns": [{"speaker": "Judge", "role": "judge", "text": "Order."}]}`,
		"c.jsonl": "\ufeff" + `{"trial_id": "c", "turns": [{"speaker": "Judge", "role": "judge", "text": "Order."}]}` + "\n",
	}
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ts, err := LoadTranscripts(dir)
	if err != nil || len(ts) != 3 {
		t.Fatalf("LoadTranscripts(files with a BOM) = %d, %v; want 3 transcripts", len(ts), err)
	}
	for name, body := range files {
		format, _ := TranscriptFormatOf(name)
		if _, err := ParseTranscripts([]byte(body), name, format); err != nil {
			t.Errorf("ParseTranscripts(%s with a BOM) = %v", name, err)
		}
	}
}

func TestTranscriptInvalidUTF8(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		line       int
	}{
		{"t.jsonl", `{"trial_id": "a", "turns": [{"speaker": "Judge", "role": "judge", "text": "ok"}]}` + "\n" +
			`{"trial_id": "b", "turns": [{"speaker": "Judge", "role": "judge", "text": "bad ` + "\xff" + `"}]}` + "\n", 2},
		{"t.json", "{\"turns\": [\n{\"speaker\": \"Judge\", \"role\": \"judge\", \"text\": \"\xc3\x28\"}]}", 2},
		{"t.txt", "Judge: fine\nDefense: \xfe\n", 2},
	} {
		format, _ := TranscriptFormatOf(tt.name)
		_, err := ParseTranscripts([]byte(tt.body), tt.name, format)
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Errs[0].Line != tt.line || !strings.Contains(err.Error(), "not UTF-8") {
			t.Errorf("ParseTranscripts(%s with invalid UTF-8) = %v; want line %d: not UTF-8", tt.name, err, tt.line)
		}
	}
}

func TestTranscriptManyProblems(t *testing.T) {
	_, err := ParseTranscripts([]byte(strings.Repeat("junk\n", 100000)), "junk.txt", FormatText)
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Errs) != 50 || ve.More != 100000-50 {
		t.Fatalf("ParseTranscripts(100000 junk lines) = %v; want 50 problems and 99950 more", err)
	}
	if got := strings.Count(err.Error(), "\n") + 1; got != 51 {
		t.Errorf("the error prints %d lines; want 51", got)
	}
}

// plainTranscript is a plain-text transcript of about size bytes: one turn with a
// continuation line per 64 bytes, the shape that was quadratic.
func plainTranscript(size int) []byte {
	var b strings.Builder
	b.WriteString("Judge: The court is in session.\n")
	line := "  " + strings.Repeat("and the witness said more, ", 3)[:61] + "\n"
	for b.Len() < size {
		b.WriteString(line)
	}
	return []byte(b.String())
}

// TestPlainTranscriptLinear bounds the memory parsing a long turn takes: building the
// text by appending each continuation line copied it once per line, about 80 GB here.
func TestPlainTranscriptLinear(t *testing.T) {
	data := plainTranscript(2 << 20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ts, err := ParseTranscripts(data, "long.txt", FormatText)
	runtime.ReadMemStats(&after)
	if err != nil || len(ts) != 1 || len(ts[0].Turns) != 1 {
		t.Fatalf("ParseTranscripts(long turn) = %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 40*uint64(len(data)) {
		t.Errorf("ParseTranscripts(%d bytes) allocated %d bytes; want at most 40 times the input", len(data), alloc)
	}
}

func FuzzPlainTranscript(f *testing.F) {
	for _, s := range []string{
		"# retries: 2\nJudge: Order.\n  more\nDefense: hi\n",
		"# case: a\n# case: b\nWitness 1: I saw it.\n\tand then\n  Player: no\n",
		"\ufeffNarrator: x\n",
		string(plainTranscript(4096)),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		// A generous bound per input, against quadratic work, not a speed test: the
		// inputs are at most a few kilobytes and take microseconds.
		start := time.Now()
		ts, err := ParseTranscripts([]byte(data), "f.txt", FormatText)
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("ParseTranscripts(%d bytes) took %v", len(data), d)
		}
		if (err == nil) != (len(ts) == 1) {
			t.Fatalf("ParseTranscripts(%q) = %d transcripts, %v: want one or an error", data, len(ts), err)
		}
		for _, tr := range ts {
			for _, turn := range tr.Turns {
				if turn.Text == "" || turn.Text != strings.TrimSpace(turn.Text) {
					t.Errorf("ParseTranscripts(%q): turn text %q empty or untrimmed", data, turn.Text)
				}
			}
		}
	})
}

func BenchmarkPlainTranscript(b *testing.B) {
	for _, size := range []int{1 << 20, 10 << 20} {
		data := plainTranscript(size)
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ParseTranscripts(data, "long.txt", FormatText); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
