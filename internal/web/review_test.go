package web

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/review"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

func (r *reviewRig) call(t *testing.T, c *http.Client, method, path string, body any) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, r.base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c == nil {
		c = http.DefaultClient
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// shared returns a sample ann and bob both review, and its slots.
func sharedSample(t *testing.T, p *review.Project) seduce.SampleID {
	t.Helper()
	for _, s := range p.Dataset.Samples {
		if sl := p.Slots(s.ID); slices.Contains(sl[:], "ann") && slices.Contains(sl[:], "bob") {
			return s.ID
		}
	}
	t.Fatal("ann and bob share no sample")
	return ""
}

func TestReviewQueueIsBlindAndDecisionsApplyOnce(t *testing.T) {
	rig := newReviewRig(t, false)
	p, err := review.Open(context.Background(), rig.st, rig.project, nil)
	if err != nil {
		t.Fatal(err)
	}
	x := sharedSample(t, p)
	dec := map[string]any{"reviewer": "ann", "sample": string(x), "decision": "reject", "note": "ANN-SECRET-NOTE"}
	for i, want := range []string{`"changed":true`, `"changed":false`} {
		code, body := rig.call(t, nil, "POST", "/api/review/"+rig.project+"/decide", dec)
		if code != 200 || !strings.Contains(body, want) || !strings.Contains(body, `"decided":1`) {
			t.Errorf("decide #%d = %d %s; want 200, %s, one decided", i+1, code, body, want)
		}
	}
	code, body := rig.call(t, nil, "GET", "/api/review/"+rig.project+"/queue?reviewer=bob", nil)
	if code != 200 || !strings.Contains(body, `"id":"`+string(x)+`"`) {
		t.Fatalf("bob's queue = %d %s; want it to hold %s", code, body, x)
	}
	if strings.Contains(body, "ANN-SECRET-NOTE") || strings.Contains(body, "reject") || strings.Contains(body, `"ann"`) {
		t.Errorf("bob's queue shows ann's decision: %s", body)
	}
	code, body = rig.call(t, nil, "GET", "/api/review/"+rig.project+"/queue?reviewer=ann", nil)
	if code != 200 || strings.Contains(body, `"id":"`+string(x)+`"`) {
		t.Errorf("ann's queue still holds %s after her decision: %s", x, body)
	}
	for _, bad := range []map[string]any{
		{"reviewer": "zed", "sample": string(x), "decision": "approve"},
		{"reviewer": "bob", "sample": string(x), "decision": "maybe"},
		{"reviewer": "bob", "sample": string(x), "decision": "correct", "set": map[string]string{"style": "Neutral"}},
	} {
		if code, body := rig.call(t, nil, "POST", "/api/review/"+rig.project+"/decide", bad); code != 400 {
			t.Errorf("decide %v = %d %s; want 400", bad, code, body)
		}
	}
	if code, _ := rig.call(t, nil, "GET", "/review/rv-none/as/ann", nil); code != 404 {
		t.Errorf("an unknown project's page = %d; want 404", code)
	}
}

func TestReviewPagesEscapeDatasetText(t *testing.T) {
	rig := newReviewRig(t, false)
	p, _ := review.Open(context.Background(), rig.st, rig.project, nil)
	x := sharedSample(t, p)
	sl := p.Slots(x)
	rig.call(t, nil, "POST", "/api/review/"+rig.project+"/decide", map[string]any{"reviewer": sl[0], "sample": string(x), "decision": "approve"})
	rig.call(t, nil, "POST", "/api/review/"+rig.project+"/decide", map[string]any{"reviewer": sl[1], "sample": string(x), "decision": "reject", "note": "<b>bold</b>"})
	// Blind: the agreement page, every reviewer's decisions and notes, wants the owner.
	if code, _ := rig.call(t, nil, "GET", "/review/"+rig.project+"/agreement", nil); code != 403 {
		t.Errorf("agreement page without the owner's token = %d; want 403", code)
	}
	if code, _ := rig.call(t, nil, "GET", "/review/"+rig.project+"/agreement?token="+rig.tokens[sl[0]], nil); code != 403 {
		t.Errorf("agreement page with a reviewer's token = %d; want 403", code)
	}
	code, body := rig.call(t, nil, "GET", "/review/"+rig.project+"/agreement?token="+rig.owner, nil)
	if code != 200 || !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") || !strings.Contains(body, "&lt;b&gt;bold&lt;/b&gt;") {
		t.Fatalf("agreement page = %d; want the statement and note escaped:\n%s", code, body)
	}
	if strings.Contains(body, "<img src=x") || strings.Contains(body, "<b>bold") {
		t.Error("the agreement page carries raw markup from the dataset or a note")
	}
	code, body = rig.call(t, nil, "GET", "/review", nil)
	if code != 200 || !strings.Contains(body, "/review/"+rig.project+"/as/ann") {
		t.Errorf("review list = %d, lacks ann's link:\n%s", code, body)
	}
	adj := "/api/review/" + rig.project + "/adjudicate"
	body4 := map[string]any{"reviewer": "ann", "sample": string(x), "decision": "approve", "note": "fine"}
	if code, _ := rig.call(t, nil, "POST", adj, body4); code != 403 {
		t.Errorf("adjudicate without a token = %d; want 403", code)
	}
	if code, _ := rig.call(t, nil, "POST", adj+"?token="+rig.tokens["bob"], body4); code != 403 {
		t.Errorf("adjudicate as bob, not an adjudicator = %d; want 403", code)
	}
	// cy's token, naming ann in the body: recorded under cy.
	code, body = rig.call(t, nil, "POST", adj+"?token="+rig.tokens["cy"], body4)
	if code != 200 {
		t.Fatalf("adjudicate = %d %s", code, body)
	}
	st, _ := p.State(context.Background())
	for _, s := range st {
		if s.Sample.ID == x && (s.Status != review.Settled || s.Final.Reviewer != "cy") {
			t.Errorf("after adjudication %s is %s by %v; want settled by cy, whose token it was", x, s.Status, s.Final)
		}
	}
	audit, _ := p.Audit(context.Background())
	if last := audit[len(audit)-1]; last.Reviewer != "cy" || last.Role != "adjudication" {
		t.Errorf("the audit row of the adjudication = %+v; want cy's", last)
	}
}

func TestReviewPublicNeedsAToken(t *testing.T) {
	rig := newReviewRig(t, true)
	ctx := context.Background()
	p, _ := review.Open(ctx, rig.st, rig.project, nil)
	tok, err := p.Invite(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := rig.call(t, nil, "GET", "/review/"+rig.project+"/as/ann", nil); code != 403 {
		t.Errorf("page without a token = %d; want 403", code)
	}
	if code, _ := rig.call(t, nil, "GET", "/review/"+rig.project+"/as/ann?token=wrong", nil); code != 403 {
		t.Errorf("page with a wrong token = %d; want 403", code)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	if code, _ := rig.call(t, c, "GET", "/review/"+rig.project+"/as/ann?token="+tok, nil); code != 200 {
		t.Fatalf("page with ann's token = %d; want 200", code)
	}
	if code, _ := rig.call(t, c, "GET", "/review/"+rig.project+"/as/bob", nil); code != 403 {
		t.Errorf("ann's cookie opened bob's page: %d", code)
	}
	x := sharedSample(t, p)
	if code, _ := rig.call(t, c, "POST", "/api/review/"+rig.project+"/decide", map[string]any{"reviewer": "bob", "sample": string(x), "decision": "approve"}); code != 403 {
		t.Errorf("ann's cookie decided for bob: %d", code)
	}
	if code, body := rig.call(t, c, "POST", "/api/review/"+rig.project+"/decide", map[string]any{"reviewer": "ann", "sample": string(x), "decision": "approve"}); code != 200 {
		t.Errorf("ann's decision with her cookie = %d %s", code, body)
	}
	if code, _ := rig.call(t, nil, "GET", "/api/review/"+rig.project+"/queue?reviewer=ann", nil); code != 403 {
		t.Errorf("queue without a token = %d; want 403", code)
	}
}

// TestReviewerCannotSeeAnotherOnAnUndecidedSample: on a public server, after ann has
// decided a sample she shares with bob, nothing bob can open with his token (the project
// list, his page, his queue, the agreement page, the export, ann's page and queue, undo
// and adjudicate) shows her decision or her note; cy, named an adjudicator, does not see
// it either before the owner opens the agreement page.
func TestReviewerCannotSeeAnotherOnAnUndecidedSample(t *testing.T) {
	rig := newReviewRig(t, true)
	p, err := review.Open(context.Background(), rig.st, rig.project, nil)
	if err != nil {
		t.Fatal(err)
	}
	x := sharedSample(t, p)
	const note, changed = "ANN-SECRET-NOTE-7", "ANN-CORRECTED-STATEMENT"
	annJar, _ := cookiejar.New(nil)
	ann := &http.Client{Jar: annJar}
	if code, body := rig.call(t, ann, "POST", "/api/review/"+rig.project+"/decide?token="+rig.tokens["ann"],
		map[string]any{"reviewer": "ann", "sample": string(x), "decision": "correct", "set": map[string]string{"statement": changed}, "note": note}); code != 200 {
		t.Fatalf("ann's decision = %d %s", code, body)
	}
	P := "/review/" + rig.project
	A := "/api/review/" + rig.project
	for _, who := range []string{"bob", "cy"} {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar}
		// The reviewer's link sets the cookie the rest rides on.
		if code, _ := rig.call(t, c, "GET", P+"/as/"+who+"?token="+rig.tokens[who], nil); code != 200 {
			t.Fatalf("%s's page with the token = %d", who, code)
		}
		for _, rq := range []struct {
			method, path string
			body         any
			want         int
		}{
			{"GET", "/review", nil, 200},
			{"GET", P + "/as/" + who, nil, 200},
			{"GET", A + "/queue?reviewer=" + who, nil, 200},
			{"GET", P + "/agreement", nil, 403},
			{"GET", P + "/agreement?token=" + rig.tokens[who], nil, 403},
			{"GET", P + "/export", nil, 403},
			{"GET", P + "/as/ann", nil, 403},
			{"GET", A + "/queue?reviewer=ann", nil, 403},
			{"POST", A + "/undo", map[string]any{"reviewer": "ann", "sample": string(x)}, 403},
			{"POST", A + "/decide", map[string]any{"reviewer": "ann", "sample": string(x), "decision": "approve"}, 403},
		} {
			code, body := rig.call(t, c, rq.method, rq.path, rq.body)
			if code != rq.want {
				t.Errorf("%s: %s %s = %d; want %d", who, rq.method, rq.path, code, rq.want)
			}
			if strings.Contains(body, note) || strings.Contains(body, changed) || strings.Contains(body, `"correct"`) {
				t.Errorf("%s: %s %s shows ann's decision or note:\n%s", who, rq.method, rq.path, body)
			}
		}
	}
	// bob is no adjudicator: refused, and told nothing of the sample.
	code, body := rig.call(t, nil, "POST", A+"/adjudicate?token="+rig.tokens["bob"], map[string]any{"sample": string(x), "decision": "approve"})
	if code != 403 || strings.Contains(body, note) {
		t.Errorf("bob's adjudication = %d %s; want 403 without ann's note", code, body)
	}
	// Once bob has decided too, the owner sees the dispute and ann's note: it was there
	// to be hidden.
	if code, body := rig.call(t, nil, "POST", A+"/decide?token="+rig.tokens["bob"], map[string]any{"reviewer": "bob", "sample": string(x), "decision": "approve"}); code != 200 {
		t.Fatalf("bob's decision = %d %s", code, body)
	}
	if code, body := rig.call(t, nil, "GET", P+"/agreement?token="+rig.owner, nil); code != 200 || !strings.Contains(body, note) {
		t.Errorf("the owner's agreement page = %d, shows the note: %v", code, strings.Contains(body, note))
	}
}
