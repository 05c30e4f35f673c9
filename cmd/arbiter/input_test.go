package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/input/inputtest"
)

// badInputs makes, in dir, the hostile files the input tests give every loader.
func badInputs(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	p := map[string]string{}
	for _, name := range []string{"fifo.jsonl", "fifo.yaml", "fifo.txt"} {
		p[name] = filepath.Join(dir, name)
		if err := syscall.Mkfifo(p[name], 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	for _, name := range []string{"zero.jsonl", "zero.csv", "zero.txt", "zero.json", "zero.yaml"} {
		p[name] = filepath.Join(dir, name)
		if err := os.Symlink("/dev/zero", p[name]); err != nil {
			t.Fatal(err)
		}
	}
	// A symlink loop cannot be opened even by root: the same fault for every loader.
	for _, ext := range []string{".jsonl", ".yaml", ".txt"} {
		a, b := filepath.Join(dir, "loop"+ext), filepath.Join(dir, "loop2"+ext)
		os.Symlink(b, a)
		os.Symlink(a, b)
		p["loop"+ext] = a
	}
	write := func(name, body string) {
		p[name] = filepath.Join(dir, name)
		if err := os.WriteFile(p[name], []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("bomb.yaml", inputtest.Laughs(4))
	write("deep.yaml", "models: "+strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+"\n")
	return p
}

// TestInputFilesRefused gives every loader a FIFO, /dev/zero, a symlink loop, a YAML bomb
// and deep nesting: each is refused at once, exit 2, with one line naming the file.
func TestInputFilesRefused(t *testing.T) {
	p := badInputs(t)
	judge := []string{"check", "judge", "--judge", "openai/gpt-standin"}
	run := []string{"seduce", "run", "--db", filepath.Join(t.TempDir(), "r.db"), "-q"}
	env := map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": "http://127.0.0.1:1/v1"}
	tests := []struct {
		name string
		args []string
		file string
		want string
	}{
		{"dataset fifo", []string{"seduce", "validate", "--dataset", p["fifo.jsonl"]}, "fifo.jsonl", "a FIFO (named pipe), not a regular file"},
		{"dataset /dev/zero", []string{"seduce", "validate", "--dataset", p["zero.jsonl"]}, "zero.jsonl", "a character device, not a regular file"},
		{"csv dataset /dev/zero", []string{"seduce", "validate", "--dataset", p["zero.csv"]}, "zero.csv", "a character device"},
		{"dataset loop", []string{"seduce", "validate", "--dataset", p["loop.jsonl"]}, "loop.jsonl", "cannot open"},
		{"transcripts fifo", append(judge, "--transcripts", p["fifo.jsonl"]), "fifo.jsonl", "a FIFO"},
		{"text transcript /dev/zero", append(judge, "--transcripts", p["zero.txt"]), "zero.txt", "a character device"},
		{"json transcript /dev/zero", append(judge, "--transcripts", p["zero.json"]), "zero.json", "a character device"},
		{"transcripts loop", append(judge, "--transcripts", p["loop.txt"]), "loop.txt", "cannot open"},
		{"checklist fifo", append(judge, "--checklist", p["fifo.yaml"]), "fifo.yaml", "a FIFO"},
		{"checklist loop", append(judge, "--checklist", p["loop.yaml"]), "loop.yaml", "cannot open"},
		{"checklist bomb", append(judge, "--checklist", p["bomb.yaml"]), "bomb.yaml", "more than 10000 nodes"},
		{"cases bomb", append(judge, "--cases", p["bomb.yaml"]), "bomb.yaml", "more than 10000 nodes"},
		{"dimensions bomb", []string{"check", "augment", "--generator", "openai/gpt-standin", "--dimensions", p["bomb.yaml"]}, "bomb.yaml", "more than 10000 nodes"},
		{"taxonomy bomb", []string{"seduce", "validate", "--taxonomy", p["bomb.yaml"]}, "bomb.yaml", "more than 10000 nodes"},
		{"taxonomy /dev/zero", []string{"seduce", "validate", "--taxonomy", p["zero.yaml"]}, "zero.yaml", "a character device"},
		{"experiment bomb", append(run, "--experiment", p["bomb.yaml"]), "bomb.yaml", "more than 10000 nodes"},
		{"experiment deep", append(run, "--experiment", p["deep.yaml"]), "deep.yaml:1", "nested more than 100 deep"},
		{"experiment fifo", append(run, "--experiment", p["fifo.yaml"]), "fifo.yaml", "a FIFO"},
		{"experiment loop", append(run, "--experiment", p["loop.yaml"]), "loop.yaml", "cannot open"},
		{"config bomb", append(run, "--config", p["bomb.yaml"]), "bomb.yaml", "more than 10000 nodes"},
		{"config fifo", append(run, "--config", p["fifo.yaml"]), "fifo.yaml", "a FIFO"},
		{"predictions fifo", []string{"seduce", "score", "--predictions", p["fifo.jsonl"]}, "fifo.jsonl", "a FIFO"},
		{"predictions /dev/zero", []string{"seduce", "score", "--predictions", p["zero.jsonl"]}, "zero.jsonl", "a character device"},
		{"prompt fifo", append(run, "--prompt", p["fifo.txt"]), "fifo.txt", "a FIFO"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := arbiter(t, env, tt.args...)
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			if r.code != 2 || len(lines) != 1 || !strings.Contains(r.stderr, tt.file) || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("arbiter %s: exit %d, stderr %q; want 2 and one line naming %s: %q", strings.Join(tt.args, " "), r.code, r.stderr, tt.file, tt.want)
			}
		})
	}
}

// TestManyBadLinesListFifty gives a dataset and a predictions file of 100,000 junk lines:
// 50 problems are listed, then one line counting the rest.
func TestManyBadLinesListFifty(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.jsonl")
	if err := os.WriteFile(junk, []byte(strings.Repeat("junk\n", 100000)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"seduce", "validate", "--dataset", junk},
		{"seduce", "score", "--predictions", junk},
	} {
		r := arbiter(t, nil, args...)
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if r.code != 2 || len(lines) != 51 || lines[50] != "arbiter: … and 99950 more errors" || !strings.HasPrefix(lines[0], "arbiter: "+junk+":1:") {
			t.Errorf("arbiter %s: exit %d, %d lines, first %q, last %q; want 2, 51 lines, line 1 first, \"… and 99950 more errors\" last",
				strings.Join(args, " "), r.code, len(lines), lines[0], lines[len(lines)-1])
		}
	}
}

// TestSignalStopsStuckCommand interrupts `seduce parse` while it waits on a stdin that
// never ends: SIGINT, SIGTERM or two SIGINTs end the process with exit 1. The test's
// deadline only catches a process that never stops; the 2-second bound itself is
// enforced in main.
func TestSignalStopsStuckCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and signals the binary")
	}
	bin := binary(t)
	for _, tt := range []struct {
		name string
		sigs []os.Signal
	}{
		{"SIGINT", []os.Signal{os.Interrupt}},
		{"SIGTERM", []os.Signal{syscall.SIGTERM}},
		{"two SIGINTs", []os.Signal{os.Interrupt, os.Interrupt}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, "seduce", "parse")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			// Its output is buffered until the end, so show it is running another way:
			// a write larger than the pipe's buffer returns only once the command reads,
			// and it installs its signal handlers before it reads.
			line := `{"id": "a", "text": "No roll is needed."}` + "\n"
			if _, err := io.WriteString(stdin, strings.Repeat(line, 1<<20/len(line))); err != nil {
				t.Fatalf("write stdin: %v", err)
			}
			for _, s := range tt.sigs {
				cmd.Process.Signal(s)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("%s: the process did not stop", tt.name)
			}
			if code := cmd.ProcessState.ExitCode(); code != 1 {
				t.Errorf("%s: exit %d; want 1", tt.name, code)
			}
		})
	}
}
