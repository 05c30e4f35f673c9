package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

// stranger is a client without the rig's cookies.
func (r *courtRig) stranger() *http.Client { return &http.Client{Timeout: 30 * time.Second} }

func sendAs(t *testing.T, c *http.Client, method, url, body string) (int, http.Header, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, url, rd)
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, res.Header, string(b)
}

// A client without a game's token gets 403 on every read and move of it; the game list
// shows a client its own games only; a watcher's token reads but cannot move.
func TestGameBelongsToItsToken(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	r.saveLantern()
	code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "seed": 7})
	if code != 201 || out["token"] == "" || out["watch_token"] == "" {
		t.Fatalf("POST games = %d %v; want the game's tokens", code, out)
	}
	id, watch := out["game_id"].(string), out["watch_token"].(string)
	r.waitFloor(id)
	s := r.stranger()
	base := r.base + "/api/court/games/" + id
	for _, rq := range []struct{ method, path, body string }{
		{"GET", "", ""}, {"GET", "/events", ""}, {"GET", "/transcript", ""},
		{"POST", "/defense", `{"text":"Objection."}`}, {"POST", "/rest", `{}`}, {"POST", "/restart", `{}`}, {"POST", "/judge", `{}`},
	} {
		if code, _, body := sendAs(t, s, rq.method, base+rq.path, rq.body); code != 403 {
			t.Errorf("%s %s without the token = %d %s; want 403", rq.method, rq.path, code, body)
		}
		if code, _, _ := sendAs(t, s, rq.method, base+rq.path+"?token=wrong", rq.body); code != 403 {
			t.Errorf("%s %s with a wrong token = %d; want 403", rq.method, rq.path, code)
		}
	}
	if code, _, _ := sendAs(t, s, "GET", r.base+"/court/games/"+id, ""); code != 403 {
		t.Errorf("the game page without the token = %d; want 403", code)
	}
	// The list: the stranger sees none, the owner sees theirs.
	if _, _, body := sendAs(t, s, "GET", r.base+"/api/court/games", ""); strings.Contains(body, id) {
		t.Errorf("a stranger's game list shows the game: %s", body)
	}
	if code, out := r.do("GET", "/api/court/games", nil); code != 200 || !strings.Contains(mustJSON(out), id) {
		t.Errorf("the owner's game list = %d %v; want the game", code, out)
	}
	// A watcher reads, and cannot move.
	for _, path := range []string{"", "/transcript"} {
		if code, _, _ := sendAs(t, s, "GET", base+path+"?token="+watch, ""); code != 200 {
			t.Errorf("GET %s with the watch token = %d; want 200", path, code)
		}
	}
	if code, _, _ := sendAs(t, s, "POST", base+"/defense?token="+watch, `{"text":"I move."}`); code != 403 {
		t.Errorf("a move with the watch token = %d; want 403", code)
	}
	if code, _ := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "The owner moves."}); code != 202 {
		t.Errorf("the owner's move = %d; want 202", code)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A role's model that the owner did not offer for that role is 400, for a game, a case
// generation and the checklist judge; an offered one is taken.
func TestModelsOnlyAsOffered(t *testing.T) {
	r := newCourtRig(t, rigOptions{generate: hostileGenerator(t), offers: map[string][]llm.ModelName{
		"judge": {"openai/judge"}, "witness": {"openai/witness", "openai/prosecutor"}}})
	r.saveLantern()
	// openai/prosecutor is offered for the witnesses only.
	if code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "models": map[string]string{"judge": "openai/prosecutor"}}); code != 400 {
		t.Errorf("a game with the judge on a witness's model = %d %v; want 400", code, out)
	}
	if code, out := r.do("POST", "/api/court/cases/generate", map[string]any{"prior": "a theft", "model": "openai/witness"}); code != 400 {
		t.Errorf("generation on a model not offered = %d %v; want 400", code, out)
	}
	code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "models": map[string]string{"witness": "openai/prosecutor"}})
	if code != 201 {
		t.Fatalf("a game with an offered model = %d %v; want 201", code, out)
	}
	id := out["game_id"].(string)
	if v := r.waitFloor(id); v.Models.Witness != "openai/prosecutor" || v.Models.Judge != "openai/judge" {
		t.Errorf("the game's models = %+v", v.Models)
	}
	if code, out := r.do("POST", "/api/court/games/"+id+"/judge", map[string]any{"model": "openai/witness"}); code != 400 {
		t.Errorf("judging on a model not offered = %d %v; want 400", code, out)
	}
}

// A case under a bundled id is 409 and leaves the bundled case as it was; so is one
// under a stored id; a case of 300 KiB is 413; on --public saving wants the owner.
func TestCasesCreateOnly(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	builtin, _ := court.Builtin()
	orig := builtin[0]
	forged := *orig
	forged.Title = "Replaced"
	b, _ := json.Marshal(&forged)
	if code, out := r.do("POST", "/api/court/cases", map[string]any{"case": json.RawMessage(b)}); code != 409 {
		t.Errorf("a case with the bundled id %s = %d %v; want 409", orig.ID, code, out)
	}
	_, out := r.do("GET", "/api/court/cases", nil)
	if cs := out["cases"].([]any); cs[0].(map[string]any)["title"] != orig.Title {
		t.Errorf("the bundled case changed: %v", cs[0])
	}
	r.saveLantern()
	lantern, _ := os.ReadFile("testdata/lantern.json")
	if code, _ := r.do("POST", "/api/court/cases", map[string]any{"case": json.RawMessage(lantern)}); code != 409 {
		t.Errorf("saving a stored id again = %d; want 409", code)
	}
	big := map[string]any{"case": map[string]any{"case_id": "big", "summary": strings.Repeat("x", 300<<10)}}
	if code, out := r.do("POST", "/api/court/cases", big); code != 413 {
		t.Errorf("a 300 KiB case = %d %v; want 413", code, out)
	}

	pub := newCourtRig(t, rigOptions{public: true, owner: "owner-secret"})
	if code, _ := pub.do("POST", "/api/court/cases", map[string]any{"case": json.RawMessage(lantern)}); code != 403 {
		t.Errorf("saving on --public without the owner's token = %d; want 403", code)
	}
	if code, out := pub.do("POST", "/api/court/cases?token=owner-secret", map[string]any{"case": json.RawMessage(lantern)}); code != 201 {
		t.Errorf("saving with the owner's token = %d %v; want 201", code, out)
	}
}

// rss is the process's resident memory, from /proc.
func rss(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm")
	}
	var size, res int64
	if _, err := fmt.Sscan(string(b), &size, &res); err != nil {
		t.Fatal(err)
	}
	return res * int64(os.Getpagesize())
}

// heap is the live heap after a collection.
func heap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestFloodIsBounded: 4,000 game creations from one client are answered 429 past the
// client's limit with Retry-After and a sentence; the stand-in is asked only for the
// games allowed; the server's memory grows by less than 30 MB; a second client (another
// loopback address) still creates a game.
func TestFloodIsBounded(t *testing.T) {
	lim := Limits{MaxGames: 16, ClientGames: 4, ClientRate: 30}
	r := newCourtRig(t, rigOptions{limits: &lim})
	r.saveLantern()
	body := `{"case_id":"lantern-theft","seed":1}`
	// Warm up (the first game's allocations are not the flood's), then measure.
	heap0, rss0 := heap(), rss(t)
	created, refused := 0, 0
	for i := range 4000 {
		code, h, msg := sendAs(t, r.client, "POST", r.base+"/api/court/games", body)
		switch code {
		case 201:
			created++
		case 429:
			refused++
			if h.Get("Retry-After") == "" || !strings.Contains(msg, "minute") {
				t.Fatalf("request %d: 429 without Retry-After or a sentence: %v %s", i, h, msg)
			}
		default:
			t.Fatalf("request %d = %d %s", i, code, msg)
		}
	}
	if created != 4 || refused != 3996 {
		t.Errorf("4,000 creations: %d created, %d refused; want 4 and 3,996", created, refused)
	}
	// Each game's introduction asks two models (the judge, the prosecutor) before the
	// defense's floor; let them finish and count.
	time.Sleep(500 * time.Millisecond)
	if n := r.asked.Load(); n > int64(created)*2 {
		t.Errorf("the stand-in was asked %d times for %d games; want at most %d", n, created, created*2)
	}
	heap1, rss1 := heap(), rss(t)
	t.Logf("flood: heap %d -> %d KiB, RSS %d -> %d KiB, stand-in asked %d", heap0>>10, heap1>>10, rss0>>10, rss1>>10, r.asked.Load())
	if grew := heap1 - heap0; grew > 30<<20 {
		t.Errorf("the heap grew by %d MiB; want under 30", grew>>20)
	}
	if grew := rss1 - rss0; grew > 30<<20 {
		t.Errorf("resident memory grew by %d MiB; want under 30", grew>>20)
	}
	// Another client address is not held by the first's limit.
	other := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: (&net.Dialer{
		LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}).DialContext}}
	if code, _, msg := sendAs(t, other, "POST", r.base+"/api/court/games", body); code != 201 {
		t.Errorf("a second client's game = %d %s; want 201", code, msg)
	}
}
