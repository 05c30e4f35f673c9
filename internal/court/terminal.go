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
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-eval/arbiter/internal/store"
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
	// Width is the column lines wrap at (at word boundaries): 80 when 0.
	Width int
	// Side, when set, is the side played in a two-player game (the game's own side
	// when empty). While the other person has the floor, Wait is called for the game
	// as it stands once the floor is Side's again (or the trial is over): the other
	// person may be in another process on the same store (Games.WaitFloor).
	Side Side
	Wait func(ctx context.Context) (*Game, error)
}

// Play runs g in the terminal until the verdict, /quit, the end of input or an
// interrupt; the game is in the store all along. Its move grammar is ParseMove's.
func (t Terminal) Play(ctx context.Context, g *Game) error {
	w := &wrapper{w: t.Out, width: cmp.Or(t.Width, 80)}
	p := &player{g: g, out: w, wrap: w, raw: t.Out, transcript: t.Transcript, echo: t.Echo}
	c := g.Case()
	fmt.Fprintf(p.out, "Game %s: %s (%s), seed %d\n", g.ID, Clean(c.Title), Clean(c.ID), g.View().Seed)
	p.caseFile()
	side := cmp.Or(t.Side, g.View().Side)
	p.side, p.wait = side, t.Wait
	fmt.Fprintf(p.out, "You are the %s. Your goal: %s\n", side, Clean(c.GoalOf(side)))
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
	out        io.Writer // wraps at words
	wrap       *wrapper
	raw        io.Writer // the terminal itself, for the transcript
	lines      <-chan string
	pending    []string // lines typed while the court spoke
	eof        bool
	transcript string
	statements int // witness statements shown in this attempt

	seen    int    // the Seq of the last event shown
	attempt int    // the attempt of the last turn shown (0: the first)
	phase   Phase  // the phase of the last turn shown
	speaker string // the speaker of the turn being shown
	open    bool   // a turn's line is being written
	shown   string // the turn's text shown so far, as it streamed
	redo    bool   // the turn was cut and starts over
	echo    bool   // end the prompt's line after reading (input is not a terminal)
	ends    int    // the turns shown (EventEnd)

	side Side                                     // the side played
	wait func(ctx context.Context) (*Game, error) // the other person's floor (Terminal.Wait)
}

func (p *player) loop(ctx context.Context) error {
	for {
		if p.wait != nil && p.g.SpeakingElsewhere() {
			// The other person's process lets the court answer their move: follow it.
			if err := p.awaitOther(ctx, p.g.View()); err != nil {
				return p.waitFailed(ctx, err)
			}
			continue
		}
		err := p.advance(ctx)
		if p.wait != nil && errors.Is(err, store.ErrConflict) {
			// The other person's move was saved first: their court speaks, not ours.
			if err := p.awaitOther(ctx, p.g.View()); err != nil {
				return p.waitFailed(ctx, err)
			}
			continue
		}
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
		case v.AwaitingPlayer && v.TwoPlayers && v.Floor != p.side:
			if err := p.awaitOther(ctx, v); err != nil {
				return p.waitFailed(ctx, err)
			}
		case v.AwaitingPlayer:
			if quit := p.defend(ctx, v); quit {
				return p.quit(stopped(ctx))
			}
		default:
			// Advance stops only for the defense, a restart or the end.
			return p.verdict()
		}
	}
}

// waitFailed ends the game in the terminal when waiting for the other person failed.
func (p *player) waitFailed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return p.quit("interrupted")
	}
	return err
}

// awaitOther waits for the other person's move and goes on with the game as it then
// stands, showing the turns spoken meanwhile.
func (p *player) awaitOther(ctx context.Context, v GameView) error {
	if p.wait == nil {
		return fmt.Errorf("court: the %s has the floor and this terminal plays the %s", v.Floor, p.side)
	}
	p.endLine()
	if v.Floor != "" {
		fmt.Fprintf(p.out, "\n(The %s has the floor: waiting for the other person's move.)\n", v.Floor)
	} else {
		fmt.Fprintln(p.out, "\n(The court answers the other person's move.)")
	}
	g, err := p.waitTyping(ctx)
	if err != nil {
		return err
	}
	p.g = g
	evs, _ := g.Events(0)
	skip, n := p.ends, 0
	for _, e := range evs {
		p.seen = e.Seq
		if n >= skip {
			p.show(e)
		} else if e.Kind == EventEnd {
			n++
		}
	}
	p.endLine()
	return nil
}

// waitTyping waits for the other person's move (p.wait) while taking the lines typed
// meanwhile: /hold calls "Hold it!" on the court speaking in the other person's
// process, anything else waits for the player's floor.
func (p *player) waitTyping(ctx context.Context) (*Game, error) {
	type waited struct {
		g   *Game
		err error
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan waited, 1)
	go func() {
		g, err := p.wait(wctx)
		done <- waited{g, err}
	}()
	for {
		select {
		case w := <-done:
			return w.g, w.err
		case line, ok := <-p.lines:
			p.typed(ctx, line, ok)
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
		case line, ok := <-p.lines:
			p.typed(ctx, line, ok)
		}
	}
}

// typed takes a line typed while the court speaks, here or (a game of two) in the
// other person's process: /hold calls "Hold it!", anything else waits for the player's
// floor.
func (p *player) typed(ctx context.Context, line string, ok bool) {
	if !ok {
		p.lines, p.eof = nil, true
		return
	}
	if !strings.EqualFold(strings.TrimSpace(line), "/hold") {
		p.pending = append(p.pending, line)
		return
	}
	if p.g.TwoPlayers() {
		// The game as this terminal last saw it may be behind the court speaking in
		// the other process: the hold is for the line it speaks now. (Follow leaves a
		// game whose court speaks here as it is.)
		if _, err := p.g.Follow(ctx); err != nil {
			p.endLine()
			fmt.Fprintf(p.out, "not taken: %v\n", err)
			return
		}
	}
	if err := p.g.HoldFor(ctx, p.side); err != nil {
		p.endLine()
		fmt.Fprintf(p.out, "not taken: %v\n", strings.TrimPrefix(err.Error(), "court: "))
		return
	}
	p.endLine()
	fmt.Fprintf(p.out, "(Hold it! The %s takes the floor at the end of this line.)\n", p.side)
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
			p.attempt, p.phase, p.statements = e.Attempt, "", 0
		}
		if e.Phase != p.phase {
			p.phase = e.Phase
			fmt.Fprintf(p.out, "\n— %s —\n", phaseTitles[e.Phase])
		}
		p.speaker = Clean(e.Speaker)
		if e.Role == "witness" && e.Phase == PhaseInterrogation {
			p.statements++
			p.speaker = fmt.Sprintf("[%d] %s", p.statements, p.speaker)
		}
		fmt.Fprintf(p.out, "%s: ", p.speaker)
		p.open, p.shown, p.redo = true, "", false
	case EventDelta:
		if !p.open {
			redone := ""
			if p.redo {
				redone = " (redone)"
			}
			fmt.Fprintf(p.out, "%s%s: ", p.speaker, redone)
			p.open, p.redo = true, false
		}
		fmt.Fprint(p.out, Clean(e.Text))
		p.shown += e.Text
	case EventReset:
		// The model's reply failed halfway and is asked again: the turn starts over, on
		// a line of its own when its text comes.
		p.endLine()
		p.redo, p.shown = true, ""
	case EventEnd:
		p.ends++
		// The log keeps a turn's streamed pieces only until it ends: what of the turn
		// this player had not read before it ended is shown from the whole turn.
		if e.Whole != nil && strings.HasPrefix(e.Whole.Text, p.shown) && len(e.Whole.Text) > len(p.shown) {
			if !p.open && p.redo {
				fmt.Fprintf(p.out, "%s (redone): ", p.speaker)
			} else if !p.open {
				fmt.Fprintf(p.out, "%s: ", p.speaker)
			}
			p.redo = false
			fmt.Fprint(p.out, Clean(e.Whole.Text[len(p.shown):]))
			p.open = true
		}
		p.endLine()
	case EventError:
		p.endLine()
		fmt.Fprintf(p.out, "! %s\n", Clean(e.Message))
	case EventStatus:
		p.endLine()
		fmt.Fprintf(p.out, "(%s)\n", Clean(e.Message))
	case EventHold:
		p.endLine()
		fmt.Fprintf(p.out, "HOLD IT! The %s takes the floor.\n", cmp.Or(e.Side, p.g.View().Side))
	case EventWarning:
		p.endLine()
		fmt.Fprintf(p.out, "! %s\n", Clean(e.Message))
	case EventCredibility:
		p.endLine()
		fmt.Fprintf(p.out, "[credibility %d/100]\n", e.Value)
	case EventExposed:
		p.endLine()
		who := e.Exposure.Witness
		if w, ok := p.g.Case().Witness(who); ok {
			who = w.Name
		}
		fmt.Fprintf(p.out, "OBJECTION! %s exposes a contradiction in %s's testimony (%s).\n", Clean(e.Exposure.Evidence), Clean(who), Clean(e.Exposure.Contradiction))
	}
}

func (p *player) endLine() {
	if p.open {
		fmt.Fprintln(p.out)
		p.open = false
	}
}

const playHelp = `  text              speak (the court's clerk decides who answers)
  /to NAME text     address NAME in the interrogation (%s); any unambiguous start of a name
  /object text      object (the Judge rules; an overruled objection costs credibility)
  /present E2 text  show an item of the court record to the witness on the stand
  /press N text     press witness statement N for detail
  /hold             while the court speaks: Hold it! (the floor at the end of the line;
                    in a game of two, also while the other person's court speaks)
  /record           the court record: evidence, people, statements so far
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
	cred := v.Credibility
	if c, ok := v.Credibilities[p.side]; ok {
		cred = c
	}
	v.Side = p.side
	switch v.Phase {
	case PhaseInterrogation:
		fmt.Fprintf(p.out, "\nThe %s has the floor (%d turns left, credibility %d/100).\nYou may address: %s.\n", v.Side, v.TurnsLeft, cred, p.describe(v.Addressees))
		if v.Stand != "" {
			fmt.Fprintf(p.out, "On the stand: %s. /present an item to them, /press a statement, /record to see both.\n", p.describe([]Speaker{v.Stand}))
		}
	case PhaseIntroduction:
		fmt.Fprintf(p.out, "\nThe %s has the floor: your opening statement.\n", v.Side)
	case PhaseClosing:
		fmt.Fprintf(p.out, "\nThe %s has the floor: your closing statement.\n", v.Side)
	default:
		fmt.Fprintf(p.out, "\nThe %s has the floor.\n", v.Side)
	}
	pc := p.g.Case().Public()
	for {
		p.wrap.prompt(string(v.Side) + "> ")
		line, ok := p.read(ctx)
		if !ok {
			fmt.Fprintln(p.out)
			return true
		}
		m, cmd, err := ParseMove(line, v, &pc)
		switch {
		case cmd == "quit":
			return true
		case cmd == "help":
			fmt.Fprintf(p.out, playHelp, orNone(addressees))
			continue
		case cmd == "record":
			p.record(v)
			continue
		case cmd == "hold":
			fmt.Fprintln(p.out, "not taken: the defense has the floor already; /hold interrupts the court while it speaks")
			continue
		case err != nil:
			fmt.Fprintf(p.out, "not taken: %v\n", err)
			continue
		}
		if err := p.g.SubmitFor(p.side, m); err != nil {
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
// terminal (quit, help, record, hold). c, when set, gives the people's names for /to,
// which takes any unambiguous start of a name, a witness's id or a speaker tag
// (case-insensitive).
func ParseMove(line string, v GameView, c *PublicCase) (Move, string, error) {
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
	case "/record":
		return Move{}, "record", nil
	case "/hold":
		return Move{}, "hold", nil
	case "/rest":
		return Move{Kind: MoveRest, Text: rest}, "", nil
	case "/object":
		return Move{Kind: MoveObject, Text: rest}, "", nil
	case "/present":
		id, said := cutWord(rest)
		if id == "" {
			return Move{}, "", errors.New("/present needs an item of the court record: /present E2 [your words]")
		}
		return Move{Kind: MovePresent, Evidence: strings.ToUpper(id), Text: said}, "", nil
	case "/press":
		num, said := cutWord(rest)
		n, err := strconv.Atoi(strings.TrimPrefix(num, "#"))
		if err != nil || n < 1 {
			return Move{}, "", errors.New("/press needs a statement's number: /press 3 [your words] (/record lists them)")
		}
		return Move{Kind: MovePress, Statement: n, Text: said}, "", nil
	case "/to":
		name, said := cutWord(rest)
		if name == "" {
			return Move{}, "", errors.New("/to needs a name and your words: /to NAME text")
		}
		if v.Phase != PhaseInterrogation {
			return Move{}, "", fmt.Errorf("/to works in the interrogation; in the %s the floor passes by procedure: type your words", v.Phase)
		}
		to, err := addressee(strings.TrimSuffix(name, ":"), v.Addressees, c)
		if err != nil {
			return Move{}, "", err
		}
		return Move{Kind: MoveSpeak, Text: said, To: to}, "", nil
	}
	return Move{}, "", fmt.Errorf("unknown command %s (type /help)", Clean(word))
}

// addressee is the one addressee whose tag, witness id, name or a word of the name
// starts with prefix (case-insensitive); an exact tag wins over prefixes.
func addressee(prefix string, among []Speaker, c *PublicCase) (Speaker, error) {
	names := map[Speaker]string{}
	if c != nil {
		for _, w := range c.Witnesses {
			names[WitnessSpeaker(w.ID)] = w.Name
		}
	}
	low := strings.ToLower(prefix)
	var hits []Speaker
	for _, s := range among {
		if strings.EqualFold(string(s), prefix) {
			return s, nil
		}
		keys := append([]string{string(s), s.WitnessID(), names[s]}, strings.Fields(names[s])...)
		for _, k := range keys {
			if k != "" && strings.HasPrefix(strings.ToLower(k), low) {
				hits = append(hits, s)
				break
			}
		}
	}
	label := func(s Speaker) string {
		if n := names[s]; n != "" {
			return fmt.Sprintf("%s (%s)", n, s)
		}
		return string(s)
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		all := make([]string, len(among))
		for i, s := range among {
			all[i] = label(s)
		}
		return "", fmt.Errorf("no one called %q here: the defense may address %s", Clean(prefix), orNone(all))
	}
	all := make([]string, len(hits))
	for i, s := range hits {
		all[i] = label(s)
	}
	return "", fmt.Errorf("%q could be %s: type more of the name", Clean(prefix), Clean(strings.Join(all, " or ")))
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
		p.wrap.prompt("The trial must start again with a new seed. restart? [Y/n] ")
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
	if len(p.pending) > 0 {
		line := p.pending[0]
		p.pending = p.pending[1:]
		p.readDone()
		return line, true
	}
	if p.eof {
		return "", false
	}
	select {
	case line, ok := <-p.lines:
		if ok {
			p.readDone()
		}
		return line, ok
	case <-ctx.Done():
		return "", false
	}
}

// readDone ends the prompt's line: the terminal did when the player pressed return,
// and input that is not a terminal is echoed as a line end.
func (p *player) readDone() {
	if p.echo {
		fmt.Fprintln(p.out)
	}
	p.wrap.col, p.wrap.spaces = 0, 0
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
		side := p.g.View().Side
		what := fmt.Sprintf("the %s goal was not met", side)
		if tx.Verdict.Outcome == OutcomeWin {
			what = fmt.Sprintf("the %s goal was met", side)
		}
		// The court's word is the defense's outcome: a prosecution win is its loss.
		defense := tx.Verdict.Outcome
		if side == SideProsecution {
			defense = map[string]string{OutcomeWin: OutcomeLoss, OutcomeLoss: OutcomeWin}[defense]
		}
		fmt.Fprintf(p.out, "VERDICT: %s (%s)\n", strings.ToUpper(verdictWord(p.g.Case().Kind, defense)), what)
		fmt.Fprintf(p.out, "The court's reasons: %s\n", Clean(tx.Verdict.Justification))
		fmt.Fprintf(p.out, "Summary: %s\n", Clean(tx.Verdict.Summary))
		p.debrief(tx.Debrief)
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
	p.wrap.flush()
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
		_, err = p.raw.Write(b)
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

// verdictWord is the outcome as the court says it.
func verdictWord(k Kind, outcome string) string {
	switch {
	case k == Civil && outcome == OutcomeWin:
		return "claim dismissed"
	case k == Civil:
		return "liable"
	case outcome == OutcomeWin:
		return "not guilty"
	}
	return "guilty"
}

// caseFile shows the public case: what the defense may know at the start.
func (p *player) caseFile() {
	c := p.g.Case().Public()
	what := "Charge"
	if c.Kind == Civil {
		what = "Claim"
	}
	fmt.Fprintf(p.out, "\n— Case file —\n%s: %s\nDefendant: %s, %s\n%s\n", what, Clean(c.Charge), Clean(c.Defendant.Name), Clean(c.Defendant.Description), Clean(c.Summary))
	p.evidenceAndPeople(c)
}

func (p *player) evidenceAndPeople(c PublicCase) {
	fmt.Fprintln(p.out, "Evidence:")
	for _, e := range c.Evidence {
		fmt.Fprintf(p.out, "  %s %s: %s\n", Clean(e.ID), Clean(e.Name), Clean(e.Description))
	}
	fmt.Fprintln(p.out, "People:")
	fmt.Fprintf(p.out, "  %s, the defendant: %s\n", Clean(c.Defendant.Name), Clean(c.Defendant.Description))
	for _, w := range c.Witnesses {
		fmt.Fprintf(p.out, "  %s, %s, called by the %s (/to %s)\n", Clean(w.Name), Clean(w.Occupation), w.CalledBy, Clean(strings.Fields(w.Name + " ?")[0]))
	}
}

// record shows the court record: the evidence, the people and every witness statement
// so far, numbered for /press.
func (p *player) record(v GameView) {
	p.endLine()
	fmt.Fprintln(p.out, "\n— Court record —")
	p.evidenceAndPeople(p.g.Case().Public())
	fmt.Fprintln(p.out, "Statements:")
	n := 0
	for _, t := range v.Turns {
		if t.Statement > 0 {
			n++
			fmt.Fprintf(p.out, "  [%d] %s: %s\n", t.Statement, Clean(t.Speaker), Clean(t.Text))
		}
	}
	if n == 0 {
		fmt.Fprintln(p.out, "  none yet")
	}
	for _, e := range v.Exposed {
		fmt.Fprintf(p.out, "Exposed: %s, by %s\n", Clean(e.Contradiction), Clean(e.Evidence))
	}
}

// debrief shows how the defense played.
func (p *player) debrief(d *Debrief) {
	if d == nil {
		return
	}
	fmt.Fprintf(p.out, "\n— Debrief —\nGrade %s (%d/100)\n", d.Grade, d.Score)
	fmt.Fprintf(p.out, "Contradictions found: %d of %d\n", d.Found, d.Planted)
	for _, x := range d.Contradictions {
		mark := "missed"
		if x.Found {
			mark = "found with " + x.By
		}
		who := x.Witness
		if w, ok := p.g.Case().Witness(x.Witness); ok {
			who = w.Name
		}
		fmt.Fprintf(p.out, "  %s (%s): %s claimed %s It breaks on %s: %s\n", Clean(x.ID), mark, Clean(who), Clean(x.Claim), Clean(strings.Join(x.Evidence, " or ")), Clean(x.Explanation))
	}
	fmt.Fprintf(p.out, "Credibility: %d/100 (items presented %d, missed %d)\n", d.Credibility, d.Presented, d.Misses)
	fmt.Fprintf(p.out, "Objections: %d sustained, %d overruled\n", d.Sustained, d.Overruled)
	fmt.Fprintf(p.out, "Turns used: %d of %d (the defense spoke %d times)\n", d.TurnsUsed, d.TurnBudget, d.DefenseTurns)
}

// wrapper writes text wrapped at word boundaries to width columns: a word is held
// until the white space after it, so streamed text wraps too. Runs of spaces are kept
// (indentation), but not at a wrap.
type wrapper struct {
	w      io.Writer
	width  int
	col    int
	spaces int
	word   []byte
}

func (x *wrapper) Write(b []byte) (int, error) {
	for _, r := range string(b) {
		switch r {
		case '\n':
			x.flush()
			x.spaces, x.col = 0, 0
			io.WriteString(x.w, "\n")
		case ' ', '\t':
			x.flush()
			x.spaces++
		default:
			x.word = utf8.AppendRune(x.word, r)
		}
	}
	return len(b), nil
}

// flush writes the word held, on a new line when it does not fit.
func (x *wrapper) flush() {
	if len(x.word) == 0 {
		return
	}
	n := utf8.RuneCount(x.word)
	if x.col > 0 && x.col+x.spaces+n > x.width {
		io.WriteString(x.w, "\n")
		x.col, x.spaces = 0, 0
	}
	io.WriteString(x.w, strings.Repeat(" ", x.spaces))
	x.w.Write(x.word)
	x.col += x.spaces + n
	x.spaces, x.word = 0, x.word[:0]
}

// prompt writes s as it is (its trailing space too), after the text held.
func (x *wrapper) prompt(s string) {
	x.flush()
	io.WriteString(x.w, strings.Repeat(" ", x.spaces)+s)
	x.col += x.spaces + utf8.RuneCountInString(s)
	x.spaces = 0
}
