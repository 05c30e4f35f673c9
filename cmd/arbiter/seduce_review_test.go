package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSeduceReviewCLI drives a whole review through the commands of cli.md ("Curation"),
// as a script would: new, assignments, decide (and its refusals), agreement, export, and
// the export is a dataset that seduce validate accepts.
func TestSeduceReviewCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "review.db")
	data := smallDataset(t, 12)
	r := arbiter(t, nil, "seduce", "review", "new", "--dataset", data, "--reviewers", "ann,bob,cy", "--seed", "5", "--db", db)
	project := strings.TrimSpace(r.stdout)
	if r.code != 0 || project == "" || strings.Contains(project, "\n") {
		t.Fatalf("review new: exit %d, stdout %q: want a project id alone (%s)", r.code, r.stdout, r.stderr)
	}
	queue := func(who string) []string {
		t.Helper()
		r := arbiter(t, nil, "seduce", "review", "assignments", "--project", project, "--reviewer", who, "--format", "json", "--db", db)
		var out struct {
			Samples []string `json:"samples"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.Samples == nil {
			t.Fatalf("review assignments %s: exit %d, %q (%s)", who, r.code, r.stdout, r.stderr)
		}
		return out.Samples
	}
	queues := map[string][]string{}
	total := 0
	for _, who := range []string{"ann", "bob", "cy"} {
		queues[who] = queue(who)
		total += len(queues[who])
	}
	if total != 2*12+2 { // two each and a third on ceil(1.2) = 2
		t.Fatalf("assignments add up to %d; want %d", total, 2*12+2)
	}
	decide := func(who, sample, decision string, extra ...string) result {
		args := append([]string{"seduce", "review", "decide", "--project", project, "--reviewer", who, "--sample", sample, "--decision", decision, "--db", db}, extra...)
		return arbiter(t, nil, args...)
	}
	// Not assigned: exit 2.
	var stranger, sample string
	for _, s := range queues["ann"] {
		if !slices.Contains(queues["bob"], s) {
			sample = s
			for _, who := range []string{"bob", "cy"} {
				if !slices.Contains(queues[who], s) {
					stranger = who
				}
			}
			break
		}
	}
	if r := decide(stranger, sample, "approve"); r.code != 2 || !strings.Contains(r.stderr, "not assigned") {
		t.Errorf("decide on a sample not assigned: exit %d, %q; want 2 and why", r.code, r.stderr)
	}
	if r := decide("ann", sample, "maybe"); r.code != 2 {
		t.Errorf("decide --decision maybe: exit %d; want 2", r.code)
	}
	// Everyone approves everything, but ann corrects one sample's statement and bob agrees.
	var fixed string
	for _, s := range queues["ann"] {
		if slices.Contains(queues["bob"], s) && !slices.Contains(queues["cy"], s) {
			fixed = s
			break
		}
	}
	for who, q := range queues {
		for _, s := range q {
			var r result
			if s == fixed && who != "cy" {
				r = decide(who, s, "correct", "--set", "statement=I vault the wall in one smooth go.", "--note", "clearer")
			} else {
				r = decide(who, s, "approve")
			}
			if r.code != 0 {
				t.Fatalf("decide %s %s: exit %d: %s", who, s, r.code, r.stderr)
			}
		}
	}
	if q := queue("ann"); len(q) != 0 {
		t.Errorf("ann still has %v to decide", q)
	}
	r = arbiter(t, nil, "seduce", "review", "agreement", "--project", project, "--format", "json", "--db", db)
	var ag map[string]any
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &ag) != nil {
		t.Fatalf("review agreement: exit %d, %q (%s)", r.code, r.stdout, r.stderr)
	}
	for _, k := range []string{"samples", "decided", "double_reviewed", "third_reviewed", "raw_agreement", "kappa", "disagreements"} {
		if _, ok := ag[k]; !ok {
			t.Errorf("agreement lacks %q: %s", k, r.stdout)
		}
	}
	if ag["samples"] != 12.0 || ag["double_reviewed"] != 12.0 || ag["third_reviewed"] != 2.0 || ag["raw_agreement"] != 1.0 {
		t.Errorf("agreement = %s; want 12 samples, 12 double, 2 third, raw agreement 1", r.stdout)
	}
	out := filepath.Join(dir, "curated.jsonl")
	if r := arbiter(t, nil, "seduce", "review", "export", "--project", project, "--out", out, "--db", db); r.code != 0 {
		t.Fatalf("review export: exit %d: %s", r.code, r.stderr)
	}
	if r := arbiter(t, nil, "seduce", "validate", "--dataset", out); r.code != 0 {
		t.Fatalf("seduce validate on the export: exit %d: %s", r.code, r.stderr)
	}
	body, _ := os.ReadFile(out)
	var found bool
	for line := range strings.SplitSeq(strings.TrimSpace(string(body)), "\n") {
		var s map[string]any
		json.Unmarshal([]byte(line), &s)
		if s["review_status"] != "approved" && s["review_status"] != "corrected" || s["reviewed_by"] == "" {
			t.Errorf("exported line without review fields: %s", line)
		}
		if s["id"] == fixed {
			found = s["statement"] == "I vault the wall in one smooth go." && s["review_status"] == "corrected"
		}
	}
	if !found {
		t.Errorf("the export does not carry the correction of %s:\n%s", fixed, body)
	}
	trail, err := os.ReadFile(filepath.Join(dir, "curated.audit.jsonl"))
	if err != nil || strings.Count(string(trail), "\n") != total {
		t.Errorf("audit trail: %v, %d lines; want %d", err, strings.Count(string(trail), "\n"), total)
	}
	if r := arbiter(t, nil, "seduce", "review", "agreement", "--project", "rv-nope", "--db", db); r.code != 2 {
		t.Errorf("agreement of an unknown project: exit %d; want 2", r.code)
	}
	if r := arbiter(t, nil, "seduce", "review", "new", "--reviewers", "ann,bob", "--db", db); r.code != 2 {
		t.Errorf("new with two reviewers: exit %d; want 2", r.code)
	}
}
