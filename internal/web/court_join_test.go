package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// joinGames is a second process's court on the rig's store (court play --join): its
// own Store on the same file, and the same stand-in models.
func (r *courtRig) joinGames(t *testing.T) *court.Games {
	t.Helper()
	st, err := store.Open(context.Background(), r.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	models := map[llm.ModelName]llm.Model{}
	for _, role := range []string{"judge", "prosecutor", "witness", "analyzer", "defense"} {
		name := llm.ModelName("openai/" + role)
		m, err := openai.New(name, config.Endpoint{Provider: "openai", BaseURL: r.standIn.OpenAIBaseURL(), Key: "sk-test"}, openai.Options{})
		if err != nil {
			t.Fatal(err)
		}
		models[name] = m
	}
	return &court.Games{Session: &runner.Session{Store: st, Models: models, NoCache: true}}
}

// twoToInterrogation creates a game of two on the lantern case, the defense played
// through the server and the prosecution by a joined process on the same store (as a
// terminal is), and plays both openings: it returns the game's id, the joined process's
// games and its game, the prosecution's floor in the interrogation.
func (r *courtRig) twoToInterrogation(ctx context.Context, t *testing.T) (string, *court.Games, *court.Game) {
	t.Helper()
	code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "seed": 7, "side": "defense", "two_players": true})
	if code != http.StatusCreated {
		t.Fatalf("POST games = %d %v", code, out)
	}
	id := out["game_id"].(string)
	gs := r.joinGames(t)
	for {
		g, err := gs.WaitFloor(ctx, id, court.SideProsecution, 5*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if v := g.View(); v.Phase == court.PhaseInterrogation {
			return id, gs, g
		}
		if err := g.SubmitFor(court.SideProsecution, court.Move{Kind: court.MoveSpeak, Text: "The people open."}); err != nil {
			t.Fatal(err)
		}
		if err := g.Advance(ctx); err != nil {
			t.Fatal(err)
		}
		v := r.waitFloorOf(id, court.SideDefense)
		if v.Phase != court.PhaseIntroduction {
			t.Fatalf("the defense's floor after the openings is in the %s", v.Phase)
		}
		if code, out := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "The defense opens."}); code != http.StatusAccepted {
			t.Fatalf("the defense's opening = %d %v", code, out)
		}
	}
}

// Two people take turns on one game from two processes on one store: the defense in
// the browser (the server's API and its event stream), the prosecution in a terminal
// that joined with the invitation link (court.Terminal and Games.WaitFloor, as court
// play --join runs them). The server follows the terminal's moves, so each person gets
// the floor in turn to the verdict; the page's stream and the terminal show every turn
// of the trial; the stand-in is asked once per model call, whichever process the court
// spoke in (no turn is advanced twice); and the stored transcript is one trial with
// each person's moves in the order they made them.
func TestCourtTwoPlayersJoinedFromATerminal(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	r.saveLantern()
	code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "seed": 7, "side": "defense", "two_players": true})
	if code != http.StatusCreated {
		t.Fatalf("POST games = %d %v", code, out)
	}
	id := out["game_id"].(string)
	link := r.base + out["invite_url"].(string)
	stream := r.events(id, "")
	ends := map[int]string{}
	streamed := make(chan error, 1)
	go func() {
		for {
			ev, err := stream.next()
			if err != nil {
				streamed <- err
				return
			}
			switch ev.name {
			case "end":
				var e struct {
					Index int        `json:"index"`
					Turn  court.Turn `json:"turn"`
				}
				json.Unmarshal([]byte(ev.data), &e)
				ends[e.Index] = e.Turn.Text
			case "verdict":
				streamed <- nil
				return
			}
		}
	}()

	// The terminal: the prosecution, by the link, on its own Store of the same file.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	gs := r.joinGames(t)
	jid, side, err := JoinSide(ctx, gs.Session.Store, link)
	if err != nil || jid != id || side != court.SideProsecution {
		t.Fatalf("JoinSide(%s) = %s, %s, %v; want %s, prosecution", link, jid, side, err, id)
	}
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("The people's point %d.", i+1))
	}
	var screen bytes.Buffer
	played := make(chan error, 1)
	go func() {
		g, err := gs.Load(ctx, id)
		if err != nil {
			played <- err
			return
		}
		term := court.Terminal{In: strings.NewReader(strings.Join(lines, "\n") + "\n"), Out: &screen, Width: 1 << 20, Side: side,
			Wait: func(ctx context.Context) (*court.Game, error) {
				return gs.WaitFloor(ctx, id, side, 10*time.Millisecond)
			}}
		played <- term.Play(ctx, g)
	}()

	// The browser: the defense, by the creator's cookie, moving at each of its floors.
	var defense []string
	questions := 0
	deadline := time.Now().Add(30 * time.Second)
	for {
		v := r.view(id)
		if v.Outcome != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the defense never got the floor back (the server does not follow the terminal?): %+v", v.Standing)
		}
		if v.Busy || !v.AwaitingPlayer || v.Floor != court.SideDefense {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		path, text := "/defense", ""
		switch {
		case v.Phase == court.PhaseIntroduction:
			text = "The defense will show she never left the pier office."
		case v.Phase == court.PhaseInterrogation && questions < 3:
			questions++
			text = fmt.Sprintf("Witness, question %d: where were you at eleven?", questions)
		case v.Phase == court.PhaseInterrogation:
			path = "/rest"
		default:
			text = "Nobody saw her face."
		}
		var body any
		if text != "" {
			body = map[string]any{"text": text}
			defense = append(defense, text)
		}
		if code, out := r.do("POST", "/api/court/games/"+id+path, body); code != http.StatusAccepted {
			t.Fatalf("POST %s at the defense's floor = %d %v", path, code, out)
		}
	}
	if err := <-played; err != nil {
		t.Fatalf("the terminal: %v\n%s", err, screen.String())
	}
	select {
	case err := <-streamed:
		if err != nil {
			t.Fatalf("the page's stream ended before the verdict: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the page's stream never sent the verdict")
	}

	tx := r.transcript(id)
	if !tx.Completed || tx.Outcome == nil {
		t.Fatalf("transcript completed %v outcome %v", tx.Completed, tx.Outcome)
	}
	var said = map[check.Role][]string{}
	for i, tu := range tx.Turns {
		if i > 0 && tx.Turns[i-1].Speaker == tu.Speaker && tu.Phase != court.PhaseClosing && tu.Phase != court.PhaseVerdict {
			t.Errorf("turn %d: %s speaks twice in a row", i, tu.Speaker)
		}
		if tu.Player {
			said[tu.Role] = append(said[tu.Role], tu.Text)
		}
		if got, ok := ends[i]; !ok || got != tu.Text {
			t.Errorf("turn %d (%s): the page's stream showed %q; stored %q", i, tu.Speaker, got, tu.Text)
		}
		if !strings.Contains(strings.Join(strings.Fields(screen.String()), " "), strings.Join(strings.Fields(court.Clean(tu.Text)), " ")) {
			t.Errorf("turn %d (%s): the terminal did not show %q", i, tu.Speaker, tu.Text)
		}
	}
	if strings.Join(said[check.RoleDefense], "|") != strings.Join(defense, "|") {
		t.Errorf("the defense's turns %q; the browser moved %q", said[check.RoleDefense], defense)
	}
	pros := said[check.RoleProsecutor]
	if len(pros) < 3 || strings.Join(pros, "|") != strings.Join(lines[:len(pros)], "|") {
		t.Errorf("the prosecution's turns %q; want the terminal's lines in order, at least 3", pros)
	}
	results := 0
	rec, err := r.st.CourtGame(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	r.st.Results(context.Background(), rec.Run, false, func(*store.Result) error { results++; return nil })
	t.Logf("%d turns, %d streamed; the defense moved %d times, the prosecution %d; %d model calls", len(tx.Turns), len(ends), len(defense), len(pros), results)
	if asked := r.asked.Load(); asked != int64(results) {
		t.Errorf("the stand-in was asked %d times for the game's %d calls: a turn was advanced twice", asked, results)
	}
}

// transcript is GET of the game's transcript with the creator's cookie.
func (r *courtRig) transcript(id string) court.Transcript {
	r.t.Helper()
	res, err := r.client.Get(r.base + "/api/court/games/" + id + "/transcript")
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	var tx court.Transcript
	if err := json.NewDecoder(res.Body).Decode(&tx); err != nil {
		r.t.Fatal(err)
	}
	return tx
}

// A server that loads a game of two while the terminal's court answers the terminal's
// move (a restart of the server, mid-turn in the store) follows that court instead of
// letting the same turn be spoken twice, and shows its answer once it is saved.
func TestCourtTwoPlayersServerLoadsMidTurnElsewhere(t *testing.T) {
	var holding atomic.Bool
	var held atomic.Int64
	release := make(chan struct{})
	opt := rigOptions{respond: func(req *llmtest.Request) (llmtest.Response, bool) {
		if req.Model == "judge" && holding.Load() {
			held.Add(1)
			<-release
		}
		return llmtest.Response{}, false
	}}
	r := newCourtRig(t, opt)
	t.Cleanup(func() {
		if holding.CompareAndSwap(true, false) {
			close(release)
		}
	})
	r.saveLantern()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	id, gs, g := r.twoToInterrogation(ctx, t)
	r.stop()
	// The terminal asks the Judge, whose answer is held: its court is mid-turn.
	holding.Store(true)
	if err := g.SubmitFor(court.SideProsecution, court.Move{Kind: court.MoveSpeak, Text: "Your Honour, a point of order.", To: court.Judge}); err != nil {
		t.Fatal(err)
	}
	advanced := make(chan error, 1)
	go func() { advanced <- g.Advance(ctx) }()
	for held.Load() == 0 {
		if ctx.Err() != nil {
			t.Fatal("the Judge was never asked")
		}
		time.Sleep(time.Millisecond)
	}
	r.start(opt)
	if v := r.view(id); v.AwaitingPlayer {
		t.Fatalf("the server offers the %s's floor while the terminal's court speaks", v.Floor)
	}
	// A server that let the court speak would ask the Judge too (or, the store's claim
	// on the call being the terminal's, fail the turn).
	for range 50 {
		if held.Load() > 1 {
			t.Fatal("the server asked the Judge for the turn the terminal's court is speaking")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if v := r.view(id); v.Busy || v.Error != "" {
		t.Fatalf("the server lets the court speak over the terminal's: busy %v, error %q", v.Busy, v.Error)
	}
	holding.Store(false)
	close(release)
	if err := <-advanced; err != nil {
		t.Fatal(err)
	}
	want := g.View()
	got := r.view(id)
	for deadline := time.Now().Add(10 * time.Second); len(got.Turns) < len(want.Turns) && time.Now().Before(deadline); got = r.view(id) {
		time.Sleep(10 * time.Millisecond)
	}
	if len(got.Turns) != len(want.Turns) || got.Turns[len(got.Turns)-1].Text != want.Turns[len(want.Turns)-1].Text {
		t.Fatalf("the server shows %d turns; the terminal's court spoke %d", len(got.Turns), len(want.Turns))
	}
	results := 0
	rec, err := gs.Session.Store.CourtGame(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	gs.Session.Store.Results(ctx, rec.Run, false, func(*store.Result) error { results++; return nil })
	if asked := r.asked.Load(); asked != int64(results) {
		t.Errorf("the stand-in was asked %d times for the game's %d calls", asked, results)
	}
}

// waitFloorOf waits until side has the floor (or the verdict), and returns the view.
func (r *courtRig) waitFloorOf(id string, side court.Side) court.GameView {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		v := r.view(id)
		if (!v.Busy && v.AwaitingPlayer && v.Floor == side) || v.Outcome != nil {
			return v
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the %s never got the floor: %+v", side, v.Standing)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
