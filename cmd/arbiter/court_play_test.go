package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

const playCases = "../../internal/court/testdata/lantern.json"

var resumeHint = regexp.MustCompile(`resume with arbiter court play --resume (g[0-9a-f]{8})`)

func gameIDOf(t *testing.T, out string) string {
	t.Helper()
	m := resumeHint.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no resume hint in the output:\n%s", out)
	}
	return m[1]
}

// inOrder fails unless every piece appears in out, each after the one before.
func inOrder(t *testing.T, out string, pieces ...string) {
	t.Helper()
	rest := out
	for _, p := range pieces {
		i := strings.Index(rest, p)
		if i < 0 {
			t.Fatalf("output lacks %q after the pieces before it:\n%s", p, out)
		}
		rest = rest[i+len(p):]
	}
}

// The cross-examination typed on stdin: the case file at the start, /to by a prefix of
// a name, /record with the numbered statements, /present of an item that misses (the
// credibility drops), /press of a statement, an ambiguous or unknown /to refused, and
// the debrief counting the miss.
func TestCourtPlayCrossExamination(t *testing.T) {
	srv := newPlayStandIn(t, nil)
	dir := t.TempDir()
	stdin := "The defense will show the lantern was never taken.\n" +
		"/to nel What did the man who pawned it look like?\n" +
		"/to zed Anyone?\n" +
		"/record\n" +
		"/present E9\n" +
		"/present e1 Does this key log help you?\n" +
		"/press 1\n" +
		"/rest\n" +
		"Nobody saw my client take it.\n"
	r := arbiterIn(t, nil, stdin, srv.playArgs(filepath.Join(dir, "s.db"),
		"--cases", playCases, "--case", "lantern-theft", "--seed", "7")...)
	if r.code != 0 {
		t.Fatalf("court play = %d; stderr %s\nstdout %s", r.code, r.stderr, r.stdout)
	}
	inOrder(t, r.stdout,
		"— Case file —", "Charge: theft of the brass harbour lantern", "Evidence:", "E2 Pawn ticket", "People:", "Nell Okafor, pawnbroker, called by the defense (/to Nell)",
		"Defense: What did the man who pawned it look like?", "Witness (Nell Okafor): I saw a figure",
		`not taken: no one called "zed" here`,
		"— Court record —", "E1 Key log", "Statements:", "[1] Witness (Tomas Brandt): ", "[2] Witness (Nell Okafor): ",
		`not taken: present "E9": the court record has E1, E2`,
		"Defense: Does this key log help you?", "[credibility 80/100]",
		"Defense: About your statement 1: tell the court more.", "Witness (Tomas Brandt): ",
		"— Debrief —", "Credibility: 80/100 (items presented 1, missed 1)")
	if strings.Contains(r.stdout, "a tall man with a beard") {
		t.Error("the terminal showed a witness's knowledge")
	}
}

// A whole game typed on stdin: the opening, a question put to a witness with /to, /rest,
// the closing, then the verdict and the transcript.
func TestCourtPlayFullGame(t *testing.T) {
	srv := newPlayStandIn(t, nil)
	dir := t.TempDir()
	tx := filepath.Join(dir, "game.json")
	stdin := "The defense will show the lantern was never taken.\n" +
		"/to witness_nell What did the man who pawned it look like?\n" +
		"/rest\n" +
		"Nobody saw my client take it.\n"
	r := arbiterIn(t, nil, stdin, srv.playArgs(filepath.Join(dir, "s.db"),
		"--cases", playCases, "--case", "lantern-theft", "--seed", "7", "--name", "Ada", "--transcript", tx)...)
	if r.code != 0 {
		t.Fatalf("court play = %d; stderr %s\nstdout %s", r.code, r.stderr, r.stdout)
	}
	out := r.stdout
	inOrder(t, out,
		"— Introduction —", "Judge: Counsel, continue.", "Prosecutor: ",
		"The defense has the floor: your opening statement.", "defense> ",
		"Defense: The defense will show the lantern was never taken.",
		"— Interrogation —", "You may address: ", "Witness_nell (Nell Okafor, pawnbroker)", "defense> ",
		"Defense: What did the man who pawned it look like?", "Witness (Nell Okafor): I saw a figure",
		"defense> ", "Defense: The defense rests.",
		"— Closing —", "Prosecutor: ", "your closing statement", "Defense: Nobody saw my client take it.",
		"— Verdict —", "Judge: The court finds the defendant not guilty.",
		"VERDICT: NOT GUILTY (the defense goal was met)",
		"The court's reasons: No witness placed the defendant", "Summary: the watchman saw a figure",
		"— Debrief —", "Grade ", "Contradictions found: 0 of 0", "Credibility: 100/100", "Objections: 0 sustained, 0 overruled", "Turns used: ",
		"Transcript: "+tx)
	b, err := os.ReadFile(tx)
	if err != nil {
		t.Fatal(err)
	}
	var got court.Transcript
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("transcript: %v\n%s", err, b)
	}
	if !got.Completed || got.Outcome == nil || *got.Outcome != court.OutcomeWin || got.CaseID != "lantern-theft" || got.Seed != 7 {
		t.Errorf("transcript: completed %v, outcome %v, case %s, seed %d", got.Completed, got.Outcome, got.CaseID, got.Seed)
	}
	players := 0
	for _, turn := range got.Turns {
		if turn.Player {
			players++
		}
	}
	if players != 4 {
		t.Errorf("%d player turns in the transcript; want 4 (opening, question, rest, closing)", players)
	}
	// The question went to the witness named, not through the analyzer.
	q := "What did the man who pawned it look like?"
	if n := srv.sawText("witness", q); n == 0 {
		t.Errorf("no witness request carries the /to question")
	}
	if n := srv.sawText("analyzer", "The turn to route: Defense: "+q); n != 0 {
		t.Errorf("the analyzer was asked %d times to route an addressed question", n)
	}

	// The finished game is listed.
	l := arbiter(t, nil, "court", "play", "--list", "--db", filepath.Join(dir, "s.db"))
	if l.code != 0 || !strings.Contains(l.stdout, gameIDOf(t, out)) || !strings.Contains(l.stdout, "lantern-theft") || !strings.Contains(l.stdout, "win") {
		t.Errorf("court play --list = %d:\n%s%s", l.code, l.stdout, l.stderr)
	}
}

// /quit after the opening saves the game; --resume (naming no model: the game's own
// are used) goes on from there without asking the stand-in again for any finished turn.
func TestCourtPlayQuitAndResume(t *testing.T) {
	srv := newPlayStandIn(t, nil)
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	r := arbiterIn(t, nil, "We deny the charge.\n/quit\n", srv.playArgs(db, "--cases", playCases, "--case", "lantern-theft", "--seed", "3")...)
	if r.code != 0 {
		t.Fatalf("court play = %d; stderr %s", r.code, r.stderr)
	}
	id := gameIDOf(t, r.stdout)
	if !strings.Contains(r.stdout, "the game is saved.") {
		t.Errorf("quitting did not say the game is saved:\n%s", r.stdout)
	}
	first := srv.Requests()
	if first == 0 {
		t.Fatal("the first session asked nothing: the test proves nothing")
	}
	// Every request body reached the stand-in once so far: the resumed session must keep it so.
	l := arbiter(t, nil, "court", "play", "--list", "--db", db)
	if !strings.Contains(l.stdout, id) || !strings.Contains(l.stdout, "interrogation") {
		t.Errorf("--list after /quit:\n%s%s", l.stdout, l.stderr)
	}

	tx := filepath.Join(dir, "t.json")
	r2 := arbiterIn(t, nil, "/rest\nThe record shows no theft.\n",
		"court", "play", "--resume", id, "--db", db, "--base-url", srv.OpenAIBaseURL(), "--no-cache", "--transcript", tx)
	if r2.code != 0 {
		t.Fatalf("court play --resume = %d; stderr %s\nstdout %s", r2.code, r2.stderr, r2.stdout)
	}
	// The turns played before are shown again, then the game goes on.
	inOrder(t, r2.stdout, "Game "+id, "Judge: Counsel, continue.", "Defense: We deny the charge.",
		"defense> ", "Defense: The defense rests.", "— Closing —", "VERDICT: NOT GUILTY")
	if srv.Requests() == first {
		t.Error("the resumed game asked nothing: it did not go on")
	}
	for body, n := range srv.Bodies() {
		if n > 1 {
			t.Errorf("the stand-in was asked %d times for one request (%.80s…)", n, body)
		}
	}
	if strings.Count(r2.stdout, "Defense: We deny the charge.") != 1 {
		t.Errorf("the opening is shown %d times on resume", strings.Count(r2.stdout, "Defense: We deny the charge."))
	}
	if _, err := os.Stat(tx); err != nil {
		t.Errorf("no transcript after the resumed game: %v", err)
	}

	t.Run("unknown game", func(t *testing.T) {
		r := arbiter(t, nil, "court", "play", "--resume", "gnothere0", "--db", db)
		if r.code != 2 || !strings.Contains(r.stderr, "no such game") {
			t.Errorf("--resume of an unknown game = %d: %s", r.code, r.stderr)
		}
	})
}

// Moves the game refuses print the reason and the prompt comes again.
func TestCourtPlayRefusedMoves(t *testing.T) {
	srv := newPlayStandIn(t, nil)
	dir := t.TempDir()
	stdin := "/to Witness_nell too early\n" + // the opening is no place for /to
		"Our opening.\n" +
		"/to Witness_ghost Who are you?\n" + // no such witness
		"/to Defense myself\n" + // not an addressee
		"\n" + // empty
		strings.Repeat("x", court.MaxMoveText+1) + "\n" +
		"/frobnicate\n" +
		"/help\n" +
		"/quit\n"
	r := arbiterIn(t, nil, stdin, srv.playArgs(filepath.Join(dir, "s.db"), "--cases", playCases, "--case", "lantern-theft", "--seed", "5")...)
	if r.code != 0 {
		t.Fatalf("court play = %d; stderr %s", r.code, r.stderr)
	}
	out := r.stdout
	inOrder(t, out,
		"not taken: /to works in the interrogation", "defense> ",
		"Defense: Our opening.",
		`not taken: no one called "Witness_ghost" here: the defense may address`, "defense> ",
		`not taken: no one called "Defense" here`, "defense> ",
		"not taken: the text is empty", "defense> ",
		"not taken: the text has 4001 characters", "defense> ",
		"not taken: unknown command /frobnicate", "defense> ",
		"/to NAME text", "defense> ",
		"the game is saved.")
	for _, refused := range []string{"too early", "Who are you?", "myself", "xxxx"} {
		if n := srv.sawText("", refused); n != 0 || strings.Contains(out, "Defense: "+refused) {
			t.Errorf("the refused move %q was played (%d requests carry it)", refused, n)
		}
	}
}

// Escape sequences and other control characters in a model's reply never reach the
// terminal; the words around them do.
func TestCourtPlayStripsEscapes(t *testing.T) {
	evil := "Counsel\x1b[2J\x1b]0;owned\x07, continue.\r\u009b31m Order\x00 in court."
	srv := newPlayStandIn(t, func(req *llmtest.Request) (llmtest.Response, bool) {
		if req.Model == "judge" && strings.Contains(req.LastUser(), "Phase: introduction") && !strings.HasPrefix(req.System, "You are the court reporter") {
			return llmtest.Response{Text: evil}, true
		}
		return llmtest.Response{}, false
	})
	dir := t.TempDir()
	r := arbiterIn(t, nil, "/quit\n", srv.playArgs(filepath.Join(dir, "s.db"), "--cases", playCases, "--case", "lantern-theft")...)
	if r.code != 0 {
		t.Fatalf("court play = %d; stderr %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "Judge: Counsel[2J]0;owned, continue.31m Order in court.") {
		t.Errorf("the judge's words are not shown cleaned:\n%q", r.stdout)
	}
	for _, c := range []string{"\x1b", "\x07", "\r", "\x00", "\u009b"} {
		if strings.Contains(r.stdout, c) {
			t.Errorf("the output carries %q:\n%q", c, r.stdout)
		}
	}
}

func TestCourtPlayBadUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no case", []string{"court", "play", "--model", "openai/x"}, "pass --case ID"},
		{"unknown case", []string{"court", "play", "--case", "nope", "--cases", playCases, "--model", "openai/x", "--db", filepath.Join(dir, "a.db")}, `--case "nope": no such case`},
		{"resume with case", []string{"court", "play", "--resume", "g1", "--case", "lantern-theft"}, "--resume plays a stored game"},
		{"no model", []string{"court", "play", "--case", "lantern-theft", "--cases", playCases, "--db", filepath.Join(dir, "b.db")}, "no model for the judge"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := arbiter(t, nil, tt.args...)
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("%v = %d, %q; want 2 and %q", tt.args, r.code, r.stderr, tt.want)
			}
		})
	}
}

// A reply cut off halfway is asked again: the turn is shown again on a new line, marked
// as redone, and only the whole reply is kept.
func TestCourtPlayRedoesACutTurn(t *testing.T) {
	var mu sync.Mutex
	cut := false
	srv := newPlayStandIn(t, func(req *llmtest.Request) (llmtest.Response, bool) {
		mu.Lock()
		defer mu.Unlock()
		if req.Model == "prosecutor" && !cut {
			cut = true
			return llmtest.Response{Text: "Members of the court, the evidence will show a clear and simple theft by the clerk.",
				Fault: llmtest.Fault{Kind: llmtest.FaultTruncate}}, true
		}
		return llmtest.Response{}, false
	})
	dir := t.TempDir()
	r := arbiterIn(t, nil, "/quit\n", srv.playArgs(filepath.Join(dir, "s.db"), "--cases", playCases, "--case", "lantern-theft", "--seed", "2")...)
	if r.code != 0 {
		t.Fatalf("court play = %d; stderr %s", r.code, r.stderr)
	}
	if !cut {
		t.Fatal("the stand-in cut no reply: the test proves nothing")
	}
	// The player is told the court is at it again, and the redone line wraps at words.
	inOrder(t, r.stdout, "Prosecutor: ", "\n(the prosecutor is thinking… (retrying))\nProsecutor (redone): Your Honour, the record speaks for itself. (prosecutor,\nturn 2)\n", "defense> ")
}

// A failed turn offers the restart: "n" quits with the game saved, and the resumed game
// asks again; "y" starts the trial over with a new seed.
func TestCourtPlayRestartOffered(t *testing.T) {
	var mu sync.Mutex
	empty := 0
	srv := newPlayStandIn(t, func(req *llmtest.Request) (llmtest.Response, bool) {
		mu.Lock()
		defer mu.Unlock()
		if req.Model == "prosecutor" && empty == 0 {
			empty++
			return llmtest.Response{Text: ""}, true
		}
		return llmtest.Response{}, false
	})
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	r := arbiterIn(t, nil, "n\n", srv.playArgs(db, "--cases", playCases, "--case", "lantern-theft", "--seed", "2")...)
	if r.code != 0 {
		t.Fatalf("court play = %d; stderr %s", r.code, r.stderr)
	}
	inOrder(t, r.stdout, "Judge: ", "! The model playing the prosecutor ", "restart? [Y/n] ", "the game is saved.")
	id := gameIDOf(t, r.stdout)
	if strings.Contains(r.stdout, "defense> ") {
		t.Errorf("the defense was given the floor after a failure:\n%s", r.stdout)
	}

	r2 := arbiterIn(t, nil, "y\nOur opening.\n/quit\n", "court", "play", "--resume", id, "--db", db, "--base-url", srv.OpenAIBaseURL(), "--no-cache")
	if r2.code != 0 {
		t.Fatalf("court play --resume = %d; stderr %s", r2.code, r2.stderr)
	}
	inOrder(t, r2.stdout, "! The model playing the prosecutor ", "restart? [Y/n] ", "— The trial starts again (attempt 2, a new seed) —", "— Introduction —", "Judge: ", "Prosecutor: Your Honour",
		"defense> ", "Defense: Our opening.", "the game is saved.")
}

// cancelOnWrite is a stdout that cancels the run when the output shows want: the
// player pressing Ctrl-C at that moment.
type cancelOnWrite struct {
	mu     sync.Mutex
	buf    strings.Builder
	want   string
	cancel context.CancelFunc
}

func (w *cancelOnWrite) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(b)
	if w.want != "" && strings.Contains(w.buf.String(), w.want) {
		w.cancel()
	}
	return len(b), nil
}

func (w *cancelOnWrite) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// Ctrl-C, at the prompt or while the court speaks, saves the game like /quit.
func TestCourtPlayInterrupt(t *testing.T) {
	env := config.Read(func(string) (string, bool) { return "", false })
	for _, tt := range []struct {
		name string
		// at is the output at which the interrupt comes; "" interrupts while the
		// prosecutor is asked for its first interrogation turn.
		at string
	}{
		{"at the prompt", "defense> "},
		{"while the court speaks", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			srv := newPlayStandIn(t, func(req *llmtest.Request) (llmtest.Response, bool) {
				if tt.at == "" && req.Model == "prosecutor" && strings.Contains(req.LastUser(), "Phase: interrogation") {
					cancel()
				}
				return llmtest.Response{}, false
			})
			db := filepath.Join(t.TempDir(), "s.db")
			stdin := "We deny it.\n"
			if tt.at != "" {
				stdin = "" // the player types nothing: the prompt waits until Ctrl-C
			}
			pr, pw := io.Pipe()
			defer pw.Close()
			go func() { io.WriteString(pw, stdin) }()
			out := &cancelOnWrite{want: tt.at, cancel: cancel}
			var errb strings.Builder
			code := run(ctx, srv.playArgs(db, "--cases", playCases, "--case", "lantern-theft", "--seed", "4"), pr, out, &errb, env)
			if code != 0 {
				t.Fatalf("court play interrupted = %d; stderr %s", code, errb.String())
			}
			inOrder(t, out.String(), "interrupted: the game is saved.", "resume with arbiter court play --resume")
			id := gameIDOf(t, out.String())
			r := arbiterIn(t, nil, "/quit\n", "court", "play", "--resume", id, "--db", db, "--base-url", srv.OpenAIBaseURL(), "--no-cache")
			if r.code != 0 || !strings.Contains(r.stdout, "defense> ") {
				t.Errorf("--resume after the interrupt = %d; stdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// A flag given with --resume overrides the stored game's model for that role, from
// then on; the others stay the game's own.
func TestCourtPlayResumeOverridesAModel(t *testing.T) {
	srv := newPlayStandIn(t, func(req *llmtest.Request) (llmtest.Response, bool) {
		if req.Model == "witness2" {
			return llmtest.Response{Text: "A second voice answers: a tall man with a beard."}, true
		}
		return llmtest.Response{}, false
	})
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	r := arbiterIn(t, nil, "We deny it.\n/quit\n", srv.playArgs(db, "--cases", playCases, "--case", "lantern-theft", "--seed", "6")...)
	if r.code != 0 {
		t.Fatalf("court play = %d; stderr %s", r.code, r.stderr)
	}
	id := gameIDOf(t, r.stdout)
	tx := filepath.Join(dir, "t.json")
	r2 := arbiterIn(t, nil, "/to Witness_nell Who pawned the lantern?\n/quit\n", "court", "play", "--resume", id, "--db", db,
		"--base-url", srv.OpenAIBaseURL(), "--no-cache", "--witness-model", "openai/witness2", "--transcript", tx)
	if r2.code != 0 {
		t.Fatalf("court play --resume = %d; stderr %s", r2.code, r2.stderr)
	}
	inOrder(t, r2.stdout, "Defense: Who pawned the lantern?", "Witness (Nell Okafor): A second voice answers")
	b, err := os.ReadFile(tx)
	if err != nil {
		t.Fatal(err)
	}
	var got court.Transcript
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Models["witness"] != "openai/witness2" || got.Models["judge"] != "openai/judge" {
		t.Errorf("models after the override: %v", got.Models)
	}
}

// TestCourtPlaySIGINT presses Ctrl-C on the real binary at the defense's prompt: the
// game is saved, the resume hint printed, and the process ends like /quit.
func TestCourtPlaySIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and interrupts the binary")
	}
	bin := binary(t)
	srv := newPlayStandIn(t, nil)
	db := filepath.Join(t.TempDir(), "s.db")
	cmd := exec.Command(bin, srv.playArgs(db, "--cases", playCases, "--case", "lantern-theft", "--seed", "8")...)
	cmd.Env = []string{"HOME=" + t.TempDir()}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	out := &cancelOnWrite{cancel: func() {}}
	cmd.Stdout = out
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), "defense> ") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "defense> ") {
		t.Fatalf("no prompt within a minute:\n%s\n%s", out.String(), stderr.String())
	}
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the process did not stop")
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit %d after Ctrl-C at the prompt; want 0 (stderr %s)", code, stderr.String())
	}
	inOrder(t, out.String(), "defense> ", "interrupted: the game is saved.", "resume with arbiter court play --resume")
}
