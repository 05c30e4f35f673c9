package main

import (
	"bufio"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// playFlags are the flags of 'arbiter court play'.
type playFlags struct {
	court      courtFlags
	caseID     string
	cases      string
	seed       int64
	name       string
	resume     string
	list       bool
	transcript string
}

func (a *app) courtPlayCmd() *cobra.Command {
	var f playFlags
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Play the defense in the terminal: the court streams its lines, you type yours",
		Long: `Play the defense of a case in the terminal. The judge, the prosecutor and the
witnesses are models; their lines stream as they are written. When the defense has the
floor, type a line:

  text              speak (the court's clerk decides who answers)
  /to NAME text     address NAME (Judge, Prosecutor or Witness_<id>) in the interrogation
  /object text      object
  /rest             the defense rests: closing statements and the verdict follow
  /quit             save and stop (also end of input and Ctrl-C)
  /help             this list

The game is saved after every turn: 'arbiter court play --resume ID' goes on from where it
stood, and '--list' shows the saved games.`,
		Example: `  arbiter court play --case summit-ridge --model openai/gpt-4.1
  arbiter court play --resume g3f9a1c2e
  arbiter court play --list`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case f.list:
				return a.listGames(cmd.Context(), f.court.run.db)
			case f.resume != "":
				if f.caseID != "" || cmd.Flags().Changed("seed") || cmd.Flags().Changed("cases") {
					return badInput("--resume plays a stored game: --case, --cases and --seed are the game's own")
				}
				return a.resumeGame(cmd.Context(), &f)
			case f.caseID == "":
				return badInput("court play: pass --case ID (see 'arbiter court validate' for the bundled ids), --resume ID or --list")
			}
			if !cmd.Flags().Changed("seed") {
				f.seed = randomSeed()
			}
			return a.newGame(cmd.Context(), &f)
		},
	}
	f.court.register(cmd, false)
	fs := cmd.Flags()
	fs.StringVar(&f.caseID, "case", "", "the id of the case to play")
	fs.StringVar(&f.cases, "cases", "builtin", "case records: a .json or .jsonl file, a folder of them, or builtin")
	fs.Int64Var(&f.seed, "seed", 0, "the trial's seed (default: a random one, printed)")
	fs.StringVar(&f.name, "name", "", "your name, as the game shows the player")
	fs.StringVar(&f.resume, "resume", "", "go on with the saved game of this id")
	fs.BoolVar(&f.list, "list", false, "list the saved games and exit")
	fs.StringVar(&f.transcript, "transcript", "", "write the game's JSON transcript to this file at the verdict or when you quit")
	refuseBatch(cmd)
	return cmd
}

func (a *app) newGame(ctx context.Context, f *playFlags) error {
	cases, err := a.loadCourtCases(ctx, f.cases, f.court.run.db)
	if err != nil {
		return err
	}
	var c *court.Case
	ids := make([]string, 0, len(cases))
	for _, cc := range cases {
		ids = append(ids, cc.ID)
		if cc.ID == f.caseID {
			c = cc
		}
	}
	if c == nil {
		return badInput("--case %q: no such case in %s: want %s", f.caseID, f.cases, orList(ids))
	}
	sess, models, done, err := a.courtSession(ctx, &f.court)
	if err != nil {
		return err
	}
	defer done()
	sess.Progress = nil // the game itself shows what the court is doing
	gs := &court.Games{Session: sess}
	g, err := gs.New(ctx, newGameID(), court.GameState{Case: c, Seed: f.seed, Models: models,
		Player: court.PlayerInfo{Name: f.name}})
	if err != nil {
		return err
	}
	return a.play(ctx, g, f.transcript)
}

func (a *app) resumeGame(ctx context.Context, f *playFlags) error {
	if len(f.court.run.models) > 1 {
		return badInput("--model given %d times: give it once, and --judge-model, --prosecutor-model, --witness-model or --analyzer-model for the roles that differ", len(f.court.run.models))
	}
	st, err := a.openExistingStore(ctx, f.court.run.db)
	if err != nil {
		return err
	}
	rec, err := st.CourtGame(ctx, f.resume)
	st.Close()
	if errors.Is(err, store.ErrNotFound) {
		return badInput("--resume %s: no such game in the store (see 'arbiter court play --list')", f.resume)
	}
	if err != nil {
		return err
	}
	var state court.GameState
	if err := json.Unmarshal(rec.State, &state); err != nil {
		return fmt.Errorf("game %s: stored state: %w", f.resume, err)
	}
	// The stored models play on unless a flag names others.
	m := state.Models
	if len(f.court.run.models) == 1 {
		all := llm.ModelName(f.court.run.models[0])
		m = court.Models{Judge: all, Prosecutor: all, Witness: all, Analyzer: all, Defense: m.Defense}
	}
	if f.court.judge != "" {
		m.Judge = llm.ModelName(f.court.judge)
	}
	if f.court.prosecutor != "" {
		m.Prosecutor = llm.ModelName(f.court.prosecutor)
	}
	if f.court.witness != "" {
		m.Witness = llm.ModelName(f.court.witness)
	}
	if f.court.analyzer != "" {
		m.Analyzer = llm.ModelName(f.court.analyzer)
	}
	cf := f.court
	cf.run.models = nil
	cf.judge, cf.prosecutor, cf.witness, cf.analyzer, cf.defense =
		string(m.Judge), string(m.Prosecutor), string(m.Witness), string(m.Analyzer), string(m.Defense)
	sess, _, done, err := a.courtSession(ctx, &cf)
	if err != nil {
		return err
	}
	defer done()
	sess.Progress = nil
	if m != state.Models {
		// The game goes on with other models: its stored state names them, so that the
		// trial rebuilt from it asks them (the turns already played are read back, not asked).
		state.Models = m
		b, err := json.Marshal(state)
		if err != nil {
			return err
		}
		rec.State = b
		if err := sess.Store.PutCourtGame(ctx, rec); err != nil {
			return err
		}
	}
	g, err := (&court.Games{Session: sess}).Load(ctx, f.resume)
	if err != nil {
		return err
	}
	return a.play(ctx, g, f.transcript)
}

// listGames prints the saved games, the latest played first.
func (a *app) listGames(ctx context.Context, db string) error {
	st, err := a.openExistingStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	games, err := st.CourtGames(ctx)
	if err != nil {
		return err
	}
	if len(games) == 0 {
		fmt.Fprintln(a.stdout, "no saved games: start one with arbiter court play --case ID --model M")
		return nil
	}
	w := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "GAME\tCASE\tPHASE\tTURNS\tOUTCOME\tLAST PLAYED")
	for _, g := range games {
		outcome := g.Outcome
		if outcome == "" {
			outcome = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\n", clean(g.ID), clean(g.CaseID), g.Phase, g.Turns, outcome,
			g.Updated.UTC().Format("2006-01-02 15:04 UTC"))
	}
	return w.Flush()
}

// play runs the game in the terminal until the verdict, /quit, the end of input or an
// interrupt; the game is in the store all along.
func (a *app) play(ctx context.Context, g *court.Game, transcript string) error {
	p := &player{g: g, out: a.stdout, transcript: transcript}
	c := g.Case()
	fmt.Fprintf(p.out, "Game %s: %s (%s), seed %d\n", g.ID, clean(c.Title), clean(c.ID), g.View().Seed)
	fmt.Fprintf(p.out, "You are the defense. Your goal: %s\n", clean(c.DefenseGoal))
	p.hint()
	lines := make(chan string)
	stop := make(chan struct{})
	defer close(stop)
	go readLines(a.stdin, lines, stop)
	p.lines = lines
	if f, ok := a.stdin.(*os.File); !ok || !term.IsTerminal(int(f.Fd())) {
		// Input typed at a terminal ends its own line; piped input does not show.
		p.echo = true
	}
	return p.loop(ctx)
}

// player is one terminal session of a game.
type player struct {
	g          *court.Game
	out        io.Writer
	lines      <-chan string
	transcript string

	seen    int         // events of the game's log already shown
	attempt int         // the attempt of the last turn shown (0: the first)
	phase   court.Phase // the phase of the last turn shown
	speaker string      // the speaker of the turn being shown
	open    bool        // a turn's line is being written
	echo    bool        // end the prompt's line after reading (input is not a terminal)
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
		p.seen += len(evs)
		for _, e := range evs {
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

var phaseTitles = map[court.Phase]string{
	court.PhaseIntroduction: "Introduction", court.PhaseInterrogation: "Interrogation",
	court.PhaseClosing: "Closing", court.PhaseVerdict: "Verdict",
}

// show prints one event of the game.
func (p *player) show(e court.Event) {
	switch e.Kind {
	case court.EventTurn:
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
		p.speaker = clean(e.Speaker)
		fmt.Fprintf(p.out, "%s: ", p.speaker)
		p.open = true
	case court.EventDelta:
		if !p.open {
			fmt.Fprintf(p.out, "%s: ", p.speaker)
			p.open = true
		}
		fmt.Fprint(p.out, clean(e.Text))
	case court.EventReset:
		// The model's reply failed halfway and is asked again: the turn starts over.
		p.endLine()
		fmt.Fprintf(p.out, "%s (redone): ", p.speaker)
		p.open = true
	case court.EventEnd:
		p.endLine()
	case court.EventError:
		p.endLine()
		fmt.Fprintf(p.out, "! the trial failed: %s\n", clean(e.Message))
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
func (p *player) defend(ctx context.Context, v court.GameView) (quit bool) {
	addressees := make([]string, len(v.Addressees))
	for i, s := range v.Addressees {
		addressees[i] = string(s)
	}
	switch v.Phase {
	case court.PhaseInterrogation:
		fmt.Fprintf(p.out, "\nThe defense has the floor. You may address: %s.\n", p.describe(v.Addressees))
	case court.PhaseIntroduction:
		fmt.Fprintln(p.out, "\nThe defense has the floor: your opening statement.")
	case court.PhaseClosing:
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
		m, cmd, err := parseMove(line, v)
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
func (p *player) describe(ss []court.Speaker) string {
	names := map[court.Speaker]string{}
	for _, w := range p.g.Case().Witnesses {
		names[court.WitnessSpeaker(w.ID)] = fmt.Sprintf("%s (%s, %s)", court.WitnessSpeaker(w.ID), w.Name, w.Occupation)
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = cmp.Or(names[s], string(s))
	}
	return clean(strings.Join(out, ", "))
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "not now"
	}
	return strings.Join(xs, ", ")
}

// parseMove reads a line typed at the defense's prompt: a move, or a command of the
// terminal (quit, help).
func parseMove(line string, v court.GameView) (court.Move, string, error) {
	text := strings.TrimSpace(line)
	if !strings.HasPrefix(text, "/") {
		return court.Move{Kind: court.MoveSpeak, Text: text}, "", nil
	}
	word, rest := cutWord(text)
	switch strings.ToLower(word) {
	case "/quit", "/exit":
		return court.Move{}, "quit", nil
	case "/help", "/?":
		return court.Move{}, "help", nil
	case "/rest":
		return court.Move{Kind: court.MoveRest, Text: rest}, "", nil
	case "/object":
		return court.Move{Kind: court.MoveObject, Text: rest}, "", nil
	case "/to":
		name, said := cutWord(rest)
		if name == "" {
			return court.Move{}, "", errors.New("/to needs a name and your words: /to Witness_<id> text")
		}
		if v.Phase != court.PhaseInterrogation {
			return court.Move{}, "", fmt.Errorf("/to works in the interrogation; in the %s the floor passes by procedure: type your words", v.Phase)
		}
		for _, s := range v.Addressees {
			if strings.EqualFold(string(s), strings.TrimSuffix(name, ":")) {
				return court.Move{Kind: court.MoveSpeak, Text: said, To: s}, "", nil
			}
		}
		names := make([]string, len(v.Addressees))
		for i, s := range v.Addressees {
			names[i] = string(s)
		}
		return court.Move{}, "", fmt.Errorf("no one called %q here: the defense may address %s", clean(name), orNone(names))
	}
	return court.Move{}, "", fmt.Errorf("unknown command %s (type /help)", clean(word))
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
func (p *player) askRestart(ctx context.Context, v court.GameView) bool {
	if v.Error != "" {
		fmt.Fprintf(p.out, "! %s\n", clean(v.Error))
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
		if tx.Verdict.Outcome == court.OutcomeWin {
			what = "the defense goal was met"
		}
		fmt.Fprintf(p.out, "Outcome: %s (%s)\n", clean(tx.Verdict.Outcome), what)
		fmt.Fprintf(p.out, "Justification: %s\n", clean(tx.Verdict.Justification))
		fmt.Fprintf(p.out, "Summary: %s\n", clean(tx.Verdict.Summary))
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

func (p *player) writeTranscript(tx *court.Transcript, over bool) error {
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
	if err := writeOut(p.transcript, p.out, append(b, '\n')); err != nil {
		return fmt.Errorf("write transcript: %w", err)
	}
	if p.transcript != "-" {
		fmt.Fprintf(p.out, "Transcript: %s\n", p.transcript)
	}
	return nil
}

// clean removes from model text (and anything else shown that a file or a model wrote)
// every control character but newline and tab, so that no escape sequence reaches the
// terminal.
func clean(s string) string {
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

// newGameID is a short random id: "g" and 8 hex digits.
func newGameID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "g" + hex.EncodeToString(b[:])
}

func randomSeed() int64 {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return 1
	}
	return n.Int64() + 1
}
