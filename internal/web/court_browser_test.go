package web

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// chromiumPath is Debian's browser, which scripts/test installs.
const chromiumPath = "/usr/bin/chromium"

// courtBrowser starts headless chromium with nothing that reaches the network, as
// cmd/arbiter's browser tests do. Without chromium the test fails under CI and is
// skipped elsewhere.
func courtBrowser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		msg := "browser tests need Debian's chromium at " + chromiumPath + " (apt-get install chromium)"
		if _, ci := os.LookupEnv("CI"); ci {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("metrics-recording-only", true),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	return bctx
}

// watchScript runs before each page's own scripts (CDP scripts are outside the CSP):
// it records CSP violations and script errors, which the test asserts are none.
const watchScript = `window.__problems = [];
document.addEventListener('securitypolicyviolation', e => window.__problems.push('CSP ' + e.violatedDirective + ' ' + e.blockedURI));
window.addEventListener('error', e => window.__problems.push('error ' + e.message));
window.addEventListener('unhandledrejection', e => window.__problems.push('rejection ' + e.reason));`

// clearDefense empties the defense's text box as a person would (chromedp's SetValue
// cannot set an empty value).
const clearDefense = `(() => { const i = document.querySelector('#defense-text'); i.value = ''; i.dispatchEvent(new Event('input', {bubbles: true})); })()`

type courtDriver struct {
	t     *testing.T
	ctx   context.Context
	shots string
}

func (d *courtDriver) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	d.t.Helper()
	if err := chromedp.Do(d.ctx, steps...); err != nil {
		d.t.Fatalf("%s: %v", what, err)
	}
}

// until waits for a JavaScript condition to hold.
func (d *courtDriver) until(what, expr string) {
	d.t.Helper()
	// A navigation in the middle ends a poll early; poll again on the new page.
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, err := chromedp.Run(d.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil {
			return
		}
		if !strings.Contains(err.Error(), "navigated") || time.Now().After(deadline) {
			d.t.Fatalf("waiting for %s (%s): %v; page problems: %v", what, expr, err, d.problems())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func evalIn[T any](d *courtDriver, expr string) T {
	d.t.Helper()
	v, err := chromedp.Run(d.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		d.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

func (d *courtDriver) problems() []string {
	v, _ := chromedp.Run(d.ctx, chromedp.Evaluate[[]string](`window.__problems || []`))
	return v
}

// shoot saves the page at laptop and phone size as NAME-1280.png and NAME-390.png.
func (d *courtDriver) shoot(name string) {
	d.t.Helper()
	for _, size := range []struct {
		w, h int64
		tag  string
	}{{1280, 900, "1280"}, {390, 844, "390"}} {
		d.do("resize", chromedp.EmulateViewport(size.w, size.h))
		time.Sleep(150 * time.Millisecond) // let layout and smooth scrolling settle for the picture
		png, err := chromedp.Run(d.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			d.t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(d.shots, name+"-"+size.tag+".png"), png, 0o644); err != nil {
			d.t.Fatal(err)
		}
	}
	d.do("resize back", chromedp.EmulateViewport(1280, 900))
}

// TestCourtBrowserPlaysATrial plays a whole game against the fake court in chromium:
// the menu, a generated case saved to the docket, a new game whose introduction streams
// (with a dropped connection the client must resume), a question to a witness and its
// answer, a 409 handled without losing the text, rest, closing, the verdict, the
// transcript and the quality scores; model text with markup stays text throughout.
// COURT_SHOTS=DIR keeps the screenshots there.
func TestCourtBrowserPlaysATrial(t *testing.T) {
	ctx := courtBrowser(t)
	court, base := serveFakeCourt(t)
	court.dropAfter = 6
	shots := os.Getenv("COURT_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	d := &courtDriver{t: t, ctx: ctx, shots: shots}

	var mu sync.Mutex
	var dialogs []string
	events := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			mu.Lock()
			dialogs = append(dialogs, ev.Message)
			mu.Unlock()
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}()
	d.do("start the browser", chromedp.Navigate("about:blank"))
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: watchScript}); err != nil {
		t.Fatalf("install the page watcher: %v", err)
	}

	// Menu: the docket lists both cases; the hostile one's title is text.
	d.do("open the menu", chromedp.Navigate(base+"/court"))
	d.until("the docket", `document.querySelectorAll('#case-list .case-card').length === 2`)
	if got := evalIn[string](d, `document.querySelectorAll('#case-list .case-card > h3')[1].textContent`); got != "The "+hostileText+" Affair" {
		t.Errorf("hostile case title shown as %q; want the raw text", got)
	}
	d.until("the model list", `document.querySelectorAll('#gen-model option').length === 4`)
	d.shoot("menu")

	// Options persist in localStorage.
	d.do("open options", chromedp.Click(chromedp.CSS(`[data-panel=options]`)))
	d.do("name", chromedp.SendKeys(chromedp.ID("opt-name"), "Ada Marsh"))
	d.do("avatar", chromedp.Click(chromedp.CSS(`label[for=avatar-avatar-c]`)))
	d.do("save options", chromedp.Click(chromedp.CSS(`#options-form button[type=submit]`)))
	if got := evalIn[string](d, `JSON.parse(localStorage.getItem('llm-court.options')).name + '/' + JSON.parse(localStorage.getItem('llm-court.options')).avatar`); got != "Ada Marsh/avatar-c" {
		t.Errorf("saved options = %q; want Ada Marsh/avatar-c", got)
	}
	d.shoot("options")

	// Case generation: errors are shown plainly, then a case appears as a case file.
	d.do("open generate", chromedp.Click(chromedp.CSS(`[data-panel=generate]`)))
	d.do("prior", chromedp.SendKeys(chromedp.ID("gen-prior"), "please fail"))
	d.do("generate", chromedp.Click(chromedp.ID("gen-go")))
	d.until("the generation errors", `document.querySelector('#gen-status').classList.contains('notice-bad')`)
	if got := evalIn[string](d, `document.querySelector('#gen-status').textContent`); !strings.Contains(got, "witnesses[1].knows: must not be empty") || !strings.Contains(got, hostileText) {
		t.Errorf("generation errors shown as %q", got)
	}
	d.do("clear prior", chromedp.SetValue(chromedp.ID("gen-prior"), "a theft at a harbour museum"))
	d.do("generate again", chromedp.Click(chromedp.ID("gen-go")))
	d.until("the generated case", `document.querySelector('#gen-result .case-title') !== null`)
	if got := evalIn[string](d, `document.querySelector('#gen-result .case-title').textContent`); got != "The Lighthouse Keeper's Ledger" {
		t.Errorf("generated case title = %q", got)
	}
	d.shoot("generate")
	d.do("save the case", chromedp.Click(chromedp.ID("gen-save")))
	d.until("the saved notice", `!document.querySelector('#gen-begin').hidden`)

	// New game on the bundled case.
	d.do("open new game", chromedp.Click(chromedp.CSS(`[data-panel=new]`)))
	d.until("the docket with the saved case", `document.querySelectorAll('#case-list .case-card').length === 3`)
	d.do("begin", chromedp.Click(chromedp.CSS(`#case-list .case-card .btn-primary`)))
	d.until("the game page", `document.body.dataset.page === 'game'`)
	d.until("the introduction and the floor", `document.querySelectorAll('#turns li.turn.final').length === 2 && !document.querySelector('#defense-text').disabled`)

	// The first stream was cut after 6 events: the client resumed with Last-Event-ID and
	// shows each turn once.
	court.mu.Lock()
	lastIDs := append([]string(nil), court.lastIDs...)
	court.mu.Unlock()
	if len(lastIDs) < 2 || lastIDs[0] != "" || lastIDs[1] == "" {
		t.Errorf("event streams opened with Last-Event-ID %q; want a first without and a resumed one with", lastIDs)
	}
	if got := evalIn[string](d, `Array.from(document.querySelectorAll('#turns li.turn')).map(li => li.dataset.speaker).join(',')`); got != "Judge,Prosecutor" {
		t.Errorf("turns shown: %q; want Judge,Prosecutor", got)
	}
	if got := evalIn[string](d, `document.querySelector('#turns li.turn .text').textContent`); strings.Contains(got, "ORDER") || !strings.HasPrefix(got, "This court is now in session.") {
		t.Errorf("judge's turn after a reset = %q; want only the second attempt", got)
	}
	// XSS: the prosecutor's text is shown as text; no element came of it.
	if got := evalIn[string](d, `document.querySelectorAll('#turns li.turn .text')[1].textContent`); !strings.HasSuffix(got, hostileText) {
		t.Errorf("prosecutor's text = %q; want it to end with the raw %q", got, hostileText)
	}
	if n := evalIn[int](d, `document.querySelectorAll('img[src="x"], img:not([src^="/static/"])').length + document.scripts.length - 1`); n != 0 {
		t.Errorf("the page has %d stray img or script elements", n)
	}
	if got := evalIn[string](d, `document.querySelector('.portrait-defense svg') ? 'svg' : 'img'`); got != "svg" {
		t.Errorf("the defense seat shows %s; want the chosen generated avatar", got)
	}

	// Opening statement: Enter sends; the judge moves to the interrogation.
	d.do("opening", chromedp.SendKeys(chromedp.ID("defense-text"), "The defense will show that the badge was lent."+kb.Enter))
	d.until("the judge's answer", `document.querySelectorAll('#turns li.turn.final').length === 4 && document.body.dataset.phase === 'interrogation' && !document.querySelector('#defense-text').disabled`)

	// A 409 keeps the text and says why.
	court.mu.Lock()
	court.conflictFor = "Too soon?"
	court.mu.Unlock()
	d.do("conflict", chromedp.SendKeys(chromedp.ID("defense-text"), "Too soon?"+kb.Enter))
	d.until("the 409 notice", `document.querySelector('#form-status').classList.contains('notice-warn')`)
	if got := evalIn[string](d, `document.querySelector('#defense-text').value`); got != "Too soon?" {
		t.Errorf("after a 409 the text box holds %q; want the text kept", got)
	}
	d.until("the floor back after the 409", `!document.querySelector('#defense-text').disabled`)
	d.do("clear", chromedp.Evaluate[chromedp.Void](clearDefense))

	// A question to a named witness: the request carries to, the witness answers.
	d.do("address the witness", chromedp.SetValue(chromedp.ID("defense-to"), "Witness_ade-vale"))
	d.do("question", chromedp.SendKeys(chromedp.ID("defense-text"), "Mr Vale, where were you at 23:41?"+kb.Enter))
	d.until("the witness's answer", `Array.from(document.querySelectorAll('#turns li.turn.final')).some(li => li.dataset.role === 'witness') && !document.querySelector('#defense-text').disabled`)
	court.mu.Lock()
	lastReq := court.defenseReqs[len(court.defenseReqs)-1]
	court.mu.Unlock()
	if lastReq["to"] != "Witness_ade-vale" || lastReq["text"] != "Mr Vale, where were you at 23:41?" {
		t.Errorf("defense request = %v; want the question to Witness_ade-vale", lastReq)
	}
	if got := evalIn[string](d, `document.querySelector('#turns li.role-witness .name').textContent + '|' + document.querySelector('#seat-witness .seat-name').textContent`); got != "Ade Vale|Ade Vale" {
		t.Errorf("witness shown as %q; want Ade Vale in the turn and on the stand", got)
	}
	if n := evalIn[int](d, `document.querySelectorAll('#defense-to option').length`); n != 5 {
		t.Errorf("the address select has %d options; want 5 (court decides, judge, prosecutor, two witnesses)", n)
	}
	if got := evalIn[string](d, `document.querySelector('#defense-count').textContent`); got != "0 / 4,000" {
		t.Errorf("counter = %q", got)
	}
	d.do("type a draft", chromedp.SendKeys(chromedp.ID("defense-text"), "No further"))
	d.shoot("courtroom")
	d.do("clear the draft", chromedp.Evaluate[chromedp.Void](clearDefense))

	// Rest (a second click confirms), the prosecutor closes, the defense closes, verdict.
	d.do("rest", chromedp.Click(chromedp.ID("rest-btn")))
	if got := evalIn[string](d, `document.querySelector('#rest-btn').textContent`); got != "Confirm: the defense rests" {
		t.Errorf("rest button after one click = %q", got)
	}
	d.do("confirm rest", chromedp.Click(chromedp.ID("rest-btn")))
	d.until("the prosecutor's closing", `document.body.dataset.phase === 'closing' && !document.querySelector('#defense-text').disabled`)
	d.do("closing", chromedp.SendKeys(chromedp.ID("defense-text"), "The badge opened a door; it did not take the astrolabe."+kb.Enter))
	d.until("the verdict", `!document.querySelector('#verdict').hidden && document.querySelector('#verdict-summary').textContent !== ''`)
	if got := evalIn[string](d, `document.querySelector('#verdict-words').textContent`); got != "Not guilty" {
		t.Errorf("verdict shown as %q; want Not guilty", got)
	}
	if got := evalIn[string](d, `document.querySelector('#verdict-justification').textContent`); !strings.HasPrefix(got, "The only link") {
		t.Errorf("justification = %q", got)
	}
	href := evalIn[string](d, `document.querySelector('#transcript-link').href`)
	if !strings.HasSuffix(href, "/api/court/games/g1/transcript") || evalIn[string](d, `document.querySelector('#transcript-link').getAttribute('download')`) != "llm-court-g1.json" {
		t.Errorf("transcript link = %q", href)
	}
	res, err := http.Get(href)
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		Outcome string            `json:"outcome"`
		Turns   []json.RawMessage `json:"turns"`
	}
	err = json.NewDecoder(res.Body).Decode(&tr)
	res.Body.Close()
	if err != nil || tr.Outcome != "win" || len(tr.Turns) != 9 {
		t.Errorf("transcript: outcome %q, %d turns, err %v; want win, 9 turns", tr.Outcome, len(tr.Turns), err)
	}
	if n := evalIn[int](d, `document.querySelectorAll('#turns li.turn').length`); n != 9 {
		t.Errorf("the page shows %d turns; want the transcript's 9", n)
	}
	d.do("judge", chromedp.Click(chromedp.ID("judge-btn")))
	d.until("the scores", `document.querySelectorAll('#scores li.score').length === 4`)
	if got := evalIn[string](d, `document.querySelector('#scores li.score .score-val').textContent`); got != "0.82" {
		t.Errorf("overall QS shown as %q; want 0.82", got)
	}
	d.shoot("verdict")

	// A reload shows the finished game from the server's page and the API.
	d.do("reload", chromedp.Reload())
	d.until("the verdict after a reload", `!document.querySelector('#verdict').hidden && document.querySelector('#verdict-summary').textContent !== '' && document.querySelectorAll('#turns li.turn').length === 9`)

	// Load game lists it as won.
	d.do("menu", chromedp.Navigate(base+"/court#load"))
	d.until("the saved games", `document.querySelectorAll('#game-list tr').length === 1`)
	if got := evalIn[string](d, `document.querySelector('#game-list tr td:last-child').textContent`); got != "Won" {
		t.Errorf("saved game outcome = %q; want Won", got)
	}
	d.shoot("load")

	if p := d.problems(); len(p) != 0 {
		t.Errorf("page problems (CSP violations or script errors): %q", p)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(dialogs) != 0 {
		t.Errorf("dialogs opened: %q; want none", dialogs)
	}
}

// TestCourtBrowserOffersARestart: an error event with restart true shows its message as
// text and a Restart button; the button asks the server and the trial starts again.
func TestCourtBrowserOffersARestart(t *testing.T) {
	ctx := courtBrowser(t)
	court, base := serveFakeCourt(t)
	court.failOnce = true
	d := &courtDriver{t: t, ctx: ctx, shots: t.TempDir()}
	d.do("open the menu", chromedp.Navigate(base+"/court"))
	d.until("the docket", `document.querySelectorAll('#case-list .case-card').length === 2`)
	d.do("begin", chromedp.Click(chromedp.CSS(`#case-list .case-card .btn-primary`)))
	d.until("the restart offer", `document.querySelector('#restart-btn') !== null`)
	if got := evalIn[string](d, `document.querySelector('#trial-error p').textContent`); got != "The prosecutor repeated itself word for word "+hostileText {
		t.Errorf("error shown as %q; want the raw message", got)
	}
	if on := evalIn[bool](d, `!document.querySelector('#defense-text').disabled`); on {
		t.Error("the text box is enabled after a failure")
	}
	d.do("restart", chromedp.Click(chromedp.ID("restart-btn")))
	d.until("the restarted introduction", `document.querySelectorAll('#turns li.turn.final').length === 2 && !document.querySelector('#defense-text').disabled && document.querySelector('#trial-error').hidden`)
	court.mu.Lock()
	defer court.mu.Unlock()
	if court.restarts != 1 {
		t.Errorf("the server saw %d restarts; want 1", court.restarts)
	}
}
