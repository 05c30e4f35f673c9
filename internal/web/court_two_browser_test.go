package web

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/arbiter-eval/arbiter/internal/court"
)

// onFloor is true on a page whose person has the floor and no line is being written.
const onFloor = `document.body.classList.contains('floor') && !document.querySelector('#defense-text').disabled && !document.querySelector('#turns li.streaming:not(.final)')`

// TestCourtBrowserTwoPlayers plays one trial with two people in two browser contexts:
// the creator chooses "Two players" and the defense in the menu, and its game page
// shows the invitation link; the second context (no cookie, no stored record) opens
// that link and plays the prosecution. At every floor exactly one page may speak, both
// pages say whose floor it is, and the page off the floor that posts a move anyway is
// refused with 409 and keeps working; every typed line reaches the game as its
// side's; after the verdict each page shows its own side's credibility and debrief.
// COURT_SHOTS=DIR keeps the screenshots.
func TestCourtBrowserTwoPlayers(t *testing.T) {
	ctx := courtBrowser(t)
	r := newCourtRig(t, rigOptions{})
	r.saveLantern()
	a := &courtDriver{t: t, ctx: ctx, shots: shotsDir(t)}
	onNewDocument(t, a, watchScript)
	a.do("open the menu", chromedp.Navigate(r.base+"/court"))
	a.do("options", chromedp.Evaluate[chromedp.Void](seatsOptions))
	a.do("reload", chromedp.Reload())
	a.until("the docket", `document.querySelector('#case-list .case-card[data-case="lantern-theft"]') !== null`)
	a.do("two players", chromedp.Click(chromedp.ID("two-players")))
	a.until("kept", `JSON.parse(localStorage.getItem('llm-court.options')).two === true`)
	a.shoot("two-menu")
	a.do("begin", chromedp.Click(chromedp.CSS(`#case-list .case-card[data-case="lantern-theft"] .btn-primary`)))
	a.until("the creator's page", `document.body.dataset.page === 'game' && document.body.classList.contains('two-players') && document.body.dataset.side === 'defense' && document.body.dataset.seat === 'creator' && !document.querySelector('#invite-share').hidden`)
	link := evalIn[string](a, `document.querySelector('#invite-link').value`)
	id := evalIn[string](a, `document.body.dataset.gameId`)
	if !strings.HasPrefix(link, r.base+"/court/games/"+id+"?token=") {
		t.Fatalf("invitation link %q", link)
	}
	if v := r.peek(id); !v.TwoPlayers || v.Side != court.SideDefense {
		t.Fatalf("the game %+v is not a two-person game of the defense", v)
	}

	bctx, cancel := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	defer cancel()
	b := &courtDriver{t: t, ctx: bctx, shots: a.shots}
	onNewDocument(t, b, watchScript+"\n"+seatsOptions)
	b.do("open the invitation", chromedp.Navigate(link))
	b.until("the invited page", `document.body.dataset.side === 'prosecution' && document.body.dataset.seat === 'invited' && document.querySelector('#invite-share').hidden && document.querySelector('.seat.mine').dataset.role === 'prosecutor'`)

	pages := map[court.Side]*courtDriver{court.SideDefense: a, court.SideProsecution: b}
	typed := map[court.Side][]string{}
	interrogated := map[court.Side]int{}
	refused := map[court.Side]bool{}
	shot := false
	verdict := `!document.querySelector('#verdict').hidden`
	for step := 0; ; step++ {
		if step > 30 {
			t.Fatal("no verdict after 30 floors")
		}
		// Wait for one page to have the floor, or the verdict.
		var f court.Side
		for deadline := time.Now().Add(25 * time.Second); f == "" && !evalIn[bool](a, verdict); {
			for s, d := range pages {
				if evalIn[bool](d, onFloor) {
					f = s
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("step %d: neither page has the floor; problems %q %q", step, a.problems(), b.problems())
			}
			time.Sleep(100 * time.Millisecond)
		}
		if f == "" {
			break
		}
		o := f.Other()
		fd, od := pages[f], pages[o]
		// Both pages say whose floor it is; the other's cannot speak.
		od.until("the other page shows the "+string(f)+"'s floor", `document.body.dataset.floor === '`+string(f)+`' && document.querySelector('#defense-text').disabled && document.querySelector('#floor-status').textContent.startsWith('The `+string(f)+` has the floor') && document.querySelector('#two-turn').textContent === 'The `+string(f)+`\'s turn: wait.' && document.querySelector('#hold-btn').disabled`)
		if got := evalIn[string](fd, `document.querySelector('#floor-status').textContent + '|' + document.querySelector('#two-turn').textContent`); got != "Your turn: the "+string(f)+" has the floor.|Your turn." {
			t.Errorf("the %s's page on its floor says %q", f, got)
		}
		if !refused[o] {
			// A move posted off one's floor is refused; the page goes on.
			refused[o] = true
			od.do("a move off the floor", chromedp.Evaluate[chromedp.Void](`window.__off = undefined; fetch('/api/court/games/`+id+`/`+string(o)+`', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({text: 'Out of turn.'})}).then(r => { window.__off = r.status; })`))
			od.until("the refusal", `window.__off !== undefined`)
			if code := evalIn[int](od, `window.__off`); code != 409 {
				t.Errorf("the %s's move on the %s's floor = %d; want 409", o, f, code)
			}
		}
		phase := evalIn[string](fd, `document.body.dataset.phase`)
		if phase == "interrogation" && !shot && f == court.SideDefense {
			shot = true
			a.shoot("two-defense-floor")
			b.shoot("two-prosecution-waiting")
		}
		if phase == "interrogation" && interrogated[f] >= 2 {
			fd.do("rest", chromedp.Click(chromedp.ID("rest-btn")))
			fd.do("confirm rest", chromedp.Click(chromedp.ID("rest-btn")))
			fd.until("the rest sent", `!document.body.classList.contains('floor')`)
			interrogated[f] = -100
			continue
		}
		if phase == "interrogation" {
			interrogated[f]++
		}
		text := "The " + string(f) + " speaks in the " + phase + ", line " + strconv.Itoa(len(typed[f])+1) + "."
		typed[f] = append(typed[f], text)
		fd.do("speak", chromedp.SendKeys(chromedp.ID("defense-text"), text+kb.Enter))
		fd.until("sent", `!document.body.classList.contains('floor') || document.querySelector('#defense-text').value === ''`)
	}
	for s, d := range pages {
		d.until("the "+string(s)+"'s verdict and debrief", verdict+` && !document.querySelector('#debrief').hidden && document.querySelector('#stat-cred') !== null`)
	}
	time.Sleep(2 * time.Second) // the gavel and the stamp
	a.shoot("two-defense-verdict")
	b.shoot("two-prosecution-verdict")

	v := r.peek(id)
	if v.Outcome == nil {
		t.Fatalf("no verdict: %+v", v)
	}
	// The game's player turns are each side's typed lines (and rests), in order.
	got := map[court.Side][]string{}
	for _, tu := range v.Turns {
		if tu.Player && !strings.Contains(tu.Text, "rests") {
			s := court.SideDefense
			if tu.Role == "prosecutor" {
				s = court.SideProsecution
			}
			got[s] = append(got[s], tu.Text)
		}
	}
	for s, d := range pages {
		if strings.Join(got[s], "\n") != strings.Join(typed[s], "\n") || len(typed[s]) < 3 {
			t.Errorf("the %s's turns in the game %q; typed %q", s, got[s], typed[s])
		}
		if !refused[s] {
			t.Errorf("the %s never tried a move off its floor", s)
		}
		var mine *court.Debrief
		for _, db := range v.Debriefs {
			if db != nil && db.Side == s {
				mine = db
			}
		}
		if mine == nil {
			t.Fatalf("no debrief of the %s in %+v", s, v.Debriefs)
		}
		if got, want := evalIn[string](d, `document.querySelector('#stat-cred').textContent`), strconv.Itoa(mine.Credibility)+" / 100"; got != want {
			t.Errorf("the %s's page shows credibility %q in its debrief; want %q", s, got, want)
		}
		if got, want := evalIn[string](d, `document.querySelector('#cred-val').textContent`), strconv.Itoa(v.Credibilities[s]); got != want {
			t.Errorf("the %s's page shows credibility %s; want its side's %s (all: %v)", s, got, want, v.Credibilities)
		}
		if p := d.problems(); len(p) != 0 {
			t.Errorf("the %s's page problems: %q", s, p)
		}
	}
	t.Logf("typed %v; credibilities %v", typed, v.Credibilities)
}
