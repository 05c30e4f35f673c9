package input

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// problemOf returns the single problem of a *ValidationError, failing otherwise.
func problemOf(t *testing.T, err error) FieldError {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Errs) != 1 {
		t.Fatalf("error = %v (%T); want a *ValidationError with one problem", err, err)
	}
	return ve.Errs[0]
}

func TestOpenRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "x.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero.jsonl")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	noRead := filepath.Join(dir, "secret.jsonl")
	if err := os.WriteFile(noRead, []byte("{}\n"), 0o000); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, want string
	}{
		{fifo, "a FIFO (named pipe), not a regular file"},
		{zero, "a character device, not a regular file"},
		{dir, "a directory, not a regular file"},
		{filepath.Join(dir, "absent.jsonl"), "no such file"},
	}
	if os.Geteuid() != 0 {
		tests = append(tests, struct{ path, want string }{noRead, "permission denied"})
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			// A FIFO without a writer would block a plain open forever: the test would hang.
			_, err := ReadFile(context.Background(), tt.path)
			fe := problemOf(t, err)
			if fe.File != tt.path || !strings.Contains(fe.Msg, tt.want) {
				t.Errorf("ReadFile(%q) = %v; want %q naming the file", tt.path, err, tt.want)
			}
		})
	}
}

func TestReadAll(t *testing.T) {
	long := strings.Repeat("x", MaxLineBytes+1)
	tests := []struct {
		name, in string
		want     string // the text read, or the problem
		line     int
	}{
		{"plain", "a\nb\n", "a\nb\n", 0},
		{"bom stripped", "\ufeffa\n", "a\n", 0},
		{"line at the cap", strings.Repeat("x", MaxLineBytes) + "\n", strings.Repeat("x", MaxLineBytes) + "\n", 0},
		{"long line", "ok\n" + long + "\n", "line longer than 1 MiB", 2},
		{"long last line", "ok\nok\n" + long, "line longer than 1 MiB", 3},
		{"bad utf-8", "ok\n{\"a\": \"\xff\"}\n", "not UTF-8", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadAll(context.Background(), strings.NewReader(tt.in), "f.jsonl")
			if tt.line == 0 {
				if err != nil || string(got) != tt.want {
					t.Fatalf("ReadAll = %.40q, %v; want %.40q", got, err, tt.want)
				}
				return
			}
			fe := problemOf(t, err)
			if fe.Line != tt.line || !strings.Contains(fe.Msg, tt.want) {
				t.Errorf("ReadAll = %v; want line %d: %q", err, tt.line, tt.want)
			}
		})
	}
}

// endless is /dev/zero as a reader, counting what was read.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.n += int64(len(p))
	return len(p), nil
}

func TestReadAllStopsEarly(t *testing.T) {
	r := &endless{}
	_, err := ReadAll(context.Background(), r, "stdin")
	if fe := problemOf(t, err); fe.Line != 1 {
		t.Errorf("ReadAll(zeros) = %v; want line 1 too long", err)
	}
	if r.n > 2*MaxLineBytes {
		t.Errorf("ReadAll(zeros) read %d bytes before refusing; want at most about %d", r.n, MaxLineBytes)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadAll(ctx, strings.NewReader("a\n"), "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadAll(cancelled) = %v; want context.Canceled", err)
	}
}

func TestLines(t *testing.T) {
	in := "\ufeffone\r\n\ntwo\nthree"
	var got []string
	for l, err := range Lines(context.Background(), strings.NewReader(in), "stdin") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d:%s", l.N, l.Text))
	}
	if want := "1:one 2: 3:two 4:three"; strings.Join(got, " ") != want {
		t.Errorf("Lines = %q; want %q", strings.Join(got, " "), want)
	}

	r := &endless{}
	var err error
	for _, err = range Lines(context.Background(), r, "stdin") {
		if err != nil {
			break
		}
	}
	if fe := problemOf(t, err); fe.Line != 1 || !strings.Contains(fe.Msg, "longer than 1 MiB") {
		t.Errorf("Lines(zeros) = %v; want line 1 too long", err)
	}
	if r.n > 2*MaxLineBytes {
		t.Errorf("Lines(zeros) read %d bytes; want at most about %d", r.n, MaxLineBytes)
	}

	for _, err = range Lines(context.Background(), strings.NewReader("a\nb\xfe\n"), "stdin") {
		if err != nil {
			break
		}
	}
	if fe := problemOf(t, err); fe.Line != 2 {
		t.Errorf("Lines(bad utf-8 on line 2) = %v; want line 2", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	for _, err = range Lines(ctx, strings.NewReader(strings.Repeat("x\n", 10)), "stdin") {
		if err != nil {
			break
		}
		n++
		cancel()
	}
	if n != 1 || !errors.Is(err, context.Canceled) {
		t.Errorf("Lines after cancel: %d lines, %v; want 1 line then context.Canceled", n, err)
	}
}

func TestErrorsCollector(t *testing.T) {
	var e Errors
	if e.Err() != nil {
		t.Fatal("empty Errors.Err() != nil")
	}
	for i := 1000; i > 0; i-- {
		e.Addf("f.jsonl", i, "json", "bad %d", i)
	}
	err := e.Err()
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Errs) != MaxErrors || ve.More != 1000-MaxErrors {
		t.Fatalf("Errors after 1000 problems = %d kept, %d more; want %d and %d", len(ve.Errs), ve.More, MaxErrors, 1000-MaxErrors)
	}
	for i, fe := range ve.Errs {
		if fe.Line != i+1 {
			t.Fatalf("kept problem %d is line %d; want the lowest lines in order", i, fe.Line)
		}
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != MaxErrors+1 || lines[MaxErrors] != "… and 950 more errors" {
		t.Errorf("Error() has %d lines ending %q; want %d and \"… and 950 more errors\"", len(lines), lines[len(lines)-1], MaxErrors+1)
	}
	big := &ValidationError{Errs: make([]FieldError, 60)}
	if got := strings.Count(big.Error(), "\n"); got != MaxErrors {
		t.Errorf("ValidationError of 60 problems prints %d lines; want %d and a count", got+1, MaxErrors+1)
	}
	var m Errors
	m.Addf("a.txt", 3, "", "x")
	if !m.Merge(err) || m.Len() != 1001 {
		t.Errorf("Merge: Len = %d; want 1001", m.Len())
	}
	if m.Merge(errors.New("other")) {
		t.Error("Merge(plain error) = true")
	}
}

func BenchmarkReadAll(b *testing.B) {
	data := bytes.Repeat([]byte(`{"id": "s1", "context": "a dark room", "statement": "I look around."}`+"\n"), 1<<14)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadAll(context.Background(), bytes.NewReader(data), "d.jsonl"); err != nil {
			b.Fatal(err)
		}
	}
}
