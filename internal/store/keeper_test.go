package store

import (
	"context"
	"errors"
	"testing"
)

// The Keeper game's records round-trip on both engines; the export's filter reads the
// consent as it stands now (a withdrawn consent hides earlier attempts, a pseudonym
// changed since names them); a place in a round is taken once; the board counts passes.
func TestKeeperRecords(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		s := open(t, fresh(t))
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(s.AddKeeperPlayer(ctx, KeeperPlayer{ID: "p1", TokenHash: "h1", Pseudonym: "Ada", Share: true}))
		must(s.AddKeeperPlayer(ctx, KeeperPlayer{ID: "p2", TokenHash: "h2", Pseudonym: "Bo"}))
		if err := s.AddKeeperPlayer(ctx, KeeperPlayer{ID: "p3", TokenHash: "h1", Pseudonym: "X"}); !errors.Is(err, ErrExists) {
			t.Errorf("AddKeeperPlayer(a token hash taken) = %v; want ErrExists", err)
		}
		p, err := s.KeeperPlayerByToken(ctx, "h1")
		if err != nil || p.ID != "p1" || p.Pseudonym != "Ada" || !p.Share {
			t.Fatalf("KeeperPlayerByToken(h1) = %+v, %v; want p1 Ada sharing", p, err)
		}
		if _, err := s.KeeperPlayerByToken(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("KeeperPlayerByToken(unknown) = %v; want ErrNotFound", err)
		}
		must(s.AddKeeperRound(ctx, KeeperRound{ID: "r1", PlayerID: "p1", Model: "m", Samples: []string{"a", "b"}}))
		must(s.AddKeeperRound(ctx, KeeperRound{ID: "r2", PlayerID: "p2", Model: "m", Samples: []string{"a"}}))
		r, err := s.KeeperRound(ctx, "r1")
		if err != nil || len(r.Samples) != 2 || r.Samples[1] != "b" || r.Model != "m" {
			t.Fatalf("KeeperRound(r1) = %+v, %v", r, err)
		}
		add := func(id, player, round string, pos int, style, ruling string) {
			t.Helper()
			must(s.AddKeeperAttempt(ctx, KeeperAttempt{ID: id, PlayerID: player, RoundID: round, Position: pos, Author: "was-" + player,
				SampleID: "s", ScenarioID: "sc", Statement: "st " + id, Style: style, Model: "m", Ruling: ruling}))
		}
		add("a1", "p1", "r1", 0, "Authority", "pass")
		add("a2", "p1", "r1", 1, "Neutral", "roll")
		add("a3", "p2", "r2", 0, "Authority", "roll")
		if err := s.AddKeeperAttempt(ctx, KeeperAttempt{ID: "a4", PlayerID: "p1", RoundID: "r1", Position: 1}); !errors.Is(err, ErrExists) {
			t.Errorf("AddKeeperAttempt(a place taken) = %v; want ErrExists", err)
		}
		shared, err := s.KeeperAttempts(ctx, KeeperFilter{SharedOnly: true})
		if err != nil || len(shared) != 2 || shared[0].ID != "a1" || shared[1].ID != "a2" || shared[0].Author != "Ada" {
			t.Fatalf("KeeperAttempts(shared) = %v, %v; want a1, a2 by Ada", shared, err)
		}
		round, err := s.KeeperAttempts(ctx, KeeperFilter{RoundID: "r2"})
		if err != nil || len(round) != 1 || round[0].Author != "was-p2" {
			t.Fatalf("KeeperAttempts(r2) = %v, %v; want a3 under its recorded author", round, err)
		}
		must(s.UpdateKeeperPlayer(ctx, "p1", "Ada L.", false))
		must(s.UpdateKeeperPlayer(ctx, "p2", "Bo", true))
		shared, err = s.KeeperAttempts(ctx, KeeperFilter{SharedOnly: true})
		if err != nil || len(shared) != 1 || shared[0].ID != "a3" || shared[0].Author != "Bo" {
			t.Fatalf("KeeperAttempts(shared) after p1 withdrew = %v, %v; want a3 alone", shared, err)
		}
		if err := s.UpdateKeeperPlayer(ctx, "nobody", "x", true); !errors.Is(err, ErrNotFound) {
			t.Errorf("UpdateKeeperPlayer(unknown) = %v; want ErrNotFound", err)
		}
		board, err := s.KeeperBoard(ctx)
		want := []KeeperTally{{"m", "Authority", 2, 1}, {"m", "Neutral", 1, 0}}
		if err != nil || len(board) != len(want) || board[0] != want[0] || board[1] != want[1] {
			t.Errorf("KeeperBoard() = %v, %v; want %v", board, err, want)
		}
	})
}
