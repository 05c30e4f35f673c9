package web

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestCourtBrowserShowsALimit: a player past the per-client rate (one model-asking
// request a minute here, spent on creating the game) speaks, at laptop and at phone
// size; each time the page shows the server's sentence, in view, and keeps the
// statement. The screen as the player sees it is saved as limit-1280.png and
// limit-390.png.
func TestCourtBrowserShowsALimit(t *testing.T) {
	ctx := courtBrowser(t)
	lim := Limits{MaxGames: -1, ClientGames: -1, ClientRate: 1}
	r := newCourtRig(t, rigOptions{limits: &lim})
	id, tok := r.play()
	r.waitFloor(id)
	d := &courtDriver{t: t, ctx: ctx, shots: shotsDir(t)}
	d.do("start the browser", chromedp.Navigate("about:blank"))
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: watchScript}); err != nil {
		t.Fatalf("install the page watcher: %v", err)
	}
	d.do("open the game", chromedp.Navigate(r.base+"/court/games/"+id+"?token="+tok))
	d.until("the floor", `!document.querySelector('#defense-text').disabled`)
	const said = "The defense will show she never left the pier office."
	d.do("write", chromedp.SendKeys(chromedp.ID("defense-text"), said))
	for _, size := range []struct{ w, h int64 }{{1280, 900}, {390, 844}} {
		d.do("resize", chromedp.EmulateViewport(size.w, size.h), chromedp.Evaluate[chromedp.Void](`(() => {
			const s = document.querySelector('#form-status'); s.hidden = true; s.className = 'notice'; window.scrollTo(0, 0); })()`))
		d.do("speak", chromedp.Click(chromedp.ID("send-btn")))
		d.until("the refusal", `document.querySelector('#form-status').classList.contains('notice-bad')`)
		shown := evalIn[string](d, `document.querySelector('#form-status').textContent`)
		if !strings.Contains(shown, "at most 1 request a minute") || !strings.Contains(shown, "try again") {
			t.Errorf("at %dx%d the page shows %q; want the server's sentence about the rate", size.w, size.h, shown)
		}
		if got := evalIn[string](d, `document.querySelector('#defense-text').value`); got != said {
			t.Errorf("the statement after the refusal = %q; want it kept", got)
		}
		inView := evalIn[bool](d, `(() => { const b = document.querySelector('#form-status').getBoundingClientRect();
			return b.height > 0 && b.top >= 0 && b.bottom <= window.innerHeight; })()`)
		if !inView {
			t.Errorf("at %dx%d the refusal is out of view", size.w, size.h)
		}
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.shots, "limit-"+strconv.FormatInt(size.w, 10)+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if p := d.problems(); len(p) > 0 {
		t.Errorf("page problems: %v", p)
	}
}
