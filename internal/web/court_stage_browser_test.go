package web

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// stageWatch runs before the page's scripts: at every change of the page it checks that
// the line streaming now (the backlog's turn between its turn and end events) is the
// line on the stage and that its speaker's seat is the one highlighted, and it notes
// every banner shown and every Address menu left set after a line ended.
const stageWatch = `window.__problems = [];
document.addEventListener('securitypolicyviolation', e => window.__problems.push('CSP ' + e.violatedDirective));
window.addEventListener('error', e => window.__problems.push('error ' + e.message));
window.__speakerChecks = 0; window.__speakerBad = []; window.__banners = [];
new MutationObserver(() => {
  const live = Array.from(document.querySelectorAll('#turns li.turn.streaming:not(.final)')).pop();
  const stage = document.querySelector('#stage');
  if (live && stage) {
    window.__speakerChecks++;
    const seat = document.querySelector('.seat.speaking');
    if (stage.dataset.index !== live.dataset.index || stage.dataset.role !== live.dataset.role || !seat || seat.dataset.role !== live.dataset.role) {
      window.__speakerBad.push('line ' + live.dataset.index + ' (' + live.dataset.role + ') streams; the stage shows ' + stage.dataset.index + ' (' + stage.dataset.role + '), seat ' + (seat && seat.dataset.role));
    }
  }
  const b = document.querySelector('#banner');
  if (b && !b.hidden) { const t = b.textContent; if (window.__banners[window.__banners.length - 1] !== t) window.__banners.push(t); }
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});`

// TestCourtBrowserCrossExamination plays a cross-examination in chromium against the
// scripted court: the speaker on the stage (and the highlighted seat) is always the
// speaker of the line streaming; the Address menu is back to "the court decides" after
// each line; a wrong item lowers the credibility bar; the planted item plays the
// Objection scene and marks the record; pressing a statement works from the record;
// with an analyzer that keeps picking the court, the floor comes back to the defense
// within court.MaxCourtRun court turns; the verdict scene and the debrief render and
// count the hit and the miss. Model and player text stays text. COURT_SHOTS=DIR keeps
// the screenshots.
func TestCourtBrowserCrossExamination(t *testing.T) {
	ctx := courtBrowser(t)
	var hog atomic.Bool
	var flip atomic.Int64
	r := newCourtRig(t, rigOptions{respond: func(req *llmtest.Request) (llmtest.Response, bool) {
		if req.Model != "analyzer" || !hog.Load() {
			return llmtest.Response{}, false
		}
		// The court keeps the floor: Judge and Prosecutor by turns (a re-ask after an
		// edge that is not allowed gets the other).
		if flip.Add(1)%2 == 0 {
			return llmtest.Response{Text: "<NextSpeaker: Judge>"}, true
		}
		return llmtest.Response{Text: "<NextSpeaker: Prosecutor>"}, true
	}})
	r.saveCrossCase()
	d := &courtDriver{t: t, ctx: ctx, shots: shotsDir(t)}
	d.do("start the browser", chromedp.Navigate("about:blank"))
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: stageWatch}); err != nil {
		t.Fatal(err)
	}
	d.do("open the menu", chromedp.Navigate(r.base+"/court"))
	d.until("the docket", `document.querySelectorAll('#case-list .case-card').length === 6`)
	d.do("slow text", chromedp.Evaluate[chromedp.Void](`localStorage.setItem('llm-court.options', JSON.stringify({textSpeed: 'slow', auto: true, sound: true, volume: 0.5}))`))
	d.do("begin", chromedp.Click(chromedp.CSS(`#case-list .case-card:last-of-type .btn-primary`)))
	d.until("the game page", `document.body.dataset.page === 'game'`)
	d.until("the stage typing the prosecutor's line", `document.querySelector('#stage').dataset.role === 'prosecutor' && document.querySelector('#stage-line').textContent.length > 20`)
	d.shoot("stage-midline")
	d.until("the floor", `!document.querySelector('#defense-text').disabled`)
	addressEmpty := func(when string) {
		t.Helper()
		if v := evalIn[string](d, `document.querySelector('#defense-to').value`); v != "" {
			t.Errorf("%s: the Address menu is %q; want empty (the court decides)", when, v)
		}
	}
	floor := func(what string) {
		t.Helper()
		d.until(what, `!document.querySelector('#defense-text').disabled && !document.querySelector('#turns li.streaming:not(.final)')`)
	}

	d.do("opening", chromedp.SendKeys(chromedp.ID("defense-text"), "The defense will show "+hostileText+kb.Enter))
	floor("the interrogation")
	addressEmpty("after the opening")
	d.do("address Tomas", chromedp.SetValue(chromedp.ID("defense-to"), "Witness_tomas"))
	d.do("question", chromedp.SendKeys(chromedp.ID("defense-text"), "What did you see that night?"+kb.Enter))
	floor("Tomas's answer")
	addressEmpty("after Tomas's answer")
	d.until("Tomas's statement in the record", `document.querySelectorAll('#testimony li.statement').length >= 1`)
	if got := evalIn[string](d, `document.querySelector('#record-hint').textContent`); !strings.Contains(got, "On the stand: Tomas") {
		t.Errorf("record hint = %q; want Tomas on the stand", got)
	}

	// A wrong item: the credibility bar goes down.
	d.do("present E2", chromedp.Click(chromedp.CSS(`[data-present=E2]`)))
	d.until("the lower credibility", `document.querySelector('#cred').dataset.value === '`+itoa(100-court.MissCost)+`'`)
	floor("the witness's answer to the miss")
	addressEmpty("after the miss")
	if got := evalIn[string](d, `getComputedStyle(document.querySelector('#cred-fill')).width`); got == "" {
		t.Error("no credibility bar")
	}

	// The planted item: the Objection scene, the record marked.
	d.do("present E1", chromedp.Click(chromedp.CSS(`[data-present=E1]`)))
	d.until("the Objection scene", `window.__banners.includes('Objection!') && document.body.dataset.exposed === '1'`)
	d.shoot("objection")
	d.until("the item marked", `document.querySelector('li.item[data-item=E1]').classList.contains('exposed') && document.querySelector('li.person[data-witness=tomas]').classList.contains('exposed')`)
	floor("the witness's reaction")
	if got := evalIn[string](d, `document.querySelector('#cred').dataset.value`); got != itoa(100-court.MissCost+court.HitGain) {
		t.Errorf("credibility after the hit = %s; want %d", got, 100-court.MissCost+court.HitGain)
	}
	addressEmpty("after the hit")

	// Press a statement from the testimony.
	d.do("testimony tab", chromedp.Click(chromedp.ID("tab-testimony")))
	d.do("press #1", chromedp.Click(chromedp.CSS(`[data-press="1"]`)))
	floor("the answer to the press")
	d.shoot("cross-examination")
	if n := evalIn[int](d, `document.querySelectorAll('#turns li.player .tag').length`); n < 2 {
		t.Errorf("the backlog tags %d of the defense's moves; want the presentations and the press", n)
	}

	// The fair floor: the analyzer keeps picking the court; the defense gets the floor
	// back within MaxCourtRun court turns, as the page shows them.
	hog.Store(true)
	before := evalIn[int](d, `document.querySelectorAll('#turns li.turn').length`)
	d.do("a line to the court", chromedp.SendKeys(chromedp.ID("defense-text"), "Your Honour, may I continue?"+kb.Enter))
	floor("the floor back")
	hog.Store(false)
	roles := evalIn[[]string](d, `Array.from(document.querySelectorAll('#turns li.turn')).slice(`+itoa(before)+`).map(li => li.dataset.role)`)
	run := 0
	for _, role := range roles[1:] { // the first is the defense's line
		if role == "defense" {
			break
		}
		run++
	}
	if run == 0 || run > court.MaxCourtRun {
		t.Errorf("the court spoke %d times before the floor came back (%v); want 1 to %d", run, roles, court.MaxCourtRun)
	}
	if got := evalIn[string](d, `document.querySelector('#turns-left').textContent`); !strings.HasPrefix(got, "Turns left: ") {
		t.Errorf("turns left shown as %q", got)
	}

	// Rest, close, the verdict scene and the debrief.
	d.do("rest", chromedp.Click(chromedp.ID("rest-btn")))
	d.do("confirm rest", chromedp.Click(chromedp.ID("rest-btn")))
	d.until("the closing", `document.body.dataset.phase === 'closing' && !document.querySelector('#defense-text').disabled`)
	d.do("closing", chromedp.SendKeys(chromedp.ID("defense-text"), "Tomas could not have seen her face."+kb.Enter))
	d.until("the verdict scene", `!document.querySelector('#verdict').hidden && !document.querySelector('#debrief').hidden && document.querySelector('#verdict-words').textContent !== ''`)
	time.Sleep(1500 * time.Millisecond) // the gavel and the stamp
	d.shoot("verdict-scene")
	for sel, want := range map[string]string{
		"#stat-found":     "1 of 2",
		"#stat-presented": "2, 1 miss",
		"#stat-cred":      itoa(100-court.MissCost+court.HitGain) + " / 100",
	} {
		if got := evalIn[string](d, `document.querySelector('`+sel+`').textContent`); got != want {
			t.Errorf("debrief %s = %q; want %q", sel, got, want)
		}
	}
	if got := evalIn[string](d, `Array.from(document.querySelectorAll('#findings li')).map(li => li.className + ':' + li.textContent).join(' | ')`); !strings.Contains(got, "found:C1") || !strings.Contains(got, "missed:C2") || !strings.Contains(got, "pawn ticket is dated six days") {
		t.Errorf("debrief findings = %q", got)
	}
	if got := evalIn[string](d, `document.querySelector('#grade .grade-letter').textContent`); got == "" || got == "–" {
		t.Errorf("no grade: %q", got)
	}
	d.do("scroll to the debrief", chromedp.Evaluate[chromedp.Void](`document.querySelector('#debrief').scrollIntoView()`))
	d.shoot("debrief")

	if bad := evalIn[[]string](d, `window.__speakerBad`); len(bad) != 0 {
		t.Errorf("the stage showed another speaker than the line streaming: %q", bad)
	}
	if n := evalIn[int](d, `window.__speakerChecks`); n == 0 {
		t.Error("no streaming line was observed")
	}
	if n := evalIn[int](d, `document.querySelectorAll('#stage-line *, #testimony .stmt-text *, #turns .text *, #verdict-justification *').length`); n != 0 {
		t.Errorf("model or player text became %d elements", n)
	}
	if p := d.problems(); len(p) != 0 {
		t.Errorf("page problems: %q", p)
	}
}
