package store

import (
	"context"
	"strings"
	"testing"
	"time"
)

func states(cs []Claim) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.Key + "=" + [...]string{"claimed", "held", "finished"}[c.State] + " ")
	}
	return strings.TrimSpace(b.String())
}

func TestClaims(t *testing.T) { eachStore(t, testClaims) }

func testClaims(t *testing.T, fresh func(*testing.T) string) {
	ctx := context.Background()
	s := open(t, fresh(t))
	run := RunID("seduce-c")
	if _, err := s.BeginRun(ctx, Run{ID: run, Kind: "seduce", Config: []byte(`{}`), Version: "t"}); err != nil {
		t.Fatal(err)
	}
	// A failure recorded by an earlier run is asked again; one recorded after B began
	// (by A, in this run) is not.
	if err := s.PutResults(ctx, []*Result{{RunID: run, JobKey: "old-failure", Model: "a/b", Item: "i", RequestHash: "h", Err: "HTTP 500"}}, nil); err != nil {
		t.Fatal(err)
	}
	since := time.Now()
	a, b := Holder("host:1:aaaa"), Holder("host:2:bbbb")

	got, err := s.Claim(ctx, run, a, []string{"k1", "k2", "dead"}, since, time.Minute)
	if err != nil || states(got) != "k1=claimed k2=claimed dead=claimed" {
		t.Fatalf("A claims = %s, %v; want all claimed", states(got), err)
	}
	// A claims again (a renewal by claim): still its own.
	if got, err := s.Claim(ctx, run, a, []string{"k1"}, since, time.Minute); err != nil || got[0].State != Claimed {
		t.Fatalf("A claims k1 again = %s, %v", states(got), err)
	}
	// A holder that died: its lease on "dead" is already over (a negative ttl stands
	// for a lease that was not renewed).
	if _, err := s.Claim(ctx, run, "host:3:dead", []string{"dead2"}, since, -time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE claims SET expires_at = ? WHERE job_key = 'dead'`, time.Now().Add(-time.Second).UnixMilli()); err != nil {
		t.Fatal(err)
	}
	got, err = s.Claim(ctx, run, b, []string{"k1", "k2", "k3", "dead", "dead2", "old-failure"}, since, time.Minute)
	if err != nil || states(got) != "k1=held k2=held k3=claimed dead=claimed dead2=claimed old-failure=claimed" {
		t.Fatalf("B claims = %s, %v", states(got), err)
	}
	if got[0].Holder != a || !got[0].Expires.After(time.Now()) {
		t.Errorf("held k1: holder %q until %v; want A, in the future", got[0].Holder, got[0].Expires)
	}
	// A writes k1's answer and k2's failure and releases them: both are finished for B,
	// the failure because it was written in B's run.
	if err := s.PutResults(ctx, []*Result{
		{RunID: run, JobKey: "k1", Model: "a/b", Item: "1", RequestHash: "h"},
		{RunID: run, JobKey: "k2", Model: "a/b", Item: "2", RequestHash: "h", Err: "HTTP 500"},
	}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.ReleaseClaims(ctx, run, a, []string{"k1", "k2"}); err != nil {
		t.Fatal(err)
	}
	got, err = s.Claim(ctx, run, b, []string{"k1", "k2"}, since, time.Minute)
	if err != nil || states(got) != "k1=finished k2=finished" {
		t.Fatalf("B claims after A's results = %s, %v; want both finished", states(got), err)
	}
	// A later run (a later since) asks the failure again.
	got, err = s.Claim(ctx, run, a, []string{"k2"}, time.Now().Add(time.Second), time.Minute)
	if err != nil || got[0].State != Claimed {
		t.Fatalf("next run claims the failed k2 = %s, %v; want claimed", states(got), err)
	}

	// Renewal keeps B's leases alive; release of all frees them for A.
	if err := s.RenewClaims(ctx, run, b, time.Hour); err != nil {
		t.Fatal(err)
	}
	var until int64
	if err := s.db.QueryRowContext(ctx, `SELECT min(expires_at) FROM claims WHERE holder = ?`, string(b)).Scan(&until); err != nil ||
		time.UnixMilli(until).Before(time.Now().Add(50*time.Minute)) {
		t.Fatalf("after RenewClaims(1h) B's earliest lease ends %v, %v", time.UnixMilli(until), err)
	}
	if err := s.ReleaseClaims(ctx, run, b, nil); err != nil {
		t.Fatal(err)
	}
	got, err = s.Claim(ctx, run, a, []string{"k3", "dead"}, since, time.Minute)
	if err != nil || states(got) != "k3=claimed dead=claimed" {
		t.Fatalf("A claims after B released = %s, %v", states(got), err)
	}
}

func TestNewHolderIsUnique(t *testing.T) {
	a, b := NewHolder(), NewHolder()
	if a == b || strings.Count(string(a), ":") < 2 {
		t.Fatalf("NewHolder() = %q, %q; want two distinct host:pid:random names", a, b)
	}
}
