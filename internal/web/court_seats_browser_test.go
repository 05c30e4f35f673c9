package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// Browser tests of every seat (issue 32): the prosecution's game, a watched trial seen
// from two browsers, and the voices. COURT_SHOTS=DIR keeps the screenshots.

// seatsOptions are the page's options for these tests: lines shown at once, no sound.
const seatsOptions = `localStorage.setItem('llm-court.options', JSON.stringify({textSpeed: 'instant', auto: true, sound: false}))`

// onNewDocument runs src before every page's own scripts in the tab of ctx.
func onNewDocument(t *testing.T, d *courtDriver, src string) {
	t.Helper()
	d.do("start the browser", chromedp.Navigate("about:blank"))
	if _, err := chromedp.Call(d.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		t.Fatal(err)
	}
}

// finals are the texts of the page's finished lines, in order.
const finals = `Array.from(document.querySelectorAll('#turns li.turn.final')).map(li => li.querySelector('.text').textContent)`

// TestCourtBrowserProsecution plays a game as the prosecution in chromium against the
// stand-in court: the side is chosen in the menu (and kept), the player sits in the
// prosecutor's seat, the defense's lines come from the defense model, and every move the
// page makes (opening, question, rest, closing) reaches the game through the
// prosecution's floor: the game's player turns are exactly the Prosecutor's lines typed.
func TestCourtBrowserProsecution(t *testing.T) {
	ctx := courtBrowser(t)
	r := newCourtRig(t, rigOptions{offers: defenseOffer})
	r.saveLantern()
	d := &courtDriver{t: t, ctx: ctx, shots: shotsDir(t)}
	onNewDocument(t, d, watchScript)
	d.do("open the menu", chromedp.Navigate(r.base+"/court"))
	d.do("options", chromedp.Evaluate[chromedp.Void](seatsOptions))
	d.do("reload", chromedp.Reload())
	d.until("the docket", `document.querySelector('#case-list .case-card[data-case="lantern-theft"]') !== null`)
	d.do("choose the prosecution", chromedp.Click(chromedp.ID("side-prosecution")))
	d.until("the side kept", `JSON.parse(localStorage.getItem('llm-court.options')).side === 'prosecution' && document.querySelector('#player-card .player-role').textContent === 'Prosecution'`)
	d.shoot("side-choice")
	d.do("begin", chromedp.Click(chromedp.CSS(`#case-list .case-card[data-case="lantern-theft"] .btn-primary`)))
	d.until("the game page as the prosecution", `document.body.dataset.page === 'game' && document.body.dataset.side === 'prosecution'`)
	if got := evalIn[string](d, `document.querySelector('.seat.mine').dataset.role`); got != "prosecutor" {
		t.Errorf("the player's seat is %q; want the prosecutor's", got)
	}
	floor := func(what string) {
		t.Helper()
		d.until(what, `!document.querySelector('#defense-text').disabled && !document.querySelector('#turns li.streaming:not(.final)')`)
	}
	floor("the floor")
	if got := evalIn[string](d, `document.querySelector('#defense-text').placeholder`); !strings.Contains(got, "prosecution") {
		t.Errorf("placeholder %q", got)
	}
	typed := []string{"The people will prove she took the lantern.", "Who pawned the lantern?", "The pawn ticket speaks for itself."}
	d.do("opening", chromedp.SendKeys(chromedp.ID("defense-text"), typed[0]+kb.Enter))
	floor("the interrogation")
	if n := evalIn[int](d, `document.querySelectorAll('#defense-to option[value="Defense"]').length`); n != 1 {
		t.Errorf("the Address menu offers the defense %d times", n)
	}
	d.do("address Nell", chromedp.SetValue(chromedp.ID("defense-to"), "Witness_nell"))
	d.do("question", chromedp.SendKeys(chromedp.ID("defense-text"), typed[1]+kb.Enter))
	floor("Nell's answer")
	d.shoot("prosecution-game")
	if got := evalIn[string](d, `document.querySelector('#rest-btn').textContent`); got != "Rest the prosecution" {
		t.Errorf("rest button %q", got)
	}
	d.do("rest", chromedp.Click(chromedp.ID("rest-btn")))
	d.do("confirm rest", chromedp.Click(chromedp.ID("rest-btn")))
	floor("the floor after the rest")
	// The prosecution closes first: the floor after its rest is the closing's.
	d.until("the closing", `document.body.dataset.phase === 'closing' && document.querySelector('#defense-text').placeholder.includes('closing')`)
	d.do("closing", chromedp.SendKeys(chromedp.ID("defense-text"), typed[2]+kb.Enter))
	d.until("the verdict scene", `!document.querySelector('#verdict').hidden && document.querySelector('#verdict-words').textContent !== ''`)
	time.Sleep(2 * time.Second) // the gavel and the stamp
	d.shoot("prosecution-verdict")

	// The page: the defense's lines are the defense model's; the player's are the
	// prosecutor's.
	defense := evalIn[[]string](d, `Array.from(document.querySelectorAll('#turns li.turn.role-defense .text')).map(n => n.textContent)`)
	if len(defense) == 0 {
		t.Fatal("no defense line on the page")
	}
	for _, l := range defense {
		if !strings.Contains(l, "(defense, turn") {
			t.Errorf("a defense line not from the defense model: %q", l)
		}
	}
	roles := evalIn[[]string](d, `Array.from(document.querySelectorAll('#turns li.turn.player')).map(li => li.dataset.role)`)
	if len(roles) != 4 { // the three typed and the rest
		t.Errorf("the page marks %d lines as the player's; want 4", len(roles))
	}
	for _, role := range roles {
		if role != "prosecutor" {
			t.Errorf("the page marks a line of the %s as the player's", role)
		}
	}
	// The game: its player turns are the Prosecutor's, the texts the page sent (and the
	// rest, which the page posts to /rest).
	id := evalIn[string](d, `document.body.dataset.gameId`)
	v := r.peek(id)
	if v.Side != court.SideProsecution || v.Outcome == nil {
		t.Fatalf("view side %q outcome %v", v.Side, v.Outcome)
	}
	var mine []string
	for _, tu := range v.Turns {
		if tu.Player {
			if tu.Role != check.RoleProsecutor {
				t.Errorf("a player turn of the %s: %q", tu.Role, tu.Text)
			}
			mine = append(mine, tu.Text)
		}
	}
	if len(mine) != 4 || mine[0] != typed[0] || mine[1] != typed[1] || mine[3] != typed[2] || !strings.Contains(mine[2], "rest") {
		t.Errorf("the player's turns %q; want %q with the rest before the closing", mine, typed)
	}
	if p := d.problems(); len(p) != 0 {
		t.Errorf("page problems: %q", p)
	}
}

// TestCourtBrowserWatch starts a watched trial from the menu in one browser and opens
// its watch link in a second browser context (no cookie: only the link's token): both
// pages show every line of the trial; the owner's tab has the pace controls, the
// watcher's none (and its token cannot pause); pause from the owner's tab stops the
// trial (no more lines, no model asked) and skip-to-verdict ends it on both pages.
func TestCourtBrowserWatch(t *testing.T) {
	ctx := courtBrowser(t)
	r := newCourtRig(t, rigOptions{offers: defenseOffer})
	r.saveLantern()
	release := r.holdWitness() // the trial waits at its first witness
	a := &courtDriver{t: t, ctx: ctx, shots: shotsDir(t)}
	onNewDocument(t, a, watchScript)
	a.do("open the menu", chromedp.Navigate(r.base+"/court#watch"))
	a.do("options", chromedp.Evaluate[chromedp.Void](seatsOptions))
	a.until("the watch panel's docket", `!document.querySelector('#panel-watch').hidden && document.querySelector('#watch-case option[value="lantern-theft"]') !== null`)
	a.do("pick the case", chromedp.SetValue(chromedp.ID("watch-case"), "lantern-theft"))
	a.do("advanced", chromedp.Click(chromedp.CSS(`#watch-advanced summary`)))
	// The defense's select offers the server's default and the models GET
	// /api/court/models offers for the defense, and nothing else (another role's model
	// would be refused).
	a.until("the models loaded", `document.querySelectorAll('#watch-judge option').length > 1`)
	offered := evalIn[[]string](a, `Array.from(document.querySelectorAll('#watch-defense option')).slice(1).map(o => o.value)`)
	_, models := r.do(http.MethodGet, "/api/court/models", nil)
	defenseOffers := fmt.Sprint(models["offers"].(map[string]any)["defense"])
	if got := fmt.Sprint(offered); got != defenseOffers || len(offered) == 0 {
		t.Errorf("the defense's select offers %s; want the server's defense offers %s", got, defenseOffers)
	}
	a.shoot("watch-menu")
	a.do("watch", chromedp.Click(chromedp.ID("watch-go")))
	a.until("the owner's watch page", `document.body.dataset.page === 'game' && document.body.dataset.watchRole === 'owner' && !document.querySelector('#watch-controls').hidden`)
	if !evalIn[bool](a, `document.querySelector('#defense-form').hidden`) {
		t.Error("a watched trial shows the player's form")
	}
	link := evalIn[string](a, `document.querySelector('#watch-link').value`)
	if !strings.Contains(link, "?token=") {
		t.Fatalf("watch link %q", link)
	}
	id := evalIn[string](a, `document.body.dataset.gameId`)

	// The second browser: a new context, so no cookie of the owner's.
	bctx, cancel := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	defer cancel()
	b := &courtDriver{t: t, ctx: bctx, shots: a.shots}
	onNewDocument(t, b, watchScript)
	b.do("open the watch link", chromedp.Navigate(link))
	b.until("the watcher's page", `document.body.dataset.watchRole === 'watcher' && document.querySelector('#watch-controls').hidden && document.querySelector('#defense-form').hidden`)
	r.waitHeld()
	both := `document.querySelectorAll('#turns li.turn.final').length`
	b.until("the lines so far", both+` >= 1`)
	b.shoot("watch-viewer")
	b.do("the watcher tries to pause", chromedp.Evaluate[chromedp.Void](`fetch('/api/court/games/`+id+`/pause', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{}'}).then(r => { window.__pauseStatus = r.status; })`))
	b.until("the watcher's pause answered", `window.__pauseStatus !== undefined`)
	if code := evalIn[int](b, `window.__pauseStatus`); code != 403 {
		t.Errorf("the watcher's pause = %d; want 403", code)
	}

	// Pause from the owner's tab, then let the witness answer: the trial stops after it.
	a.do("pause", chromedp.Click(chromedp.ID("pause-btn")))
	a.until("paused", `document.querySelector('#pause-btn').textContent === 'Resume' && document.body.classList.contains('paused')`)
	if v := r.peek(id); !v.Paused {
		t.Fatalf("the server's trial is not paused: %+v", v)
	}
	release()
	// The witness's turn ends; then the trial rests paused: wait for it to settle.
	a.until("the witness's line ended", `document.querySelectorAll('#turns li.turn.role-witness.final').length >= 1 && !document.querySelector('#turns li.streaming:not(.final)')`)
	n, asked := -1, int64(-1)
	for deadline := time.Now().Add(20 * time.Second); ; {
		n1, asked1 := len(r.peek(id).Turns), r.asked.Load()
		if n1 == n && asked1 == asked {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("paused, the trial never settled: %d turns", n1)
		}
		n, asked = n1, asked1
		time.Sleep(400 * time.Millisecond)
	}
	if v := r.peek(id); v.Outcome != nil || !v.Paused {
		t.Fatalf("the paused trial ran on to its verdict: %+v", v)
	}
	a.until("the owner's page up to date", both+` === `+itoa(n))
	b.until("the watcher's page up to date", both+` === `+itoa(n))
	a.shoot("watch-owner-paused")
	time.Sleep(600 * time.Millisecond)
	if got := len(r.peek(id).Turns); got != n || r.asked.Load() != asked {
		t.Errorf("paused, the trial went on: %d turns (was %d), %d more calls", got, n, r.asked.Load()-asked)
	}
	if got := evalIn[int](b, both); got != n {
		t.Errorf("paused, the watcher's page shows %d lines; want %d", got, n)
	}

	// Skip to the verdict from the owner's tab: both pages get it.
	a.do("skip", chromedp.Click(chromedp.ID("skip-btn")))
	verdict := `!document.querySelector('#verdict').hidden && document.querySelector('#verdict-words').textContent !== ''`
	a.until("the owner's verdict", verdict)
	b.until("the watcher's verdict", verdict)
	v := r.peek(id)
	if v.Outcome == nil {
		t.Fatalf("no verdict after the skip: %+v", v)
	}
	var want []string
	for _, tu := range v.Turns {
		want = append(want, tu.Text)
	}
	for _, dr := range []*courtDriver{a, b} {
		dr.until("every line", both+` === `+itoa(len(want)))
		if got := evalIn[[]string](dr, finals); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("a page's lines differ from the trial's:\n%q\n%q", got, want)
		}
		if p := dr.problems(); len(p) != 0 {
			t.Errorf("page problems: %q", p)
		}
	}
	time.Sleep(2 * time.Second)
	b.shoot("watch-viewer-verdict")
}

// speechStub replaces the browser's speech synthesis before the page's scripts run: it
// records every speak (the text and the voice, pitch and rate set) and every cancel.
const speechStub = `window.__speech = {calls: [], cancels: 0};
(() => {
  const voices = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot'].map((name, i) => ({name, lang: i % 2 ? 'en-GB' : 'en-US', default: i === 0, localService: true, voiceURI: name}));
  class Utterance { constructor(text) { this.text = text; this.voice = null; this.pitch = 1; this.rate = 1; this.volume = 1; } }
  const synth = {
    speaking: false, pending: false, paused: false,
    speak(u) { window.__speech.calls.push({text: u.text, voice: u.voice ? u.voice.name : '', pitch: u.pitch, rate: u.rate}); },
    cancel() { window.__speech.cancels++; },
    getVoices() { return voices; },
    pause() {}, resume() {}, addEventListener() {}, removeEventListener() {},
  };
  Object.defineProperty(window, 'speechSynthesis', {value: synth, configurable: true});
  Object.defineProperty(window, 'SpeechSynthesisUtterance', {value: Utterance, configurable: true, writable: true});
})();`

// TestCourtBrowserVoices plays a defense game with the voices on: every line is spoken
// once, when whole, with the voice settings of its speaker, the same for a person all
// trial long and different between the roles; "Hold it!" while a witness speaks cancels
// the voice; with the voices off (the default) nothing is spoken.
func TestCourtBrowserVoices(t *testing.T) {
	ctx := courtBrowser(t)
	r := newCourtRig(t, rigOptions{})
	r.saveLantern()
	d := &courtDriver{t: t, ctx: ctx, shots: shotsDir(t)}
	onNewDocument(t, d, watchScript+"\n"+speechStub)
	d.do("open the menu", chromedp.Navigate(r.base+"/court#options"))
	d.until("the options", `!document.querySelector('#panel-options').hidden`)
	if evalIn[bool](d, `document.querySelector('#opt-voices').checked`) {
		t.Error("voices are on by default")
	}
	d.do("options", chromedp.Evaluate[chromedp.Void](seatsOptions))
	d.do("reload", chromedp.Reload())
	d.until("the options", `!document.querySelector('#panel-options').hidden && document.querySelector('#opt-speed').value === 'instant'`)
	d.do("voices on", chromedp.Click(chromedp.ID("opt-voices")))
	d.do("save", chromedp.Click(chromedp.CSS(`#options-form button[type=submit]`)))
	d.until("kept", `JSON.parse(localStorage.getItem('llm-court.options')).voices === true`)
	d.do("the docket", chromedp.Click(chromedp.CSS(`[data-panel=new]`)))
	d.until("the docket", `document.querySelector('#case-list .case-card[data-case="lantern-theft"]') !== null`)
	d.do("begin", chromedp.Click(chromedp.CSS(`#case-list .case-card[data-case="lantern-theft"] .btn-primary`)))
	d.until("the game page", `document.body.dataset.page === 'game'`)
	if got := evalIn[string](d, `document.querySelector('#voices-btn').textContent`); got != "Voices on" {
		t.Errorf("voices button %q", got)
	}
	floor := func(what string) {
		t.Helper()
		d.until(what, `!document.querySelector('#defense-text').disabled && !document.querySelector('#turns li.streaming:not(.final)')`)
	}
	floor("the floor")
	d.do("opening", chromedp.SendKeys(chromedp.ID("defense-text"), "The defense will show reasonable doubt."+kb.Enter))
	floor("the interrogation")
	release := r.holdWitness()
	d.do("address Tomas", chromedp.SetValue(chromedp.ID("defense-to"), "Witness_tomas"))
	d.do("question", chromedp.SendKeys(chromedp.ID("defense-text"), "What did you see?"+kb.Enter))
	r.waitHeld()
	d.until("Hold it! possible", `!document.querySelector('#hold-btn').disabled`)
	before := evalIn[int](d, `window.__speech.cancels`)
	d.do("hold it", chromedp.Click(chromedp.ID("hold-btn")))
	if got := evalIn[int](d, `window.__speech.cancels`); got <= before {
		t.Errorf("Hold it! did not cancel the voice (cancels %d, before %d)", got, before)
	}
	release()
	floor("the floor after the hold")
	d.do("rest", chromedp.Click(chromedp.ID("rest-btn")))
	d.do("confirm rest", chromedp.Click(chromedp.ID("rest-btn")))
	d.until("the closing", `document.body.dataset.phase === 'closing' && !document.querySelector('#defense-text').disabled`)
	d.do("closing", chromedp.SendKeys(chromedp.ID("defense-text"), "Tomas could not have seen her face."+kb.Enter))
	d.until("the verdict scene", `!document.querySelector('#verdict').hidden`)

	type call struct {
		Text, Voice string
		Pitch, Rate float64
	}
	type line struct{ Text, Role, Speaker string }
	calls := evalIn[[]call](d, `window.__speech.calls`)
	lines := evalIn[[]line](d, `Array.from(document.querySelectorAll('#turns li.turn.final')).map(li => ({Text: li.querySelector('.text').textContent, Role: li.dataset.role, Speaker: li.dataset.speaker}))`)
	var spoken []line
	for _, l := range lines {
		if strings.TrimSpace(l.Text) != "" {
			spoken = append(spoken, l)
		}
	}
	if len(calls) != len(spoken) {
		t.Fatalf("%d lines spoken for %d lines", len(calls), len(spoken))
	}
	bySpeaker := map[string]call{}
	byRole := map[string]call{}
	for i, c := range calls {
		l := spoken[i]
		if c.Text != strings.TrimSpace(l.Text) {
			t.Errorf("speak %d = %q; want line %q", i, c.Text, l.Text)
		}
		if c.Voice == "" || c.Pitch <= 0 || c.Rate <= 0 {
			t.Errorf("speak %d has no voice settings: %+v", i, c)
		}
		c.Text = ""
		if prev, ok := bySpeaker[l.Speaker]; ok && prev != c {
			t.Errorf("%s's voice changed: %+v then %+v", l.Speaker, prev, c)
		}
		bySpeaker[l.Speaker] = c
		byRole[l.Role] = c
	}
	for _, role := range []string{"judge", "prosecutor", "defense", "witness"} {
		if _, ok := byRole[role]; !ok {
			t.Errorf("no line of the %s was spoken", role)
		}
	}
	for r1, c1 := range byRole {
		for r2, c2 := range byRole {
			if r1 < r2 && c1.Pitch == c2.Pitch && c1.Rate == c2.Rate {
				t.Errorf("the %s and the %s sound alike: %+v", r1, r2, c1)
			}
		}
	}
	t.Logf("voices: %+v", bySpeaker)
	if p := d.problems(); len(p) != 0 {
		t.Errorf("page problems: %q", p)
	}
}

// hostileWitness answers every witness's call with markup: a replay must show it as text.
const hostileWitness = `<img src=x onerror="window.__xss=1"> I saw <b>a figure</b> in the fog.`

// stageOrder records, before the page's scripts run, every line the stage puts up (its
// index in the trial), in the order they come.
const stageOrder = `window.__stage = [];
new MutationObserver(() => {
  const s = document.querySelector('#stage');
  if (!s || s.dataset.index === '') return;
  const i = Number(s.dataset.index);
  if (window.__stage[window.__stage.length - 1] !== i) window.__stage.push(i);
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-index']});`

// TestCourtBrowserReplay stores a `court simulate` trial (a model on every seat, the
// stand-in's) and replays it in chromium: the Watch menu lists it next to starting a new
// trial; choosing it plays it on the game's stage from the store, turn by turn, in the
// stored transcript's order, asking no model; pause stops new lines, resume brings them
// again, and skip-to-verdict streams the rest and ends on the verdict scene. Model text
// with markup stays text.
func TestCourtBrowserReplay(t *testing.T) {
	ctx := courtBrowser(t)
	r := newCourtRig(t, rigOptions{offers: defenseOffer, respond: func(req *llmtest.Request) (llmtest.Response, bool) {
		return llmtest.Response{Text: hostileWitness}, req.Model == "witness"
	}})
	r.saveLantern()
	res := r.simulateStored(3)
	tx := res.Trials[0].Transcript
	id := tx.TrialID
	var want []string
	for _, tu := range tx.Turns {
		want = append(want, tu.Text)
	}
	if len(want) < 6 || !strings.Contains(strings.Join(want, "\n"), hostileWitness) {
		t.Fatalf("the stored trial has %d turns, none the hostile witness's: %q", len(want), want)
	}
	asked := r.asked.Load()

	d := &courtDriver{t: t, ctx: ctx, shots: shotsDir(t)}
	onNewDocument(t, d, watchScript+"\n"+stageOrder+"\n"+speechStub)
	d.do("open the menu", chromedp.Navigate(r.base+"/court#watch"))
	// The voices read a replay too.
	d.do("options", chromedp.Evaluate[chromedp.Void](`localStorage.setItem('llm-court.options', JSON.stringify({textSpeed: 'instant', auto: true, sound: false, voices: true}))`))
	d.do("reload", chromedp.Reload())
	card := `#replay-list li.replay-card[data-trial="` + id + `"]`
	d.until("the stored trial in the watch list", `!document.querySelector('#panel-watch').hidden && document.querySelector('`+card+`') !== null`)
	if got := evalIn[string](d, `document.querySelector('`+card+` h4').textContent`); got != lanternCase(t).Title {
		t.Errorf("the stored trial's title reads %q", got)
	}
	meta := evalIn[string](d, `document.querySelector('`+card+`').textContent`)
	outcome := map[string]string{"win": "The defense won", "loss": "The defense lost"}[*tx.Outcome]
	if !strings.Contains(meta, outcome) || !strings.Contains(meta, itoa(len(want))+" turns") || !strings.Contains(meta, "openai/defense") {
		t.Errorf("the stored trial's card reads %q; want its outcome (%s), %d turns and its models", meta, outcome, len(want))
	}
	d.shoot("replay-list")

	d.do("choose the stored trial", chromedp.Click(chromedp.CSS(card+` a.btn-primary`)))
	d.until("the replay on the stage", `document.body.dataset.page === 'game' && document.body.classList.contains('replaying') && !document.querySelector('#watch-controls').hidden`)
	if got, wantURL := evalIn[string](d, `document.querySelector('#watch-link').value`), r.base+"/court/replays/"+id; got != wantURL {
		t.Errorf("the replay's link is %q; want %q", got, wantURL)
	}
	if got := evalIn[string](d, `location.href`); got != r.base+"/court/replays/"+id {
		t.Errorf("the list opened %q", got)
	}
	if got := evalIn[string](d, `document.querySelector('#speed-sel').value`); got != "4000" {
		t.Errorf("a replay's pace starts at %s ms between lines; want 4000", got)
	}
	// A faster pace: the stream opens again from the line the stage has come to.
	d.do("pace", chromedp.SetValue(chromedp.ID("speed-sel"), "1500"))
	d.do("pace changed", chromedp.Evaluate[chromedp.Void](`document.querySelector('#speed-sel').dispatchEvent(new Event('change'))`))
	lines := `document.querySelectorAll('#turns li.turn.final').length`
	d.until("the first lines", lines+` >= 3`)
	d.shoot("replay-stage")
	type spoken struct {
		Text, Voice string
		Pitch, Rate float64
	}
	d.until("a line spoken", `window.__speech.calls.length >= 2`)
	calls := evalIn[[]spoken](d, `window.__speech.calls`)
	for i, c := range calls {
		if i >= len(want) || c.Text != strings.TrimSpace(want[i]) || c.Voice == "" || c.Pitch <= 0 || c.Rate <= 0 {
			t.Errorf("replay speak %d = %+v; want line %d of the trial with a voice", i, c, i)
		}
	}

	// Pause: once the stream is closed no new line comes, for longer than the pace.
	d.do("pause", chromedp.Click(chromedp.ID("pause-btn")))
	d.until("paused", `document.querySelector('#pause-btn').textContent === 'Resume' && document.body.classList.contains('paused')`)
	time.Sleep(300 * time.Millisecond)
	n := evalIn[int](d, lines)
	if n >= len(want) {
		t.Fatalf("the replay was over (%d lines) before the pause", n)
	}
	time.Sleep(3 * time.Second) // two pauses between lines at the default pace
	if got := evalIn[int](d, lines); got != n {
		t.Errorf("paused, the stage went on from %d lines to %d", n, got)
	}
	if got := evalIn[[]string](d, finals); strings.Join(got, "\n") != strings.Join(want[:n], "\n") {
		t.Errorf("the stage's lines so far differ from the stored trial's:\n%q\n%q", got, want[:n])
	}
	d.do("resume", chromedp.Click(chromedp.ID("pause-btn")))
	d.until("a line after the pause", lines+` > `+itoa(n))

	// Skip: the rest with no pause, then the verdict scene; at 10 s between lines the
	// rest would take minutes without it.
	d.do("slow pace", chromedp.SetValue(chromedp.ID("speed-sel"), "10000"))
	d.do("slow pace changed", chromedp.Evaluate[chromedp.Void](`document.querySelector('#speed-sel').dispatchEvent(new Event('change'))`))
	d.do("skip", chromedp.Click(chromedp.ID("skip-btn")))
	d.until("the verdict scene", `!document.querySelector('#verdict').hidden && document.querySelector('#verdict-words').textContent !== ''`)
	if got := evalIn[[]string](d, finals); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the replayed lines differ from the stored trial's:\n%q\n%q", got, want)
	}
	// The stage put the lines up one by one, in the trial's order.
	order := evalIn[[]int](d, `window.__stage`)
	for i := 1; i < len(order); i++ {
		if order[i] <= order[i-1] {
			t.Errorf("the stage went from line %d back to line %d: %v", order[i-1], order[i], order)
			break
		}
	}
	if len(order) == 0 || order[0] != 0 || order[len(order)-1] != len(want)-1 {
		t.Errorf("the stage showed the lines %v of %d", order, len(want))
	}
	words := map[string]string{"win": "Not guilty", "loss": "Guilty"}[*tx.Outcome]
	if got := evalIn[string](d, `document.querySelector('#verdict-words').textContent`); got != words {
		t.Errorf("the verdict scene reads %q; want %q", got, words)
	}
	if got := evalIn[string](d, `document.querySelector('#verdict-justification').textContent`); got != tx.Verdict.Justification {
		t.Errorf("the verdict's reasons read %q; want %q", got, tx.Verdict.Justification)
	}
	if evalIn[bool](d, `window.__xss === 1 || document.querySelector('img[src="x"], #turns .text b, #stage-line b, #testimony b') !== null`) {
		t.Error("a model's markup became elements on the page")
	}
	if r.asked.Load() != asked {
		t.Errorf("the replay asked the stand-in %d times", r.asked.Load()-asked)
	}
	if p := d.problems(); len(p) != 0 {
		t.Errorf("page problems: %q", p)
	}
	time.Sleep(2 * time.Second) // the gavel and the stamp
	d.shoot("replay-verdict")
}
