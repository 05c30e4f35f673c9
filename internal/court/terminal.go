package court

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
)

// Terminal is how a game is played in a terminal: In gives the player's lines, Out shows
// the trial; Echo ends the prompt's line after each line read (input that is not a
// terminal does not show); Transcript, when set, is the file the trial's transcript is
// written to when it ends or stops.
type Terminal struct {
	In         io.Reader
	Out        io.Writer
	Echo       bool
	Transcript string
}

// Play runs g in the terminal until the verdict, /quit, the end of input or an
// interrupt; the game is in the store all along. Its move grammar is ParseMove's.
func (t Terminal) Play(ctx context.Context, g *Game) error {
	p := &player{g: g, out: t.Out, transcript: t.Transcript, echo: t.Echo}
	c := g.Case()
	fmt.Fprintf(p.out, "Game %s: %s (%s), seed %d\n", g.ID, Clean(c.Title), Clean(c.ID), g.View().Seed)
	fmt.Fprintf(p.out, "You are the defense. Your goal: %s\n", Clean(c.DefenseGoal))
	p.hint()
	lines := make(chan string)
	stop := make(chan struct{})
	defer close(stop)
	go readLines(t.In, lines, stop)
	p.lines = lines
	return p.loop(ctx)
}

// player is one terminal session of a game.
type player struct {
	g          *Game
	out        io.Writer
	lines      <-chan string
	transcript string

	seen    int    // the Seq of the last event shown
	attempt int    // the attempt of the last turn shown (0: the first)
	phase   Phase  // the phase of the last turn shown
	speaker string // the speaker of the turn being shown
	open    bool   // a turn's line is being written
	shown   string // the turn's text shown so far, as it streamed
	echo    bool   // end the prompt's line after reading (input is not a terminal)
}

func (p *player) loop(ctx context.Context) error {
	for {
		err := p.advance(ctx)
		if ctx.Err() != nil {
			return p.quit("interrupted")
		}
		if err != nil {
			p.hint()
			return err
		}
		v := p.g.View()
		switch {
		case v.RestartOffered:
			if again := p.askRestart(ctx, v); !again {
				return p.quit(stopped(ctx))
			}
			if err := p.g.Restart(ctx); err != nil {
				return err
			}
		case v.AwaitingDefense:
			if quit := p.defend(ctx, v); quit {
				return p.quit(stopped(ctx))
			}
		default:
			// Advance stops only for the defense, a restart or the end.
			return p.verdict()
		}
	}
}

// stopped says why the player's input stopped: an interrupt, or "" for /quit or the
// end of input.
func stopped(ctx context.Context) string {
	if ctx.Err() != nil {
		return "interrupted"
	}
	return ""
}

// advance lets the court speak, showing its events as they come: Advance runs in its own
// goroutine while this one follows the game's log.
func (p *player) advance(ctx context.Context) error {
	done := make(chan error, 1)
	go func() { done <- p.g.Advance(ctx) }()
	var (
		err      error
		finished bool
	)
	for {
		evs, changed := p.g.Events(p.seen)
		for _, e := range evs {
			p.seen = e.Seq
			p.show(e)
		}
		if finished {
			p.endLine()
			return err
		}
		select {
		case <-changed:
		case err = <-done:
			// Every event of the advance is in the log now: show them, then stop.
			finished = true
		}
	}
}

var phaseTitles = map[Phase]string{
	PhaseIntroduction: "Introduction", PhaseInterrogation: "Interrogation",
	PhaseClosing: "Closing", PhaseVerdict: "Verdict",
}

// show prints one event of the game.
func (p *player) show(e Event) {
	switch e.Kind {
	case EventTurn:
		p.endLine()
		if e.Attempt != p.attempt {
			// Attempts count from 0: a later one is the trial started again after a failure.
			fmt.Fprintf(p.out, "\n— The trial starts again (attempt %d, a new seed) —\n", e.Attempt+1)
			p.attempt, p.phase = e.Attempt, ""
		}
		if e.Phase != p.phase {
			p.phase = e.Phase
			fmt.Fprintf(p.out, "\n— %s —\n", phaseTitles[e.Phase])
		}
		p.speaker = Clean(e.Speaker)
		fmt.Fprintf(p.out, "%s: ", p.speaker)
		p.open, p.shown = true, ""
	case EventDelta:
		if !p.open {
			fmt.Fprintf(p.out, "%s: ", p.speaker)
			p.open = true
		}
		fmt.Fprint(p.out, Clean(e.Text))
		p.shown += e.Text
	case EventReset:
		// The model's reply failed halfway and is asked again: the turn starts over.
		p.endLine()
		fmt.Fprintf(p.out, "%s (redone): ", p.speaker)
		p.open, p.shown = true, ""
	case EventEnd:
		// The log keeps a turn's streamed pieces only until it ends: what of the turn
		// this player had not read before it ended is shown from the whole turn.
		if e.Whole != nil && strings.HasPrefix(e.Whole.Text, p.shown) && len(e.Whole.Text) > len(p.shown) {
			if !p.open {
				fmt.Fprintf(p.out, "%s: ", p.speaker)
			}
			fmt.Fprint(p.out, Clean(e.Whole.Text[len(p.shown):]))
			p.open = true
		}
		p.endLine()
	case EventError:
		p.endLine()
		fmt.Fprintf(p.out, "! the trial failed: %s\n", Clean(e.Message))
	}
}

func (p *player) endLine() {
	if p.open {
		fmt.Fprintln(p.out)
		p.open = false
	}
}

const playHelp = `  text              speak (the court's clerk decides who answers)
  /to NAME text     address NAME in the interrogation (%s)
  /object text      object
  /rest             the defense rests: closing statements and the verdict follow
  /quit             save and stop
  /help             this list
`

// defend reads the defense's move and submits it, asking again until the game takes
// one; it returns true when the player quits.
func (p *player) defend(ctx context.Context, v GameView) (quit bool) {
	addressees := make([]string, len(v.Addressees))
	for i, s := range v.Addressees {
		addressees[i] = string(s)
	}
	switch v.Phase {
	case PhaseInterrogation:
		fmt.Fprintf(p.out, "\nThe defense has the floor. You may address: %s.\n", p.describe(v.Addressees))
	case PhaseIntroduction:
		fmt.Fprintln(p.out, "\nThe defense has the floor: your opening statement.")
	case PhaseClosing:
		fmt.Fprintln(p.out, "\nThe defense has the floor: your closing statement.")
	default:
		fmt.Fprintln(p.out, "\nThe defense has the floor.")
	}
	for {
		fmt.Fprint(p.out, "defense> ")
		line, ok := p.read(ctx)
		if !ok {
			fmt.Fprintln(p.out)
			return true
		}
		m, cmd, err := ParseMove(line, v)
		switch {
		case cmd == "quit":
			return true
		case cmd == "help":
			fmt.Fprintf(p.out, playHelp, orNone(addressees))
			continue
		case err != nil:
			fmt.Fprintf(p.out, "not taken: %v\n", err)
			continue
		}
		if err := p.g.Submit(m); err != nil {
			fmt.Fprintf(p.out, "not taken: %v\n", err)
			continue
		}
		return false
	}
}

// describe lists speakers for the prompt, a witness with its name and occupation.
func (p *player) describe(ss []Speaker) string {
	names := map[Speaker]string{}
	for _, w := range p.g.Case().Witnesses {
		names[WitnessSpeaker(w.ID)] = fmt.Sprintf("%s (%s, %s)", WitnessSpeaker(w.ID), w.Name, w.Occupation)
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = cmp.Or(names[s], string(s))
	}
	return Clean(strings.Join(out, ", "))
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "not now"
	}
	return strings.Join(xs, ", ")
}

// ParseMove reads a line typed at the defense's prompt: a move, or a command of the
// terminal (quit, help).
func ParseMove(line string, v GameView) (Move, string, error) {
	text := strings.TrimSpace(line)
	if !strings.HasPrefix(text, "/") {
		return Move{Kind: MoveSpeak, Text: text}, "", nil
	}
	word, rest := cutWord(text)
	switch strings.ToLower(word) {
	case "/quit", "/exit":
		return Move{}, "quit", nil
	case "/help", "/?":
		return Move{}, "help", nil
	case "/rest":
		return Move{Kind: MoveRest, Text: rest}, "", nil
	case "/object":
		return Move{Kind: MoveObject, Text: rest}, "", nil
	case "/to":
		name, said := cutWord(rest)
		if name == "" {
			return Move{}, "", errors.New("/to needs a name and your words: /to Witness_<id> text")
		}
		if v.Phase != PhaseInterrogation {
			return Move{}, "", fmt.Errorf("/to works in the interrogation; in the %s the floor passes by procedure: type your words", v.Phase)
		}
		for _, s := range v.Addressees {
			if strings.EqualFold(string(s), strings.TrimSuffix(name, ":")) {
				return Move{Kind: MoveSpeak, Text: said, To: s}, "", nil
			}
		}
		names := make([]string, len(v.Addressees))
		for i, s := range v.Addressees {
			names[i] = string(s)
		}
		return Move{}, "", fmt.Errorf("no one called %q here: the defense may address %s", Clean(name), orNone(names))
	}
	return Move{}, "", fmt.Errorf("unknown command %s (type /help)", Clean(word))
}

// cutWord splits s at its first run of white space, trimming both parts.
func cutWord(s string) (word, rest string) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i:])
}

// askRestart shows the failure and asks whether to start the trial again: no, the end
// of input and an interrupt quit.
func (p *player) askRestart(ctx context.Context, v GameView) bool {
	if v.Error != "" {
		fmt.Fprintf(p.out, "! %s\n", Clean(v.Error))
	}
	for {
		fmt.Fprint(p.out, "The trial must start again with a new seed. restart? [Y/n] ")
		line, ok := p.read(ctx)
		if !ok {
			fmt.Fprintln(p.out)
			return false
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "", "y", "yes":
			return true
		case "n", "no", "/quit":
			return false
		}
	}
}

// read waits for a line of input; false at the end of input or an interrupt.
func (p *player) read(ctx context.Context) (string, bool) {
	select {
	case line, ok := <-p.lines:
		if ok && p.echo {
			fmt.Fprintln(p.out)
		}
		return line, ok
	case <-ctx.Done():
		return "", false
	}
}

// readLines sends each line of r to lines until r ends or stop is closed.
func readLines(r io.Reader, lines chan<- string, stop <-chan struct{}) {
	defer close(lines)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		select {
		case lines <- sc.Text():
		case <-stop:
			return
		}
	}
}

// verdict prints how the game ended and writes the transcript.
func (p *player) verdict() error {
	tx := p.g.Transcript()
	fmt.Fprintln(p.out)
	switch {
	case tx.Verdict != nil:
		what := "the defense goal was not met"
		if tx.Verdict.Outcome == OutcomeWin {
			what = "the defense goal was met"
		}
		fmt.Fprintf(p.out, "Outcome: %s (%s)\n", Clean(tx.Verdict.Outcome), what)
		fmt.Fprintf(p.out, "Justification: %s\n", Clean(tx.Verdict.Justification))
		fmt.Fprintf(p.out, "Summary: %s\n", Clean(tx.Verdict.Summary))
	default:
		fmt.Fprintf(p.out, "The trial was abandoned after %d failures: no verdict.\n", tx.Retries)
	}
	return p.writeTranscript(tx, true)
}

// quit says how to go on with the saved game and writes the transcript.
func (p *player) quit(why string) error {
	p.endLine()
	if why != "" {
		fmt.Fprintf(p.out, "\n%s: ", why)
	} else {
		fmt.Fprintln(p.out)
	}
	fmt.Fprintln(p.out, "the game is saved.")
	p.hint()
	return p.writeTranscript(p.g.Transcript(), false)
}

func (p *player) hint() {
	fmt.Fprintf(p.out, "resume with arbiter court play --resume %s\n", p.g.ID)
}

func (p *player) writeTranscript(tx *Transcript, over bool) error {
	if p.transcript == "" {
		if over {
			fmt.Fprintf(p.out, "Transcript: rerun with --resume %s --transcript FILE to write it (JSON)\n", p.g.ID)
		}
		return nil
	}
	b, err := json.MarshalIndent(tx, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if p.transcript == "-" {
		_, err = p.out.Write(b)
	} else {
		err = os.WriteFile(p.transcript, b, 0o644)
	}
	if err != nil {
		return fmt.Errorf("write transcript: %w", err)
	}
	if p.transcript != "-" {
		fmt.Fprintf(p.out, "Transcript: %s\n", p.transcript)
	}
	return nil
}

// Clean removes from model text (and anything else shown that a file or a model wrote)
// every control character but newline and tab, so that no escape sequence reaches the
// terminal.
func Clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}
