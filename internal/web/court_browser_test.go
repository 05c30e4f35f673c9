package web

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/arbiter-eval/arbiter/internal/web/webtest"
)

// courtBrowser is a tab of webtest's headless chromium for one test.
func courtBrowser(t *testing.T) context.Context { return webtest.Browser(t, 3*time.Minute) }

// watchScript runs before each page's own scripts (CDP scripts are outside the CSP):
// it records CSP violations and script errors, which the test asserts are none.
const watchScript = `window.__problems = [];
document.addEventListener('securitypolicyviolation', e => window.__problems.push('CSP ' + e.violatedDirective + ' ' + e.blockedURI));
window.addEventListener('error', e => window.__problems.push('error ' + e.message));
window.addEventListener('unhandledrejection', e => window.__problems.push('rejection ' + e.reason));
window.__witnessShown = 0;
new MutationObserver(() => {
  if (window.__witnessShown) return;
  const t = document.querySelector('#turns li.role-witness .text');
  if (t && t.textContent.trim() !== '') window.__witnessShown = performance.timeOrigin + performance.now();
}).observe(document, {subtree: true, childList: true, characterData: true});`

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
		// A navigation (a reload after a restart, say) ends a poll early, or makes it
		// evaluate in a context that is gone: poll again on the new page.
		again := strings.Contains(err.Error(), "navigated") || strings.Contains(err.Error(), "Cannot find context with specified id")
		if !again || time.Now().After(deadline) {
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

// hostileGenerator drafts the lantern case with markup in its title and a witness's
// name, or fails with problems when the prior asks for it.
func hostileGenerator(t testing.TB) GenerateCaseFunc {
	return func(_ context.Context, prior string, _ llm.ModelName) (*court.Case, []string, error) {
		if strings.Contains(prior, "fail") {
			return nil, []string{"witnesses[1].knows: must not be empty", "evidence: " + hostileText}, nil
		}
		c := lanternCase(t)
		c.Title = "The " + hostileText + " Affair"
		c.Witnesses[0].Name = "Tomas " + hostileText
		c.Prior = prior
		return c, nil, nil
	}
}

// shotsDir is COURT_SHOTS when set (created), else a temp dir of the test.
func shotsDir(t *testing.T) string {
	shots := os.Getenv("COURT_SHOTS")
	if shots == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	return shots
}

// TestCourtBrowserPlaysATrial plays a whole game against the real server, its court
// played by the stand-in, in chromium: the menu, a generated case (its errors first)
// saved to the docket, a new game whose introduction streams, a question to a witness
// and its answer, rest, closing, the verdict,
// the transcript downloaded and read by check's parser, and the quality scores; model
// and player text with markup stays text throughout. It logs the time from the
// stand-in starting the witness's reply to its text in the page. COURT_SHOTS=DIR keeps
// the screenshots there.
func TestCourtBrowserPlaysATrial(t *testing.T) {
	ctx := courtBrowser(t)
	r := newCourtRig(t, rigOptions{generate: hostileGenerator(t)})
	base := r.base
	d := &courtDriver{t: t, ctx: ctx, shots: shotsDir(t)}
	var witnessAsked atomic.Int64 // Unix µs of the first request after the question

	dialogs := webtest.Dialogs(ctx, nil)
	d.do("start the browser", chromedp.Navigate("about:blank"))
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: watchScript}); err != nil {
		t.Fatalf("install the page watcher: %v", err)
	}

	// Menu: the docket lists the five bundled cases; the model list comes from the server
	// (generation offers the judge's models: here its default alone).
	d.do("open the menu", chromedp.Navigate(base+"/court"))
	d.until("the docket", `document.querySelectorAll('#case-list .case-card').length === 5`)
	d.until("the model list", `document.querySelectorAll('#gen-model option').length === 2`)
	if n := evalIn[int](d, `document.querySelectorAll('#no-model').length`); n != 0 {
		t.Error("the menu says the court has no model")
	}
	d.shoot("menu")

	// Options persist in localStorage.
	d.do("open options", chromedp.Click(chromedp.CSS(`[data-panel=options]`)))
	d.do("name", chromedp.SendKeys(chromedp.ID("opt-name"), "Ada Marsh"))
	d.do("avatar", chromedp.Click(chromedp.CSS(`label[for=avatar-avatar-c]`)))
	d.shoot("options")
	d.do("save options", chromedp.Click(chromedp.CSS(`#options-form button[type=submit]`)))
	if got := evalIn[string](d, `JSON.parse(localStorage.getItem('llm-court.options')).name + '/' + JSON.parse(localStorage.getItem('llm-court.options')).avatar`); got != "Ada Marsh/avatar-c" {
		t.Errorf("saved options = %q; want Ada Marsh/avatar-c", got)
	}

	// Case generation: errors are shown plainly, then a case appears as a case file.
	d.do("open generate", chromedp.Click(chromedp.CSS(`[data-panel=generate]`)))
	d.do("prior", chromedp.SendKeys(chromedp.ID("gen-prior"), "please fail"))
	d.do("generate", chromedp.Click(chromedp.ID("gen-go")))
	d.until("the generation errors", `document.querySelector('#gen-status').classList.contains('notice-bad')`)
	if got := evalIn[string](d, `document.querySelector('#gen-status').textContent`); !strings.Contains(got, "witnesses[1].knows: must not be empty") || !strings.Contains(got, hostileText) {
		t.Errorf("generation errors shown as %q", got)
	}
	d.do("clear prior", chromedp.SetValue(chromedp.ID("gen-prior"), "a theft at the harbour"))
	d.do("generate again", chromedp.Click(chromedp.ID("gen-go")))
	d.until("the generated case", `document.querySelector('#gen-result .case-title') !== null`)
	if got := evalIn[string](d, `document.querySelector('#gen-result .case-title').textContent`); got != "The "+hostileText+" Affair" {
		t.Errorf("generated case title = %q; want the raw text", got)
	}
	d.shoot("generate")
	d.do("save the case", chromedp.Click(chromedp.ID("gen-save")))
	d.until("the saved notice", `!document.querySelector('#gen-begin').hidden`)
	if _, err := r.st.CourtCase(context.Background(), "lantern-theft"); err != nil {
		t.Fatalf("the saved case is not in the store: %v", err)
	}

	// New game on the saved case, which follows the bundled ones on the docket.
	d.do("open new game", chromedp.Click(chromedp.CSS(`[data-panel=new]`)))
	d.until("the docket with the saved case", `document.querySelectorAll('#case-list .case-card').length === 6`)
	if got := evalIn[string](d, `document.querySelector('#case-list .case-card:last-of-type > h3').textContent`); got != "The "+hostileText+" Affair" {
		t.Errorf("saved case title shown as %q; want the raw text", got)
	}
	d.do("begin", chromedp.Click(chromedp.CSS(`#case-list .case-card:last-of-type .btn-primary`)))
	d.until("the game page", `document.body.dataset.page === 'game'`)
	d.until("the introduction and the floor", `document.querySelectorAll('#turns li.turn.final').length === 2 && !document.querySelector('#defense-text').disabled`)
	gameURL := evalIn[string](d, `location.href`)
	id := gameURL[strings.LastIndex(gameURL, "/")+1:]
	if p := r.peek(id).Player; p.Name != "Ada Marsh" || p.Avatar != "avatar-c" {
		t.Errorf("the game's player = %+v; want the options' name and avatar", p)
	}
	if got := evalIn[string](d, `Array.from(document.querySelectorAll('#turns li.turn')).map(li => li.dataset.role).join(',')`); got != "judge,prosecutor" {
		t.Errorf("turns shown: %q; want judge,prosecutor", got)
	}
	// XSS: the prosecutor's text is shown as text; no element came of it.
	if got := evalIn[string](d, `document.querySelectorAll('#turns li.turn .text')[1].textContent`); !strings.Contains(got, hostileText) {
		t.Errorf("prosecutor's text = %q; want it to hold the raw %q", got, hostileText)
	}
	if got := evalIn[string](d, `document.querySelector('#case-title').textContent`); got != "The "+hostileText+" Affair" {
		t.Errorf("the courtroom's case title = %q; want the raw text", got)
	}
	if n := evalIn[int](d, `document.querySelectorAll('img[src="x"], img:not([src^="/static/"])').length + document.scripts.length - 1`); n != 0 {
		t.Errorf("the page has %d stray img or script elements", n)
	}

	// Opening statement with markup: Enter sends; the court moves to the interrogation.
	d.do("opening", chromedp.SendKeys(chromedp.ID("defense-text"), "The defense will show "+hostileText+kb.Enter))
	d.until("the interrogation", `document.body.dataset.phase === 'interrogation' && !document.querySelector('#defense-text').disabled`)
	if got := evalIn[string](d, `document.querySelector('#turns li.player .text').textContent`); got != "The defense will show "+hostileText {
		t.Errorf("the player's turn shown as %q; want the raw text", got)
	}

	// A question to a witness from the page: the witness answers.
	before := evalIn[int](d, `document.querySelectorAll('#turns li.role-witness').length`)
	var once sync.Once
	d.do("reset the timer", chromedp.Evaluate[chromedp.Void](`window.__witnessShown = 0; document.querySelectorAll('#turns li.role-witness').forEach(li => li.classList.remove('role-witness'))`))
	hook := func() { once.Do(func() { witnessAsked.Store(time.Now().UnixMicro()) }) }
	r.firstByte.Store(&hook)
	d.do("address the witness", chromedp.SetValue(chromedp.ID("defense-to"), "Witness_nell"))
	d.do("question", chromedp.SendKeys(chromedp.ID("defense-text"), "Witness, who pawned the lantern?"+kb.Enter))
	d.until("the witness's answer", `document.querySelectorAll('#turns li.turn.final[data-role=witness]').length > `+itoa(before)+` && !document.querySelector('#defense-text').disabled && document.querySelector('#defense-text').value === ''`)
	r.firstByte.Store(nil)
	if shown := evalIn[float64](d, `window.__witnessShown`); shown > 0 && witnessAsked.Load() > 0 {
		// The stand-in's first byte follows the Responder call, so this is an upper bound.
		t.Logf("first streamed byte to text in the page: %.1f ms (the first request after the question, to its text in the page)", shown-float64(witnessAsked.Load())/1000)
	}
	if got := evalIn[string](d, `document.querySelector('#defense-text').value + '|' + document.querySelector('#defense-count').textContent`); got != "|0 / 4,000" {
		t.Errorf("after the question the text box and counter read %q; want an empty box and 0 / 4,000 (status %q, turns %s)", got,
			evalIn[string](d, `document.querySelector('#form-status').textContent`),
			evalIn[string](d, `Array.from(document.querySelectorAll('#turns li.turn')).map(li => li.dataset.role + ':' + li.querySelector('.text').textContent.slice(0, 30)).join(' | ')`))
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
	d.do("closing", chromedp.SendKeys(chromedp.ID("defense-text"), "Nobody saw her face; the pawn ticket names another."+kb.Enter))
	d.until("the verdict", `!document.querySelector('#verdict').hidden && document.querySelector('#verdict-summary').textContent !== ''`)
	if got := evalIn[string](d, `document.querySelector('#verdict-words').textContent`); got != "Not guilty" {
		t.Errorf("verdict shown as %q; want Not guilty", got)
	}
	if got := evalIn[string](d, `document.querySelector('#verdict-justification').textContent`); !strings.HasPrefix(got, "No witness placed") {
		t.Errorf("justification = %q", got)
	}

	// The transcript, downloaded as the link gives it, is a transcript check reads.
	href := evalIn[string](d, `document.querySelector('#transcript-link').href`)
	if !strings.HasSuffix(href, "/api/court/games/"+id+"/transcript") {
		t.Errorf("transcript link = %q", href)
	}
	// With the browser's cookie: the game's token is how the link opens.
	got, err := chromedp.Call(d.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{href}})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", href, nil)
	for _, c := range got.Cookies {
		req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
	}
	if res, err := http.Get(href); err == nil {
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("the transcript without the game's cookie = %d; want 403", res.StatusCode)
		}
		res.Body.Close()
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if cd := res.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment") {
		t.Errorf("the transcript is not a download: Content-Disposition %q", cd)
	}
	path := filepath.Join(t.TempDir(), "llm-court-"+id+".json")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	ts, err := check.LoadTranscripts(path)
	if err != nil {
		t.Fatalf("check cannot read the downloaded transcript: %v", err)
	}
	game := r.peek(id)
	if len(ts[0].Turns) != len(game.Turns) || ts[0].Outcome != "win" {
		t.Errorf("transcript: %d turns, outcome %q; the game has %d turns and won", len(ts[0].Turns), ts[0].Outcome, len(game.Turns))
	}
	if n := evalIn[int](d, `document.querySelectorAll('#turns li.turn').length`); n != len(game.Turns) {
		t.Errorf("the page shows %d turns; want the game's %d", n, len(game.Turns))
	}
	if n := evalIn[int](d, `document.querySelectorAll('img[src="x"], img:not([src^="/static/"])').length + document.scripts.length - 1`); n != 0 {
		t.Errorf("the verdict page has %d stray img or script elements", n)
	}
	d.do("judge", chromedp.Click(chromedp.ID("judge-btn")))
	d.until("the scores", `document.querySelectorAll('#scores li.score').length === 2`)
	d.shoot("verdict")

	// A reload shows the finished game from the server's page and the API.
	d.do("reload", chromedp.Reload())
	d.until("the verdict after a reload", `!document.querySelector('#verdict').hidden && document.querySelector('#verdict-summary').textContent !== '' && document.querySelectorAll('#turns li.turn').length === `+itoa(len(game.Turns)))

	// Load game lists it as won.
	d.do("menu", chromedp.Navigate(base+"/court#load"))
	d.until("the saved games", `document.querySelectorAll('#game-list tr').length === 1`)
	if got := evalIn[string](d, `document.querySelector('#game-list tr td:last-child').textContent`); got != "Won" {
		t.Errorf("saved game outcome = %q; want Won", got)
	}
	if got := evalIn[string](d, `document.querySelector('#game-list tr').textContent`); !strings.Contains(got, hostileText) {
		t.Errorf("saved game title shown as %q; want the raw text", got)
	}
	d.shoot("load")
	if n := evalIn[int](d, `document.querySelectorAll('img[src="x"], img:not([src^="/static/"])').length + document.scripts.length - 1`); n != 0 {
		t.Errorf("the load page has %d stray img or script elements", n)
	}

	if p := d.problems(); len(p) != 0 {
		t.Errorf("page problems (CSP violations or script errors): %q", p)
	}
	if ds := dialogs(); len(ds) != 0 {
		t.Errorf("dialogs opened: %q; want none", ds)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestCourtBrowserOffersARestart: a model failure shows its message as text and a
// Restart button; the button asks the server and the trial starts again.
func TestCourtBrowserOffersARestart(t *testing.T) {
	ctx := courtBrowser(t)
	r := newCourtRig(t, rigOptions{})
	r.saveLantern()
	r.failOnce.Store(true)
	d := &courtDriver{t: t, ctx: ctx, shots: shotsDir(t)}
	d.do("open the menu", chromedp.Navigate(r.base+"/court"))
	d.until("the docket", `document.querySelectorAll('#case-list .case-card').length === 6`)
	d.do("begin", chromedp.Click(chromedp.CSS(`#case-list .case-card .btn-primary`)))
	d.until("the restart offer", `document.querySelector('#restart-btn') !== null`)
	d.shoot("failure")
	if got := evalIn[string](d, `document.querySelector('#trial-error p').textContent`); !strings.Contains(got, "The model playing the prosecutor said nothing.") {
		t.Errorf("error shown as %q; want the engine's plain sentence", got)
	}
	if on := evalIn[bool](d, `!document.querySelector('#defense-text').disabled`); on {
		t.Error("the text box is enabled after a failure")
	}
	d.do("restart", chromedp.Click(chromedp.ID("restart-btn")))
	d.until("the restarted introduction", `document.querySelectorAll('#turns li.turn.final').length === 2 && !document.querySelector('#defense-text').disabled && document.querySelector('#trial-error').hidden`)
	gameURL := evalIn[string](d, `location.href`)
	if v := r.peek(gameURL[strings.LastIndex(gameURL, "/")+1:]); !v.AwaitingDefense || v.Phase != court.PhaseIntroduction {
		t.Errorf("after the restart the game is %+v", v)
	}
}

// TestCourtBrowserMenuWithoutAModel: with no court model the menu says, as text, how
// to give it one (a screenshot shows how it looks).
func TestCourtBrowserMenuWithoutAModel(t *testing.T) {
	ctx := courtBrowser(t)
	r := newCourtRig(t, rigOptions{noCourt: true})
	d := &courtDriver{t: t, ctx: ctx, shots: shotsDir(t)}
	d.do("open the menu", chromedp.Navigate(r.base+"/court"))
	d.until("the hint", `document.querySelector('#no-model') !== null`)
	if got := evalIn[string](d, `document.querySelector('#no-model').textContent`); !strings.Contains(got, "--court-model ollama/llama3.1:8b") || !strings.Contains(got, "OPENAI_API_KEY") {
		t.Errorf("the hint reads %q", got)
	}
	d.shoot("menu-no-model")
}
