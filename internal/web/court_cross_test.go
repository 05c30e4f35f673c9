package web

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/court"
)

// saveCrossCase saves the lantern case as "lantern-cross" with two planted
// contradictions, and returns the record's secrets: every knows string and every
// contradiction's claim and explanation.
func (r *courtRig) saveCrossCase() (secrets []string) {
	r.t.Helper()
	b, _ := os.ReadFile("testdata/lantern.json")
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		r.t.Fatal(err)
	}
	c["case_id"] = "lantern-cross"
	xs := []map[string]any{
		{"id": "C1", "witness": "tomas", "claim": "He saw the clerk's face clearly under the office lamp.", "evidence": []string{"E1"}, "explanation": "The key log puts the office key back before any lamp was lit."},
		{"id": "C2", "witness": "nell", "claim": "The lantern came in the very morning after the theft.", "evidence": []string{"E2"}, "explanation": "The pawn ticket is dated six days after it."},
	}
	c["contradictions"] = xs
	for _, x := range xs {
		secrets = append(secrets, x["claim"].(string), x["explanation"].(string))
	}
	for _, w := range c["witnesses"].([]any) {
		for _, k := range w.(map[string]any)["knows"].([]any) {
			secrets = append(secrets, k.(string))
		}
	}
	code, out := r.do("POST", "/api/court/cases", map[string]any{"case": c})
	if code != http.StatusCreated {
		r.t.Fatalf("POST cases = %d %v", code, out)
	}
	return secrets
}

// raw is GET path's body.
func (r *courtRig) raw(path string) string {
	r.t.Helper()
	res, err := r.client.Get(r.base + path)
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

// post sends a defense move and wants code.
func (r *courtRig) post(id, path string, body any, code int) map[string]any {
	r.t.Helper()
	got, out := r.do("POST", "/api/court/games/"+id+path, body)
	if got != code {
		r.t.Fatalf("POST %s %v = %d %v; want %d", path, body, got, out, code)
	}
	return out
}

// TestCourtCrossExamination plays a cross-examination through the API: a wrong item
// costs credibility, the planted item exposes its contradiction (event, view), an
// unknown item is 400, the debrief counts both after the verdict, and no response to
// the player's client before the verdict carries a knows string or a contradiction.
func TestCourtCrossExamination(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	r.saveLantern()
	secrets := r.saveCrossCase()
	code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-cross", "seed": 7})
	if code != http.StatusCreated {
		t.Fatalf("POST games = %d %v", code, out)
	}
	id := out["game_id"].(string)
	var seen []string // every body the player's client got before the verdict
	look := func(path string) { seen = append(seen, r.raw(path)) }
	look("/api/court/cases")

	r.waitFloor(id)
	r.post(id, "/defense", map[string]any{"text": "The defense will show reasonable doubt."}, 202)
	r.waitFloor(id)
	r.post(id, "/defense", map[string]any{"text": "What did you see that night?", "to": "Witness_tomas"}, 202)
	v := r.waitFloor(id)
	if v.Stand != "Witness_tomas" || v.Credibility != 100 || v.TurnsLeft <= 0 {
		t.Fatalf("view after questioning Tomas: stand %q, credibility %d, turns left %d", v.Stand, v.Credibility, v.TurnsLeft)
	}
	look("/api/court/games/" + id)
	look("/api/court/games/" + id + "/transcript")

	bad := r.post(id, "/defense", map[string]any{"text": "Look at this.", "present": "E9"}, 400)
	if !strings.Contains(bad["error"].(string), "E9") {
		t.Errorf("400 for E9 says %v", bad)
	}
	r.post(id, "/defense", map[string]any{"text": "Look at this ticket.", "present": "E2"}, 202)
	if v := r.waitFloor(id); v.Credibility != 100-court.MissCost || len(v.Exposed) != 0 {
		t.Fatalf("after the miss: credibility %d, exposed %v", v.Credibility, v.Exposed)
	}
	r.post(id, "/defense", map[string]any{"text": "Then explain this key log.", "present": "E1"}, 202)
	v = r.waitFloor(id)
	if v.Credibility != 100-court.MissCost+court.HitGain || len(v.Exposed) != 1 || v.Exposed[0] != (court.Exposure{Contradiction: "C1", Witness: "tomas", Evidence: "E1"}) {
		t.Fatalf("after the hit: credibility %d, exposed %+v", v.Credibility, v.Exposed)
	}
	if v.Debrief != nil {
		t.Errorf("a debrief before the verdict: %+v", v.Debrief)
	}
	look("/api/court/games/" + id)
	look("/api/court/games/" + id + "/transcript")

	// The stream so far: the exposed and credibility events as court.md fixes them.
	s := r.events(id, "")
	var evs []sseEvent
	for countTurns(evs) < len(v.Turns) || evs[len(evs)-1].name != "awaiting" {
		evs = append(evs, s.until(t, "awaiting")...)
	}
	s.close()
	var exposed, creds []string
	for _, e := range evs {
		seen = append(seen, e.data)
		switch e.name {
		case "exposed":
			exposed = append(exposed, e.data)
		case "credibility":
			creds = append(creds, e.data)
		}
	}
	if len(exposed) != 1 || exposed[0] != `{"contradiction":"C1","evidence":"E1","witness":"tomas"}` {
		t.Errorf("exposed events = %v", exposed)
	}
	if strings.Join(creds, " ") != `{"value":80} {"value":90}` {
		t.Errorf("credibility events = %v", creds)
	}

	for i, body := range seen {
		for _, secret := range secrets {
			if strings.Contains(body, secret) || strings.Contains(body, jsonText(secret)) {
				t.Errorf("response %d before the verdict holds the secret %q", i, secret)
			}
		}
	}

	r.post(id, "/rest", nil, 202)
	r.waitFloor(id)
	r.post(id, "/defense", map[string]any{"text": "The watchman's story fell apart."}, 202)
	v = r.waitFloor(id)
	d := v.Debrief
	if v.Outcome == nil || d == nil || d.Planted != 2 || d.Found != 1 || d.Misses != 1 || d.Credibility != 90 || d.Grade == "" {
		t.Fatalf("after the verdict: outcome %v, debrief %+v", v.Outcome, d)
	}
	if !d.Contradictions[0].Found || d.Contradictions[0].Claim != secrets[0] || d.Contradictions[1].Found {
		t.Errorf("debrief contradictions = %+v", d.Contradictions)
	}
	var tx court.Transcript
	if err := json.Unmarshal([]byte(r.raw("/api/court/games/"+id+"/transcript")), &tx); err != nil {
		t.Fatal(err)
	}
	if tx.Debrief == nil || tx.Verdict == nil || !strings.Contains(tx.Verdict.Summary, "C1: Tomas Brandt had claimed") || !strings.Contains(tx.CaseDescription, strings.TrimSuffix(secrets[0], ".")) {
		t.Errorf("transcript after the verdict: debrief %v, verdict %+v", tx.Debrief, tx.Verdict)
	}
}

// countTurns counts the end events of a stream.
func countTurns(evs []sseEvent) int {
	n := 0
	for _, e := range evs {
		if e.name == "end" {
			n++
		}
	}
	return n
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestCourtHold: "Hold it!" while a witness answers the prosecutor gives the defense the
// floor at the end of that line (not back to the prosecutor), with a hold event; while
// the defense has the floor it is refused.
func TestCourtHold(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	id := r.newGame()
	r.waitFloor(id)
	r.post(id, "/defense", map[string]any{"hold": true}, 409)
	release := r.holdWitness()
	r.post(id, "/defense", map[string]any{"text": "The defense will show reasonable doubt."}, 202)
	r.waitHeld()
	r.post(id, "/defense", map[string]any{"hold": true}, 202)
	release()
	v := r.waitFloor(id)
	n := len(v.Turns)
	if !v.AwaitingDefense || v.Turns[n-1].Role != "witness" || v.Turns[n-2].Speaker != "Prosecutor" {
		t.Fatalf("after the hold: awaiting %v, last turns %+v", v.AwaitingDefense, v.Turns[max(0, n-2):])
	}
	s := r.events(id, "")
	var evs []sseEvent
	for countTurns(evs) < n || evs[len(evs)-1].name != "awaiting" {
		evs = append(evs, s.until(t, "awaiting")...)
	}
	s.close()
	holds := 0
	for _, e := range evs {
		if e.name == "hold" {
			holds++
		}
	}
	if holds != 1 {
		t.Errorf("%d hold events; want 1", holds)
	}
}
