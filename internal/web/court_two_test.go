package web

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/court"
)

// Two people play one trial through the API on --public, one as the defense (the
// creator) and one as the prosecution (the invitation): at every floor the side
// without it is refused with 409, the floor's side played with the other's token or
// the spectator's or none is 403, only the floor's own token moves it, and both
// people's turns are marked as the player's in the transcript.
func TestCourtTwoPlayers(t *testing.T) {
	r := newCourtRig(t, rigOptions{public: true, owner: "owner-secret"})
	lantern, _ := os.ReadFile("testdata/lantern.json")
	if code, out := r.do("POST", "/api/court/cases?token=owner-secret", map[string]any{"case": json.RawMessage(lantern)}); code != http.StatusCreated {
		t.Fatalf("save case = %d %v", code, out)
	}
	code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "seed": 7, "side": "defense", "two_players": true})
	if code != http.StatusCreated {
		t.Fatalf("POST games = %d %v", code, out)
	}
	id := out["game_id"].(string)
	tok := map[court.Side]string{court.SideDefense: out["token"].(string), court.SideProsecution: out["invite_token"].(string)}
	watch := out["watch_token"].(string)
	if out["invite_side"] != "prosecution" || out["invite_url"] != "/court/games/"+id+"?token="+tok[court.SideProsecution] {
		t.Errorf("invitation %v", out)
	}
	path := func(s court.Side) string { return "/api/court/games/" + id + "/" + string(s) }
	moves := map[court.Side]int{}
	for range 40 {
		v := r.waitPlayer(id)
		if v.Outcome != nil {
			break
		}
		if !v.TwoPlayers || v.Side != court.SideDefense || (v.Floor != court.SideDefense && v.Floor != court.SideProsecution) {
			t.Fatalf("view %+v", v)
		}
		f, o := v.Floor, v.Floor.Other()
		if code := r.doAs(tok[o], "POST", path(o), map[string]any{"text": "Out of turn."}); code != http.StatusConflict {
			t.Errorf("the %s moving on the %s's floor = %d; want 409", o, f, code)
		}
		for _, who := range []string{tok[o], watch, ""} {
			if code := r.doAs(who, "POST", path(f), map[string]any{"text": "Not mine."}); code != http.StatusForbidden {
				t.Errorf("a move for the %s with token %q = %d; want 403", f, who, code)
			}
		}
		if code := r.doAs(watch, "POST", "/api/court/games/"+id+"/rest", nil); code != http.StatusForbidden {
			t.Errorf("the spectator resting = %d; want 403", code)
		}
		body := map[string]any{"text": "The " + string(f) + " speaks, move " + string(rune('a'+moves[f])) + "."}
		if moves[f] == 3 && v.Phase == court.PhaseInterrogation {
			body = nil
			if code := r.doAs(tok[f], "POST", "/api/court/games/"+id+"/rest", nil); code != http.StatusAccepted {
				t.Fatalf("the %s rests = %d", f, code)
			}
		} else if code := r.doAs(tok[f], "POST", path(f), body); code != http.StatusAccepted {
			t.Fatalf("the %s's move on its floor = %d", f, code)
		}
		moves[f]++
	}
	v := r.view(id)
	if v.Outcome == nil {
		t.Fatalf("no verdict: %+v", v)
	}
	if moves[court.SideDefense] == 0 || moves[court.SideProsecution] == 0 {
		t.Fatalf("moves %v: both people should have played", moves)
	}
	res, err := r.client.Get(r.base + "/api/court/games/" + id + "/transcript")
	if err != nil {
		t.Fatal(err)
	}
	var tx court.Transcript
	err = json.NewDecoder(res.Body).Decode(&tx)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	marked := map[check.Role]int{}
	t.Logf("moves %v, outcome %s, %d turns", moves, *v.Outcome, len(tx.Turns))
	for _, tu := range tx.Turns {
		counsel := tu.Role == check.RoleDefense || tu.Role == check.RoleProsecutor
		if tu.Player != counsel {
			t.Errorf("turn %+v: both counsels' turns, and only theirs, are the player's", tu)
		}
		if tu.Player {
			marked[tu.Role]++
		}
	}
	if marked[check.RoleDefense] != moves[court.SideDefense] || marked[check.RoleProsecutor] != moves[court.SideProsecution] {
		t.Errorf("marked turns %v; moves %v", marked, moves)
	}
}
