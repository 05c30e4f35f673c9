package check

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

var criterionLine = regexp.MustCompile(`(?m)^(?:Criterion|Dimension): ([^.]+)\.`)

// criterionOf is the criterion a generator request is about: the sub-dimension when
// there is one, else the dimension.
func criterionOf(req *llmtest.Request) string {
	ms := criterionLine.FindAllStringSubmatch(req.Messages[0].Text, -1)
	if len(ms) == 0 {
		return ""
	}
	return ms[len(ms)-1][1]
}

func generated(criterion, strategy string, n int) string {
	type q struct {
		Text string `json:"text"`
		Seed int    `json:"seed"`
	}
	var qs []q
	for i := range n {
		qs = append(qs, q{fmt.Sprintf("Does %s show sign %d of %s?", strings.ToLower(criterion), i+1, strategy), 1})
	}
	b, _ := json.Marshal(map[string]any{"questions": qs})
	return string(b)
}

func TestAugment(t *testing.T) {
	var seen bodies
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
		seen.add(req)
		crit := criterionOf(req)
		strategy := Diversification
		if strings.Contains(req.Messages[0].Text, "Elaborate:") {
			strategy = Elaboration
		}
		round := len(req.Messages) / 2 // 0 first ask, 1 after one repair, …
		switch {
		case crit == "Role Adherence" && strategy == Elaboration && round == 0:
			return llmtest.Response{Text: "Sure! Here are some questions:\n1. Does the judge stay calm?"}
		case crit == "Argumentative Depth" && strategy == Diversification && round == 0:
			return llmtest.Response{Text: "```json\n" + generated(crit, strategy, 3) + "\n```"}
		case crit == "Linguistic Formalism and Orthography" && strategy == Elaboration:
			return llmtest.Response{Text: `{"questions": [{"text": "Is the grammar good", "seed": 9}]}`}
		}
		return llmtest.Response{Text: generated(crit, strategy, 6)}
	})
	st := openStore(t, "")
	ctx := context.Background()
	dims := DefaultDimensions()
	res, err := Augment(ctx, execFor(t, srv, st, "openai/gen"), dims, AugmentOptions{Generator: "openai/gen"})
	if err != nil {
		t.Fatalf("Augment: %v", err)
	}
	// 6 criteria × 2 strategies, + 1 repair for each of two, + 2 repairs for the broken one.
	if n := srv.Requests(); n != 16 {
		t.Errorf("stand-in saw %d requests; want 16", n)
	}
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Error(), "Linguistic Formalism and Orthography (elaboration)") ||
		!strings.Contains(res.Problems[0].Msg, "after 3 asks") {
		t.Errorf("problems = %v; want the LFO elaboration reported after 3 asks", res.Problems)
	}
	for _, want := range []string{"it has 3 questions; give between 5 and 10", "no JSON object in the reply",
		"does not end with a question mark", "names seed 9; there are seeds 1 to 2"} {
		if !seen.any(want) {
			t.Errorf("no repair request said %q", want)
		}
	}
	count := map[string]int{}
	for _, d := range res.Pool.Dims {
		for _, s := range d.Subs {
			for _, q := range s.Questions {
				count[criterionLabel(&d, &s)+"/"+q.Origin]++
			}
		}
	}
	for key, want := range map[string]int{
		"Behavioral Role Fidelity / Role Adherence/seed":                 3,
		"Behavioral Role Fidelity / Role Adherence/elaboration":          6,
		"Behavioral Role Fidelity / Argumentative Depth/diversification": 6,
		"Linguistic Formalism and Orthography/diversification":           6,
		"Linguistic Formalism and Orthography/elaboration":               0,
		"Linguistic Formalism and Orthography/seed":                      2,
	} {
		if count[key] != want {
			t.Errorf("%s: %d questions; want %d", key, count[key], want)
		}
	}
	// The pool is a checklist file that parses back to the same content.
	back, err := ParseChecklist(res.Pool.Marshal(), "pool.yaml")
	if err != nil || back.Hash != res.Pool.Hash {
		t.Fatalf("pool does not round-trip: %v", err)
	}

	before := srv.Requests()
	again, err := Augment(ctx, execFor(t, srv, st, "openai/gen"), dims, AugmentOptions{Generator: "openai/gen"})
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Requests() - before; n != 0 || again.Pool.Hash != res.Pool.Hash || len(again.Problems) != 1 {
		t.Errorf("rerun: %d new requests, same pool %v, %d problems; want 0, true, 1", n, again.Pool.Hash == res.Pool.Hash, len(again.Problems))
	}
}

func TestPrepass(t *testing.T) {
	pool := &Checklist{Dims: []Dimension{
		{Name: "A", Short: "A", Subs: []SubDimension{{Questions: []Question{
			{ID: "A-1", Text: "Does the judge stay neutral until the verdict?"},
			{ID: "A-2", Text: "does the JUDGE stay neutral, until the verdict"},
			{ID: "A-3", Text: "Does the judge remain neutral until the verdict is given?"},
			{ID: "A-4", Text: "Does the prosecutor cite specific evidence?"},
		}}}},
		{Name: "B", Short: "B", Subs: []SubDimension{{Questions: []Question{
			{ID: "B-1", Text: "Does the prosecutor cite specific pieces of evidence?"},
			{ID: "B-2", Text: "Is the verdict clear?"},
		}}}},
	}}
	tests := []struct {
		threshold float64
		removed   map[QuestionID]string
	}{
		{0.7, map[QuestionID]string{"A-2": "duplicate of A-1", "B-1": "near duplicate of A-4 (word overlap 0.80)"}},
		{0.5, map[QuestionID]string{"A-2": "duplicate of A-1", "A-3": "near duplicate of A-1 (word overlap 0.57)", "B-1": "near duplicate of A-4 (word overlap 0.80)"}},
		{1, map[QuestionID]string{"A-2": "duplicate of A-1"}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.threshold), func(t *testing.T) {
			kept, removed := Prepass(pool, tc.threshold)
			got := map[QuestionID]string{}
			for _, r := range removed {
				got[r.ID] = r.Reason
				if r.By != "prepass" {
					t.Errorf("%s removed by %q", r.ID, r.By)
				}
			}
			if a, b := jsonOf(t, got), jsonOf(t, tc.removed); a != b {
				t.Errorf("Prepass(%v) removed %s; want %s", tc.threshold, a, b)
			}
			if n := len(kept.Items()); n != 6-len(tc.removed) {
				t.Errorf("kept %d questions; want %d", n, 6-len(tc.removed))
			}
			if len(pool.Dims[0].Subs[0].Questions) != 4 {
				t.Error("Prepass modified its input")
			}
		})
	}
}

var idLine = regexp.MustCompile(`(?m)^- ([A-Za-z0-9._-]+): (.*)$`)

func TestFilter(t *testing.T) {
	pool, err := ParseChecklist(DefaultChecklist().Marshal(), "pool.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rf := &pool.Dims[0].Subs[0]
	rf.Questions = append(rf.Questions,
		Question{ID: "BRF-RA-90", Text: "Does the judge refrain from giving an opinion on the guilt of the accused before the verdict?"},
		Question{ID: "BRF-RA-91", Text: "Does the defense attorney speak clearly?"})
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
		var ids []string
		for _, m := range idLine.FindAllStringSubmatch(req.Messages[0].Text, -1) {
			ids = append(ids, m[1])
		}
		round := len(req.Messages) / 2
		dim := req.Messages[0].Text
		switch {
		case strings.Contains(dim, "# Dimension under review\nLinguistic"):
			return llmtest.Response{Text: "I would keep them all."}
		case strings.Contains(dim, "# Dimension under review\nBehavioral") && round == 0:
			b, _ := json.Marshal(map[string]any{"kept": ids[:3], "removed": []any{}})
			return llmtest.Response{Text: string(b)}
		}
		var kept []string
		var removed []map[string]string
		for _, id := range ids {
			if id == "BRF-RA-91" {
				removed = append(removed, map[string]string{"id": id, "reason": "isolation: about the player"})
				continue
			}
			kept = append(kept, id)
		}
		b, _ := json.Marshal(map[string]any{"kept": kept, "removed": removed})
		return llmtest.Response{Text: string(b)}
	})
	st := openStore(t, "")
	ctx := context.Background()
	opt := FilterOptions{Model: "openai/filter", Name: "court-test"}
	res, err := Filter(ctx, execFor(t, srv, st, "openai/filter"), pool, opt)
	if err != nil {
		t.Fatalf("Filter: %v", err)
	}
	cl := res.Checklist
	if res.Prepass != 1 || res.ByModel != 1 {
		t.Errorf("removed %d by the pre-pass and %d by the model; want 1 and 1", res.Prepass, res.ByModel)
	}
	why := map[QuestionID]Removed{}
	for _, r := range cl.Removed {
		why[r.ID] = r
	}
	if r := why["BRF-RA-90"]; r.By != "prepass" || r.Reason != "duplicate of BRF-RA-01" {
		t.Errorf("BRF-RA-90 removal = %+v", r)
	}
	if r := why["BRF-RA-91"]; r.By != "openai/filter" || !strings.Contains(r.Reason, "isolation") {
		t.Errorf("BRF-RA-91 removal = %+v", r)
	}
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Error(), "filter: Linguistic Formalism and Orthography") ||
		!strings.Contains(res.Problems[0].Msg, "kept unfiltered") {
		t.Errorf("problems = %v; want LFO reported and kept", res.Problems)
	}
	if n := len(cl.Items()); n != 38 {
		t.Errorf("checklist has %d questions; want the 38 originals", n)
	}
	if cl.Hash != DefaultChecklist().Hash {
		t.Errorf("hash %s; want the bundled checklist's %s (same questions)", cl.Hash, DefaultChecklist().Hash)
	}
	// 3 dimensions + 1 repair of BRF + 2 repairs of LFO.
	if n := srv.Requests(); n != 6 {
		t.Errorf("stand-in saw %d requests; want 6", n)
	}
	back, err := ParseChecklist(cl.Marshal(), "out.yaml")
	if err != nil || back.Hash != cl.Hash || len(back.Removed) != 2 || back.Name != "court-test" {
		t.Errorf("written checklist does not parse back the same: %v", err)
	}
	before := srv.Requests()
	if _, err := Filter(ctx, execFor(t, srv, st, "openai/filter"), pool, opt); err != nil {
		t.Fatal(err)
	}
	if n := srv.Requests() - before; n != 0 {
		t.Errorf("rerun sent %d requests; want 0", n)
	}
}
