package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/arbiter-eval/arbiter/internal/review"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// reviewRig is a server on a file store holding one review project over eight reference
// samples whose statements carry markup.
type reviewRig struct {
	st      *store.Store
	base    string
	project string
	// owner is the project owner's token; tokens are the reviewers' (cy adjudicates).
	owner  string
	tokens map[string]string
}

func newReviewRig(t *testing.T, public bool) *reviewRig {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "review.db"))
	if err != nil {
		t.Fatal(err)
	}
	ds, err := seduce.Builtin(nil)
	if err != nil {
		t.Fatal(err)
	}
	small := &seduce.Dataset{Extra: ds.Extra}
	for _, s := range ds.Samples[:8] {
		s.Statement += " " + hostileText
		small.Samples = append(small.Samples, s)
	}
	id, err := review.New(ctx, st, review.NewOptions{DatasetName: "small.jsonl", Format: seduce.FormatJSONL,
		Data: review.EncodeDataset(small), Reviewers: []string{"ann", "bob", "cy"}, Adjudicators: []string{"cy"}, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	owner, err := review.NewOwnerToken(ctx, st, id)
	if err != nil {
		t.Fatal(err)
	}
	p, err := review.Open(ctx, st, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	tokens := map[string]string{}
	for _, who := range p.Reviewers {
		if tokens[who], err = p.Invite(ctx, who); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := New(Options{Store: st, Public: public})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(ln)
	}()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		<-done
		st.Close()
	})
	return &reviewRig{st: st, base: "http://" + ln.Addr().String(), project: id, owner: owner, tokens: tokens}
}

// reviewWatch records page problems and the time of each key press, before the page's
// own scripts run.
const reviewWatch = watchScript + `
window.__keyAt = 0;
document.addEventListener('keydown', () => { window.__keyAt = performance.now(); }, true);`

// keeper reviews a whole queue in one browser tab with the keyboard: plan says what to
// do with the i-th sample shown ("a", "c", "r" or "au": approve, undo, approve again).
// It returns the milliseconds from each approve's key press to the next sample shown.
func keeper(ctx context.Context, base, project, who string, plan func(i int, id string) string) (lat []float64, err error) {
	run := func(what string, acts ...chromedp.Action[chromedp.Void]) {
		if err == nil {
			if e := chromedp.Do(ctx, acts...); e != nil {
				err = fmt.Errorf("%s %s: %w", who, what, e)
			}
		}
	}
	eval := func(expr string) string {
		var v string
		if err == nil {
			if v, err = chromedp.Run(ctx, chromedp.Evaluate[string](expr)); err != nil {
				err = fmt.Errorf("%s: %s: %w", who, expr, err)
			}
		}
		return v
	}
	wait := func(what, expr string) {
		deadline := time.Now().Add(20 * time.Second)
		for err == nil {
			_, e := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(time.Until(deadline))))
			if e == nil {
				return
			}
			// A poll right after a navigation can meet the page it left: poll again.
			again := strings.Contains(e.Error(), "navigated") || strings.Contains(e.Error(), "Cannot find context with specified id")
			if !again || time.Now().After(deadline) {
				err = fmt.Errorf("%s: waiting for %s: %w", who, what, e)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	run("open", chromedp.Navigate("about:blank"))
	if err == nil {
		if _, e := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: reviewWatch}); e != nil {
			return nil, e
		}
	}
	run("open the queue", chromedp.Navigate(base+"/review/"+project+"/as/"+who))
	wait("the queue", `document.getElementById('rv').dataset.ready === '1'`)
	for i := 0; err == nil; i++ {
		id := eval(`document.getElementById('rv').dataset.shown`)
		if id == "" || err != nil {
			break
		}
		shown := `document.getElementById('rv').dataset.shown !== ` + jsString(id)
		switch plan(i, id) {
		case "c":
			run("correct", chromedp.KeyEvent("c"))
			wait("the correction form", `!document.getElementById('rv-correct').hidden`)
			run("edit", chromedp.SetValue(chromedp.ID("c-statement"), "I vault the low wall in one go."))
			run("note", chromedp.SendKeys(chromedp.ID("c-note"), "clearer wording"+kb.Enter))
		case "r":
			run("reject", chromedp.KeyEvent("r"))
			wait("the reject form", `!document.getElementById('rv-reject').hidden`)
			run("note", chromedp.SendKeys(chromedp.ID("r-note"), "off setting"+kb.Enter))
		case "au":
			run("approve", chromedp.KeyEvent("a"))
			wait("the next sample", shown)
			run("undo", chromedp.KeyEvent("u"))
			wait("the sample back", `document.getElementById('rv').dataset.shown === `+jsString(id))
			run("approve again", chromedp.KeyEvent("a"))
		default:
			run("approve", chromedp.KeyEvent("a"))
			wait("the next sample", shown)
			var ms float64
			if err == nil {
				ms, err = chromedp.Run(ctx, chromedp.Evaluate[float64](`Number(document.getElementById('rv').dataset.shownAt) - window.__keyAt`))
			}
			lat = append(lat, ms)
		}
		wait("the next sample", shown)
	}
	wait("every decision saved", `document.getElementById('rv').dataset.pending === '0'`)
	if p := eval(`window.__problems.join('; ')`); p != "" && err == nil {
		err = fmt.Errorf("%s: page problems: %s", who, p)
	}
	return lat, err
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// TestReviewBrowserTwoKeepers has two Keepers review the same project at the same time in
// two browser tabs with the keyboard: both correct one shared sample the same way, one
// rejects a sample and one approves, undoes and approves again; then the third reviewer
// does the seeded 10%. No decision is lost or applied twice, the audit trail has every
// change in order, markup in the statements stays text, and the export carries the
// correction. It logs the time from a key press to the next sample. REVIEW_SHOTS=DIR
// (or COURT_SHOTS) keeps the screenshots of the review and agreement pages.
func TestReviewBrowserTwoKeepers(t *testing.T) {
	bctx := courtBrowser(t)
	rig := newReviewRig(t, false)
	ctx := context.Background()
	p, err := review.Open(ctx, rig.st, rig.project, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The shared sample both correct: reviewed by ann and bob, nobody else. The one bob
	// rejects: another of his, which ann approves. The one ann undoes: her last.
	var shared, rejected seduce.SampleID
	for _, s := range p.Dataset.Samples {
		sl := p.Slots(s.ID)
		switch {
		case shared == "" && sl[0] == "ann" && sl[1] == "bob" && sl[2] == "":
			shared = s.ID
		case rejected == "" && slices.Contains(sl[:2], "bob") && slices.Contains(sl[:2], "ann"):
			rejected = s.ID
		}
	}
	if shared == "" || rejected == "" {
		t.Fatalf("seed 11 gives ann and bob no two shared samples")
	}
	annQueue := p.Queue("ann")
	plans := map[string]func(int, string) string{
		"ann": func(i int, id string) string {
			switch {
			case seduce.SampleID(id) == shared:
				return "c"
			case i == len(annQueue)-1:
				return "au"
			}
			return "a"
		},
		"bob": func(i int, id string) string {
			switch seduce.SampleID(id) {
			case shared:
				return "c"
			case rejected:
				return "r"
			}
			return "a"
		},
	}
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil { // start the browser before a second tab
		t.Fatal(err)
	}
	tabs := map[string]context.Context{"ann": bctx}
	bobTab, cancel := chromedp.NewContext(bctx)
	t.Cleanup(cancel)
	tabs["bob"] = bobTab
	var wg sync.WaitGroup
	var mu sync.Mutex
	var lat []float64
	for _, who := range []string{"ann", "bob"} {
		wg.Go(func() {
			l, err := keeper(tabs[who], rig.base, rig.project, who, plans[who])
			mu.Lock()
			defer mu.Unlock()
			lat = append(lat, l...)
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	// The progress count and the end of the queue.
	d := &courtDriver{t: t, ctx: bctx, shots: reviewShots(t)}
	if got := evalIn[string](d, `document.getElementById('rv-progress').textContent`); !strings.HasPrefix(got, fmt.Sprintf("%d of %d decided", len(annQueue), len(annQueue))) {
		t.Errorf("ann's progress reads %q; want %d of %d decided", got, len(annQueue), len(annQueue))
	}
	// Every decision is stored once; the audit trail has each change in order.
	ds, err := rig.st.ReviewDecisions(ctx, rig.project)
	if err != nil {
		t.Fatal(err)
	}
	want := len(annQueue) + len(p.Queue("bob"))
	if len(ds) != want {
		t.Errorf("%d decisions stored; want %d (ann's and bob's queues)", len(ds), want)
	}
	evs, err := p.Audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != want+2 { // ann's undo and her decision again
		t.Errorf("audit trail has %d lines; want %d", len(evs), want+2)
	}
	last := annQueue[len(annQueue)-1]
	var annLast []string
	for i, e := range evs {
		if i > 0 && (e.Seq <= evs[i-1].Seq || e.At.Before(evs[i-1].At)) {
			t.Errorf("audit line %d is out of order", i)
		}
		if e.SampleID == string(last) && e.Reviewer == "ann" {
			annLast = append(annLast, e.Action)
		}
	}
	if !slices.Equal(annLast, []string{"decide", "undo", "decide"}) {
		t.Errorf("ann's last sample has audit actions %v; want decide, undo, decide", annLast)
	}
	// Latency from key press to the next sample.
	sort.Float64s(lat)
	if len(lat) > 0 {
		t.Logf("key press to next sample: median %.1f ms, max %.1f ms over %d approvals", lat[len(lat)/2], lat[len(lat)-1], len(lat))
	}
	// The third reviewer.
	cyTab, cancel2 := chromedp.NewContext(bctx)
	t.Cleanup(cancel2)
	if _, err := keeper(cyTab, rig.base, rig.project, "cy", func(int, string) string { return "a" }); err != nil {
		t.Fatal(err)
	}
	// Markup stays text on the review page.
	d.do("reload ann", chromedp.Navigate(rig.base+"/review/"+rig.project+"/as/ann"))
	d.until("ann's empty queue", `document.getElementById('rv').dataset.ready === '1'`)
	d.do("undo into view", chromedp.KeyEvent("u")) // nothing to undo after a reload: stays done
	d.shoot("review-done")
	bobShots := &courtDriver{t: t, ctx: cyTab, shots: d.shots}
	bobShots.do("a fresh queue", chromedp.Navigate(rig.base+"/review/"+rig.project+"/as/cy"))
	// cy is done too; show a queue with a sample in it: take back one of cy's decisions.
	cyDone := p.Queue("cy")
	if _, err := p.Undo(ctx, "cy", cyDone[0]); err != nil {
		t.Fatal(err)
	}
	bobShots.do("reload", chromedp.Navigate(rig.base+"/review/"+rig.project+"/as/cy"))
	bobShots.until("the sample", `document.getElementById('rv').dataset.ready === '1' && document.getElementById('rv').dataset.shown !== ''`)
	if got := evalIn[string](bobShots, `document.getElementById('f-statement').textContent`); !strings.Contains(got, "<script>alert(1)</script>") {
		t.Errorf("the statement reads %q; want its markup as text", got)
	}
	if n := evalIn[int](bobShots, `document.querySelectorAll('#rv img, #rv script:not([src])').length`); n != 0 {
		t.Errorf("the statement's markup became %d elements", n)
	}
	if got := evalIn[string](bobShots, `getComputedStyle(document.getElementById('rv-correct')).display + '/' + getComputedStyle(document.getElementById('rv-reject')).display`); got != "none/none" {
		t.Errorf("the closed forms show (display %s)", got)
	}
	bobShots.shoot("review")
	bobShots.do("correct form", chromedp.KeyEvent("c"))
	bobShots.shoot("review-correct")
	bobShots.do("cancel", chromedp.KeyEvent(kb.Escape))
	bobShots.do("approve", chromedp.KeyEvent("a"))
	bobShots.until("saved", `document.getElementById('rv').dataset.pending === '0' && document.getElementById('rv').dataset.shown === ''`)

	// The agreement page: the rejection is a disagreement, settled here by adjudication.
	// The adjudicator's token, then the owner's: the page wants the owner, the settling cy.
	d.do("adjudicator's token", chromedp.Navigate(rig.base+"/review/"+rig.project+"/as/cy?token="+rig.tokens["cy"]))
	d.do("agreement", chromedp.Navigate(rig.base+"/review/"+rig.project+"/agreement?token="+rig.owner))
	d.until("the disagreement", `document.getElementById('s-`+string(rejected)+`') !== null`)
	if n := evalIn[int](d, `document.querySelectorAll('main img, main script:not([src])').length`); n != 0 {
		t.Errorf("the agreement page has %d img/script elements from sample text", n)
	}
	d.shoot("agreement")
	form := `#s-` + cssEscape(string(rejected)) + ` form`
	d.do("adjudicator", chromedp.SendKeys(chromedp.CSS(form+` input[name=adjudicator]`), "lead"))
	d.do("decision", chromedp.SetValue(chromedp.CSS(form+` select[name=decision]`), "reject"))
	d.do("note", chromedp.SendKeys(chromedp.CSS(form+` input[name=note]`), "agreed with bob"))
	d.do("settle", chromedp.Click(chromedp.CSS(form+` button[type=submit]`)))
	d.until("settled", `(document.querySelector('#s-`+cssEscape(string(rejected))+` .rv-status') || {}).textContent === 'settled'`)
	if p := d.problems(); len(p) != 0 {
		t.Errorf("page problems: %v", p)
	}
	for _, dec := range ds {
		if dec.Decision == review.Reject && dec.Note != "off setting" || dec.Decision == review.Correct && dec.Note != "clearer wording" {
			t.Errorf("%s's %s note on %s = %q; want exactly what was typed", dec.Reviewer, dec.Decision, dec.SampleID, dec.Note)
		}
	}

	// The export carries the correction and leaves the rejected sample out.
	res, err := http.Get(rig.base + "/review/" + rig.project + "/export?token=" + rig.owner)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("export: %d %s", res.StatusCode, body)
	}
	out, err := seduce.ReadDataset(bytes.NewReader(body), "export.jsonl", seduce.FormatJSONL, nil)
	if err != nil {
		t.Fatalf("the export does not validate: %v", err)
	}
	got, ok := out.Lookup(shared)
	if !ok || got.Statement != "I vault the low wall in one go." || got.ReviewStatus != "corrected" {
		t.Errorf("exported %s = %q (%s); want the Keepers' correction", shared, got.Statement, got.ReviewStatus)
	}
	if _, ok := out.Lookup(rejected); ok {
		t.Errorf("the rejected sample %s was exported", rejected)
	}
}

func cssEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, `\%x `, r)
		}
	}
	return b.String()
}

// reviewShots is REVIEW_SHOTS when set, else shotsDir's choice.
func reviewShots(t *testing.T) string {
	if dir := strings.TrimSpace(os.Getenv("REVIEW_SHOTS")); dir != "" {
		t.Setenv("COURT_SHOTS", dir)
	}
	return shotsDir(t)
}
