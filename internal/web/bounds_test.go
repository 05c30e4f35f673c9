package web

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/cost"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// Tests of the bounds of cli.md's "Who may do what": max_tokens on every role call, a
// reply cut at the size cap dropped from the game, event streams that end after the
// verdict and at most StreamsPerGame per client and game, finished games evicted, and
// the budget.

// clientAt is a client whose connections come from the loopback address 127.0.0.last:
// to the server, another client address.
func clientAt(last byte) *http.Client {
	return &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{DialContext: (&net.Dialer{
		LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, last)}}).DialContext}}
}

// play starts a game on the lantern case and returns its id and play token.
func (r *courtRig) play() (id, token string) {
	r.t.Helper()
	r.saveLantern()
	code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "seed": 7})
	if code != http.StatusCreated {
		r.t.Fatalf("POST games = %d %v", code, out)
	}
	return out["game_id"].(string), out["token"].(string)
}

// streamAs opens game id's event stream with client c and the token tok; a stream that
// is not opened comes back nil with the status and body.
func (r *courtRig) streamAs(c *http.Client, id, tok string) (*sseStream, int, string) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	r.t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", r.base+"/api/court/games/"+id+"/events?token="+tok, nil)
	res, err := c.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
		res.Body.Close()
		return nil, res.StatusCode, res.Header.Get("Retry-After") + " " + string(b)
	}
	r.t.Cleanup(func() { res.Body.Close() })
	return &sseStream{res: res, br: bufio.NewReader(res.Body)}, http.StatusOK, ""
}

// vmRSS is the process's resident memory as /proc/self/status says it.
func vmRSS(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("VmRSS %q: %v", v, err)
			}
			return kb << 10
		}
	}
	t.Skip("no VmRSS in /proc/self/status")
	return 0
}

// bigReply is 3 MiB of words.
var bigReply = strings.Repeat("objection ", 3<<20/len("objection "))

// TestRoleCallsCarryMaxTokens: a stand-in that answers the prosecutor with 3 MiB unless
// the request carries max_tokens (then with that many words, cut for length, as a
// provider does) receives max_tokens 1,024 on every role call, and the game keeps no
// turn near that size.
func TestRoleCallsCarryMaxTokens(t *testing.T) {
	var mu sync.Mutex
	seen := map[string][]int64{}
	r := newCourtRig(t, rigOptions{respond: func(req *llmtest.Request) (llmtest.Response, bool) {
		mu.Lock()
		seen[req.Model] = append(seen[req.Model], req.MaxTokens)
		mu.Unlock()
		if req.Model != "prosecutor" {
			return llmtest.Response{}, false
		}
		if req.MaxTokens <= 0 {
			return llmtest.Response{Text: bigReply}, true
		}
		return llmtest.Response{Text: strings.Repeat("objection ", int(req.MaxTokens)), Finish: llm.FinishLength}, true
	}})
	id := r.newGame()
	v := r.waitFloor(id)
	mu.Lock()
	defer mu.Unlock()
	for _, role := range []string{"judge", "prosecutor"} {
		if len(seen[role]) == 0 {
			t.Errorf("the %s was not asked", role)
		}
	}
	for role, ns := range seen {
		for i, n := range ns {
			if n != court.DefaultGameMaxTokens {
				t.Errorf("request %d to the %s carried max_tokens %d; want %d", i+1, role, n, court.DefaultGameMaxTokens)
			}
		}
	}
	for _, turn := range v.Turns {
		if len(turn.Text) > 64<<10 {
			t.Errorf("the %s's turn is %d KiB; a reply bounded by max_tokens is a few", turn.Speaker, len(turn.Text)>>10)
		}
	}
	if len(v.Turns) < 2 {
		t.Errorf("the introduction has %d turns; want the judge's and the prosecutor's", len(v.Turns))
	}
}

// TestStreamEndsAfterTheVerdict: a stream opened at the start of a game sees the trial
// to its verdict, and then its end (EOF), not a stream held open.
func TestStreamEndsAfterTheVerdict(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	id := r.newGame()
	st := r.events(id, "")
	r.playToVerdict(id)
	st.until(t, "verdict")
	if ev, err := st.next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the verdict the stream sent %+v (err %v); want its end", ev, err)
	}
	// A stream opened on the finished game ends after the verdict too.
	again := r.events(id, "")
	again.until(t, "verdict")
	if ev, err := again.next(); !errors.Is(err, io.EOF) {
		t.Errorf("a stream on a finished game sent %+v after the verdict (err %v); want its end", ev, err)
	}
}

// TestCutReplyIsDroppedAndStreamsAreBounded: the prosecutor's reply is a body that never
// ends, cut by the adapter at the 8 MiB cap. The game keeps nothing of it (view,
// transcript, the events a new stream is sent), and 100 streams opened on the game from
// 25 client addresses (4 each, the cap) keep the process under 150 MB.
func TestCutReplyIsDroppedAndStreamsAreBounded(t *testing.T) {
	r := newCourtRig(t, rigOptions{respond: func(req *llmtest.Request) (llmtest.Response, bool) {
		if req.Model == "prosecutor" {
			return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultEndless}}, true
		}
		return llmtest.Response{}, false
	}})
	id, tok := r.play()
	v := r.waitFloor(id)
	if !v.RestartOffered {
		t.Fatalf("after a reply cut at the cap the game offers no restart: %+v", v)
	}
	for _, turn := range v.Turns {
		if strings.Contains(turn.Text, "endless") || len(turn.Text) > 64<<10 {
			t.Errorf("the game kept a turn of the cut reply: %s, %d bytes", turn.Speaker, len(turn.Text))
		}
	}
	if code, _, body := sendAs(t, r.stranger(), "GET", r.base+"/api/court/games/"+id+"/transcript?token="+tok, ""); code != 200 || strings.Contains(body, "endless") {
		t.Errorf("the transcript = %d, %d bytes, holding the cut reply: %v", code, len(body), strings.Contains(body, "endless"))
	}
	// What one new stream is sent: the judge's turn and the failure, a few KiB.
	one, _, _ := r.streamAs(r.stranger(), id, tok)
	evs := one.until(t, "error")
	size := 0
	for _, e := range evs {
		size += len(e.data)
		if strings.Contains(e.data, "endless") {
			t.Errorf("a new stream is sent the cut reply in a %s event", e.name)
		}
	}
	if last := evs[len(evs)-1]; !strings.Contains(last.data, "8 MiB") {
		t.Errorf("the failure = %s; want the reply cut at the 8 MiB cap", last.data)
	}
	if size > 64<<10 {
		t.Errorf("a new stream is sent %d KiB before the failure; want a few", size>>10)
	}
	one.close()

	debug.FreeOSMemory()
	heap0, rss0 := heap(), vmRSS(t)
	var streams []*sseStream
	for c := range 25 {
		client := clientAt(byte(10 + c))
		for range 4 {
			s, code, msg := r.streamAs(client, id, tok)
			if s == nil {
				t.Fatalf("stream %d = %d %s; want 200", len(streams)+1, code, msg)
			}
			s.until(t, "error")
			streams = append(streams, s)
		}
	}
	heap1, rss1 := heap(), vmRSS(t)
	t.Logf("100 streams on a game whose reply was cut at the cap: heap %d -> %d KiB, VmRSS %d -> %d KiB", heap0>>10, heap1>>10, rss0>>10, rss1>>10)
	if rss1 > 150<<20 {
		t.Errorf("with 100 streams open the process holds %d MiB; want under 150", rss1>>20)
	}
	if grew := rss1 - rss0; grew > 30<<20 {
		t.Errorf("100 streams grew the resident memory by %d MiB; want under 30", grew>>20)
	}
	if grew := heap1 - heap0; grew > 16<<20 {
		t.Errorf("100 streams grew the heap by %d MiB; want a few", grew>>20)
	}
	for _, s := range streams {
		s.close()
	}
}

// TestBudgetStopsEveryModelCall: with --budget US$0.50 and a price of a dollar a token,
// the judge's first turn spends it. From then on the stand-in is asked nothing: the
// prosecutor's turn, a new game, a move, a restart and a case generation are refused,
// the requests with 503 and a sentence that says the budget is spent.
func TestBudgetStopsEveryModelCall(t *testing.T) {
	prices := cost.Default()
	dollar := 1e6 // per million tokens: a dollar a token
	specs := map[string]config.PriceSpec{}
	for _, m := range []string{"judge", "prosecutor", "witness", "analyzer"} {
		specs["openai/"+m] = config.PriceSpec{Input: &dollar, Output: &dollar}
	}
	if err := prices.Override("test", specs); err != nil {
		t.Fatal(err)
	}
	var generated atomic.Int64
	lim := Limits{MaxGames: -1, ClientGames: -1, ClientRate: -1, Budget: 0.5, Prices: prices}
	r := newCourtRig(t, rigOptions{limits: &lim, generate: func(context.Context, string, llm.ModelName) (*court.Case, []string, error) {
		generated.Add(1)
		return nil, []string{"not asked for"}, nil
	}})
	// The recorded cost is read at every check, not once a second, so the test does
	// not depend on how fast the court speaks.
	g := r.srv.court.guard
	g.mu.Lock()
	g.budgetMaxAge = 0
	g.mu.Unlock()

	id, _ := r.play()
	v := r.waitFloor(id)
	if n := r.asked.Load(); n != 1 {
		t.Errorf("the stand-in was asked %d times; want once (the judge's turn spent the budget)", n)
	}
	if !v.RestartOffered {
		t.Errorf("after the budget was spent the game offers no restart: %+v", v)
	}
	asked := r.asked.Load()
	for _, rq := range []struct{ path, body string }{
		{"/api/court/games", `{"case_id":"lantern-theft"}`},
		{"/api/court/games/" + id + "/restart", `{}`},
		{"/api/court/games/" + id + "/defense", `{"text":"The defense opens."}`},
		{"/api/court/cases/generate", `{"prior":"a theft at the docks"}`},
	} {
		req, _ := http.NewRequest("POST", r.base+rq.path, strings.NewReader(rq.body))
		req.Header.Set("Content-Type", "application/json")
		res, err := r.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), "spent its budget") || !strings.Contains(string(b), "--budget") {
			t.Errorf("POST %s after the budget = %d %s; want 503 saying the budget is spent", rq.path, res.StatusCode, b)
		}
	}
	r.waitFloor(id)
	if n := r.asked.Load(); n != asked {
		t.Errorf("the stand-in was asked %d more times after the budget was spent; want none", n-asked)
	}
	if n := generated.Load(); n != 0 {
		t.Errorf("case generation ran %d times after the budget was spent", n)
	}
}

// TestFourStreamsPerClientAndGame: a client address holds at most four streams open on
// one game; the fifth is 429 with Retry-After and a sentence, another address is not
// held by it, and closing a stream frees its place.
func TestFourStreamsPerClientAndGame(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	id, tok := r.play()
	r.waitFloor(id)
	one := clientAt(60)
	var open []*sseStream
	for i := range 4 {
		s, code, msg := r.streamAs(one, id, tok)
		if s == nil {
			t.Fatalf("stream %d = %d %s; want 200", i+1, code, msg)
		}
		s.until(t, "awaiting")
		open = append(open, s)
	}
	s, code, msg := r.streamAs(one, id, tok)
	if s != nil || code != http.StatusTooManyRequests || strings.HasPrefix(msg, " ") || !strings.Contains(msg, "4 windows") {
		t.Fatalf("the fifth stream = %d %q; want 429 with Retry-After and a sentence", code, msg)
	}
	if s, code, msg := r.streamAs(clientAt(61), id, tok); s == nil {
		t.Errorf("another client's stream = %d %s; want 200", code, msg)
	}
	// A closed stream gives its place back (once the server sees the connection gone).
	open[0].close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s, code, msg := r.streamAs(one, id, tok)
		if s != nil {
			break
		}
		if code != http.StatusTooManyRequests || time.Now().After(deadline) {
			t.Fatalf("a stream after one was closed = %d %s; want 200", code, msg)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestFinishedGameLeavesMemory: once a game has its verdict the server holds it no
// more; asked for again, it is read back from the store, whole, and not kept.
func TestFinishedGameLeavesMemory(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	id := r.newGame()
	played := r.playToVerdict(id)
	held := func() bool {
		r.srv.court.mu.Lock()
		defer r.srv.court.mu.Unlock()
		_, ok := r.srv.court.live[id]
		return ok
	}
	deadline := time.Now().Add(10 * time.Second)
	for held() {
		if time.Now().After(deadline) {
			t.Fatal("the finished game is still held in memory")
		}
		time.Sleep(10 * time.Millisecond)
	}
	v := r.view(id)
	if v.Outcome == nil || *v.Outcome != *played.Outcome || len(v.Turns) != len(played.Turns) {
		t.Errorf("the finished game read back: outcome %v, %d turns; want %v, %d", v.Outcome, len(v.Turns), *played.Outcome, len(played.Turns))
	}
	if code, _ := r.do("GET", "/api/court/games/"+id+"/transcript", nil); code != 200 {
		t.Errorf("its transcript = %d; want 200", code)
	}
	if held() {
		t.Error("reading the finished game put it back in memory")
	}
}
