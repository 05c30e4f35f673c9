package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"text/tabwriter"

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
	side       string
	join       string
	joinSide   court.Side // the side --join's token plays
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
  /to NAME text     address NAME (Judge, Prosecutor or a witness; any unambiguous start
                    of a name) in the interrogation
  /object text      object (the Judge rules; an overruled objection costs credibility)
  /present E2 text  show an item of the court record to the witness on the stand: the
                    item that breaks a witness's claim exposes it; a wrong one costs
                    credibility
  /press N text     press witness statement N for detail
  /hold             while the court speaks: Hold it! (the floor at the end of the line)
  /record           the court record: evidence, people, statements so far
  /rest             the defense rests: closing statements and the verdict follow
  /quit             save and stop (also end of input and Ctrl-C)
  /help             this list

The game is saved after every turn: 'arbiter court play --resume ID' goes on from where it
stood, and '--list' shows the saved games.

'--join LINK' joins a game of two people as the side its link is for: LINK is the
invitation (/court/games/ID?token=T, a URL with that path, or "ID T"). Both people must
use the same store (--db, e.g. the one 'arbiter serve' was started with); the other plays
in the browser or in another terminal. While the other has the floor this terminal waits,
then shows their move and the court's answers; the court answers a move in the process
where it was made, and the browser's page shows the moves made here as they are saved.
/hold works while the other person's court speaks too (type it as the answers come): it
is kept in the store, and that court gives you the floor at the end of its current line,
as the browser's Hold button does while this terminal's court speaks.`,
		Example: `  arbiter court play --case summit-ridge --model openai/gpt-4.1
  arbiter court play --resume g3f9a1c2e
  arbiter court play --list
  arbiter court play --db court.db --join 'http://localhost:8080/court/games/ab12?token=T'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case f.list:
				return a.listGames(cmd.Context(), f.court.run.db)
			case f.join != "":
				if f.resume != "" || f.caseID != "" || cmd.Flags().Changed("side") {
					return badInput("--join plays the side of the link's token in its stored game: no --resume, --case or --side")
				}
				return a.joinGame(cmd.Context(), &f)
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
	fs.StringVar(&f.join, "join", "", "join a two-person game by its link, as the side its token plays (same store as the other player)")
	fs.BoolVar(&f.list, "list", false, "list the saved games and exit")
	fs.StringVar(&f.transcript, "transcript", "", "write the game's JSON transcript to this file at the verdict or when you quit")
	fs.StringVar(&f.side, "side", "defense", "the counsel you play: defense or prosecution (then a model plays the defense)")
	fs.StringVar(&f.court.defense, "defense-model", "", "with --side prosecution, the model that plays the defense (default: the prosecutor's model)")
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
	side, err := court.ParseSide(f.side)
	if err != nil {
		return badInput("--side: %v", err)
	}
	if side == court.SideDefense && f.court.defense != "" {
		return badInput("--defense-model plays the defense when you play the prosecution (--side prosecution)")
	}
	if side == court.SideProsecution && f.court.defense == "" {
		f.court.defense = f.court.prosecutorModel()
	}
	sess, models, done, err := a.courtSession(ctx, &f.court)
	if err != nil {
		return err
	}
	defer done()
	sess.Progress = nil // the game itself shows what the court is doing
	gs := &court.Games{Session: sess}
	g, err := gs.New(ctx, newGameID(), court.GameState{Case: c, Seed: f.seed, Models: models,
		Player: court.PlayerInfo{Name: f.name}, Side: side})
	if err != nil {
		return err
	}
	return a.play(ctx, g, f.transcript, court.Terminal{})
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
	gs := &court.Games{Session: sess}
	g, err := gs.Load(ctx, f.resume)
	if err != nil {
		return err
	}
	return a.play(ctx, g, f.transcript, joinTerminal(gs, f))
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
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\n", court.Clean(g.ID), court.Clean(g.CaseID), g.Phase, g.Turns, outcome,
			g.Updated.UTC().Format("2006-01-02 15:04 UTC"))
	}
	return w.Flush()
}

// play runs g in this terminal (court.Terminal).
func (a *app) play(ctx context.Context, g *court.Game, transcript string, t court.Terminal) error {
	// Input typed at a terminal ends its own line; piped input does not show.
	f, ok := a.stdin.(*os.File)
	echo := !ok || !term.IsTerminal(int(f.Fd()))
	// Lines wrap at the terminal's width when the output is one (80 columns otherwise).
	width := 0
	if out, ok := a.stdout.(*os.File); ok {
		if w, _, err := term.GetSize(int(out.Fd())); err == nil && w > 20 {
			width = w - 1
		}
	}
	t.In, t.Out, t.Echo, t.Transcript, t.Width = a.stdin, a.stdout, echo, transcript, width
	return t.Play(ctx, g)
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
