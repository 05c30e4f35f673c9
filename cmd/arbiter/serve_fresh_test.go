package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeCreatesItsStore: 'arbiter serve' with a --db that does not exist (in a
// folder that does not exist) creates the store and opens the game's menu, which says
// how to give the court a model.
func TestServeCreatesItsStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "fresh", "arbiter.db")
	base := serveStore(t, db)
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("serve did not create its store: %v", err)
	}
	code, body := httpGet(t, base+"/court")
	if code != 200 || !strings.Contains(body, "--court-model") {
		t.Errorf("GET /court on a fresh store = %d; want 200 with the --court-model hint:\n%s", code, body)
	}
}

// TestCourtCasesImport: 'court cases --import FILE' validates a hand-written case and
// stores it, so the game's docket lists it; an invalid file or a taken id stores
// nothing and exits 2 naming the problem.
func TestCourtCasesImport(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cases.db")
	raw, err := os.ReadFile(filepath.Join("..", "..", "internal", "web", "testdata", "lantern.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	c["case_id"] = "hand-written"
	good := filepath.Join(t.TempDir(), "mine.json")
	b, _ := json.Marshal(c)
	if err := os.WriteFile(good, b, 0o644); err != nil {
		t.Fatal(err)
	}
	c["witnesses"].([]any)[0].(map[string]any)["knows"] = []any{}
	c["case_id"] = "broken"
	bad := filepath.Join(t.TempDir(), "bad.json")
	b, _ = json.Marshal(c)
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}

	if r := arbiter(t, nil, "court", "cases", "--db", db, "--import", bad); r.code != 2 || !strings.Contains(r.stderr, "witnesses[0].knows") {
		t.Errorf("import of an invalid case = %d %q; want 2 naming witnesses[0].knows", r.code, r.stderr)
	}
	if r := arbiter(t, nil, "court", "cases", "--db", db, "--import", good); r.code != 0 || !strings.Contains(r.stderr, "stored case hand-written") {
		t.Fatalf("import = %d %q", r.code, r.stderr)
	}
	if r := arbiter(t, nil, "court", "cases", "--db", db, "--import", good); r.code != 2 || !strings.Contains(r.stderr, "is taken") {
		t.Errorf("a second import = %d %q; want 2: the id is taken", r.code, r.stderr)
	}
	r := arbiter(t, nil, "court", "cases", "--db", db, "--format", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"hand-written"`) || strings.Contains(r.stdout, `"broken"`) {
		t.Errorf("the listing after the imports = %d:\n%s", r.code, r.stdout)
	}
	// The browser's docket lists it (serve reads stored cases).
	base := serveStore(t, db)
	if _, body := httpGet(t, base+"/api/court/cases"); !strings.Contains(body, `"hand-written"`) {
		t.Errorf("the game's docket does not list the imported case: %s", body)
	}
}
