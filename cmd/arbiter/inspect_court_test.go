package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/court"
)

// TestInspectCourtAndCheckLogs simulates trials with --inspect and judges their
// transcripts with --format inspect: both logs validate against Inspect's EvalLog
// schema, every trial is one sample of each, and the metrics are the runs' numbers.
func TestInspectCourtAndCheckLogs(t *testing.T) {
	s := newCourtStandIn(t, 0)
	dir := t.TempDir()
	db, out, courtLogs := filepath.Join(dir, "court.db"), filepath.Join(dir, "trials"), filepath.Join(dir, "court-logs")
	r := arbiter(t, s.env(), append(simulateArgs(db, out), "--inspect", courtLogs)...)
	if r.code != 0 {
		t.Fatalf("court simulate = %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	trials := readTrials(t, out)
	wins := 0
	for _, tr := range trials {
		if tr.Outcome != nil && *tr.Outcome == court.OutcomeWin {
			wins++
		}
	}
	for _, l := range readInspectLogs(t, courtLogs) {
		if l.Eval.Task != "llm-court" || len(l.Samples) != len(trials) {
			t.Fatalf("court log: task %s, %d samples; want llm-court and %d trials", l.Eval.Task, len(l.Samples), len(trials))
		}
		seen := map[string]bool{}
		for _, smp := range l.Samples {
			if _, ok := trials[smp.ID]; !ok || seen[smp.ID] {
				t.Errorf("sample %s: not a trial, or twice", smp.ID)
			}
			seen[smp.ID] = true
		}
		m := l.Results.Scores[0].Metrics
		if m["win_rate"].Value != float64(wins)/float64(len(trials)) || m["retry_rate"].Value != 0 {
			t.Errorf("court metrics %v; want win_rate %d/%d and retry_rate 0", m, wins, len(trials))
		}
	}

	checkLogs := filepath.Join(dir, "check-logs")
	judge := []string{"check", "judge", "-q", "--transcripts", out, "--judge", "openai/judge-standin", "--db", filepath.Join(dir, "check.db")}
	j := arbiter(t, s.env(), append(judge, "--format", "json")...)
	if j.code != 0 {
		t.Fatalf("check judge = %d\n%s", j.code, j.stderr)
	}
	var scores struct {
		QS          float64            `json:"qs"`
		ByDimension map[string]float64 `json:"by_dimension"`
		RetryRate   int                `json:"retry_rate"`
	}
	if err := json.Unmarshal([]byte(j.stdout), &scores); err != nil {
		t.Fatal(err)
	}
	if j := arbiter(t, s.env(), append(judge, "--format", "inspect", "--out", checkLogs)...); j.code != 0 {
		t.Fatalf("check judge --format inspect = %d\n%s", j.code, j.stderr)
	}
	logs := readInspectLogs(t, checkLogs)
	if len(logs) != 1 {
		t.Fatalf("%d check logs; want 1", len(logs))
	}
	for _, l := range logs {
		if l.Eval.Task != "rpa-check" || len(l.Samples) != len(trials) {
			t.Fatalf("check log: task %s, %d samples; want rpa-check and %d transcripts", l.Eval.Task, len(l.Samples), len(trials))
		}
		for _, smp := range l.Samples {
			if _, ok := trials[smp.ID]; !ok {
				t.Errorf("sample %s is not a transcript", smp.ID)
			}
		}
		got := map[string]float64{}
		for _, sc := range l.Results.Scores {
			for name, m := range sc.Metrics {
				got[sc.Name+"/"+name] = m.Value
			}
		}
		if got["qs/qs"] != scores.QS || got["retries/retry_rate"] != float64(scores.RetryRate) {
			t.Errorf("check metrics %v; want qs %v and retry_rate %d as the report", got, scores.QS, scores.RetryRate)
		}
		for dim, v := range scores.ByDimension {
			if got[dim+"/qs"] != v {
				t.Errorf("%s: qs %v in the log; the report says %v", dim, got[dim+"/qs"], v)
			}
		}
	}
	if _, err := os.Stat(checkLogs); err != nil {
		t.Fatal(err)
	}
}
