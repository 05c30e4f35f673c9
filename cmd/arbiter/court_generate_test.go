package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// caseWriter is a stand-in case writer: it answers with replies in turn (the last
// again when they run out), retitled for seed 2, and keeps the last user message of
// every request.
type caseWriter struct {
	srv *llmtest.Server
	mu  sync.Mutex
	got []string
}

func newCaseWriter(t *testing.T, replies ...string) *caseWriter {
	t.Helper()
	w := &caseWriter{}
	w.srv = llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.got = append(w.got, req.LastUser())
		text := replies[min(len(w.got), len(replies))-1]
		if strings.Contains(req.LastUser(), "Variation number: 2 ") {
			// Another seed, another case under the same id.
			text = strings.Replace(text, "The Riverside Theft", "The Second Riverside Theft", 1)
		}
		return llmtest.Response{Text: text}
	}})
	t.Cleanup(w.srv.Close)
	return w
}

func (w *caseWriter) asked() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.got...)
}

// generate runs 'arbiter court generate' against w with the store db.
func (w *caseWriter) generate(t *testing.T, db string, extra ...string) result {
	t.Helper()
	args := append([]string{"court", "generate", "-q", "--prior", "theft case", "--model", "openai/case-writer",
		"--base-url", w.srv.OpenAIBaseURL(), "--db", db}, extra...)
	return arbiter(t, map[string]string{"OPENAI_API_KEY": "sk-test-gen"}, args...)
}

// writtenCase is a valid case record a model might write: a bundled case under a new id.
func writtenCase(t *testing.T, edit func(map[string]any)) string {
	t.Helper()
	cs, err := court.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(cs[0])
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		t.Fatal(err)
	}
	obj["case_id"] = "riverside-theft"
	obj["title"] = "The Riverside Theft"
	if edit != nil {
		edit(obj)
	}
	b, _ = json.Marshal(obj)
	return string(b)
}

func storedCases(t *testing.T, db string) []*store.CourtCase {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cs, err := st.CourtCases(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestCourtGenerate(t *testing.T) {
	valid := writtenCase(t, nil)
	noKnows := writtenCase(t, func(o map[string]any) {
		o["witnesses"].([]any)[1].(map[string]any)["knows"] = []any{}
	})

	t.Run("valid, stored, rerun asks nothing", func(t *testing.T) {
		w := newCaseWriter(t, "```json\n"+valid+"\n```")
		db := filepath.Join(t.TempDir(), "gen.db")
		r := w.generate(t, db)
		if r.code != 0 {
			t.Fatalf("court generate = %d\n%s", r.code, r.stderr)
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil || rec["case_id"] != "riverside-theft" || rec["prior"] != "theft case" {
			t.Fatalf("stdout is not the case record with its prior: %v\n%s", err, r.stdout)
		}
		if !strings.Contains(r.stdout, "\n  \"title\": \"The Riverside Theft\",\n") {
			t.Errorf("stdout is not pretty JSON:\n%s", r.stdout)
		}
		cs := storedCases(t, db)
		if len(cs) != 1 || cs[0].ID != "riverside-theft" || cs[0].Origin != store.CaseGenerated || cs[0].Prior != "theft case" || cs[0].Model != "openai/case-writer" {
			t.Fatalf("stored %+v; want the generated case with its prior and model", cs)
		}
		if n := w.srv.Requests(); n != 1 {
			t.Errorf("%d requests; want 1", n)
		}
		again := w.generate(t, db)
		if again.code != 0 || again.stdout != r.stdout {
			t.Errorf("rerun = %d, %q; want the same case\n%s", again.code, again.stdout, again.stderr)
		}
		if n := w.srv.Requests(); n != 1 {
			t.Errorf("the rerun sent %d requests; want none", n-1)
		}
		if cs := storedCases(t, db); len(cs) != 1 {
			t.Errorf("the rerun stored %d cases; want the one, replaced", len(cs))
		}
		// Another seed is another request, and another case beside the first.
		other := w.generate(t, db, "--seed", "2")
		if other.code != 0 || w.srv.Requests() != 2 {
			t.Fatalf("--seed 2 = %d after %d requests\n%s", other.code, w.srv.Requests(), other.stderr)
		}
		if cs := storedCases(t, db); len(cs) != 2 || !strings.Contains(other.stdout, `"case_id": "riverside-theft-2"`) {
			t.Errorf("--seed 2 stored %d cases, printed %s; want a second case as riverside-theft-2", len(cs), other.stdout)
		}
	})

	t.Run("invalid re-asked with its errors", func(t *testing.T) {
		w := newCaseWriter(t, noKnows, valid)
		db := filepath.Join(t.TempDir(), "gen.db")
		out := filepath.Join(t.TempDir(), "case.json")
		r := w.generate(t, db, "--out", out)
		if r.code != 0 || r.stdout != "" {
			t.Fatalf("court generate = %d, stdout %q\n%s", r.code, r.stdout, r.stderr)
		}
		asked := w.asked()
		if len(asked) != 2 || !strings.Contains(asked[1], "witnesses[1].knows: must not be empty") {
			t.Fatalf("requests %q; want a re-ask listing the problem", asked)
		}
		v := arbiter(t, nil, "court", "validate", "--cases", out)
		if v.code != 0 || !strings.Contains(v.stdout, "riverside-theft: ok") {
			t.Errorf("court validate --cases %s = %d\n%s%s", out, v.code, v.stdout, v.stderr)
		}
	})

	t.Run("stays invalid: nothing kept", func(t *testing.T) {
		w := newCaseWriter(t, noKnows)
		db := filepath.Join(t.TempDir(), "gen.db")
		out := filepath.Join(t.TempDir(), "case.json")
		r := w.generate(t, db, "--out", out)
		if r.code != 1 {
			t.Fatalf("court generate of a case that stays invalid = %d; want 1\n%s", r.code, r.stderr)
		}
		if !strings.Contains(r.stderr, "after 3 asks") || !strings.Contains(r.stderr, "\narbiter: generated case: witnesses[1].knows: must not be empty") {
			t.Errorf("stderr %q; want the problems, one per line", r.stderr)
		}
		if n := w.srv.Requests(); n != 3 {
			t.Errorf("%d requests; want 3", n)
		}
		if cs := storedCases(t, db); len(cs) != 0 {
			t.Errorf("stored %d cases; want none", len(cs))
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("--out %s was written (%v); want no file", out, err)
		}
	})

	t.Run("bad flags", func(t *testing.T) {
		w := newCaseWriter(t, valid)
		db := filepath.Join(t.TempDir(), "gen.db")
		for _, args := range [][]string{
			{"court", "generate", "--model", "openai/case-writer", "--db", db},
			{"court", "generate", "--prior", "theft case", "--db", db},
			{"court", "generate", "--prior", "theft case", "--model", "gpt-4.1", "--db", db},
			{"court", "generate", "--prior", "theft case", "--model", "openai/a", "--model", "openai/b", "--db", db},
			{"court", "generate", "--prior", "theft case", "--model", "openai/a", "--reasks", "-1", "--db", db},
		} {
			if r := arbiter(t, map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": w.srv.OpenAIBaseURL()}, args...); r.code != 2 {
				t.Errorf("%q = %d; want 2\n%s", args, r.code, r.stderr)
			}
		}
		if n := w.srv.Requests(); n != 0 {
			t.Errorf("bad flags sent %d requests", n)
		}
	})
}

func TestCourtCases(t *testing.T) {
	w := newCaseWriter(t, writtenCase(t, nil))
	db := filepath.Join(t.TempDir(), "gen.db")
	if r := w.generate(t, db); r.code != 0 {
		t.Fatalf("court generate = %d\n%s", r.code, r.stderr)
	}

	t.Run("list text", func(t *testing.T) {
		r := arbiter(t, nil, "court", "cases", "--db", db)
		if r.code != 0 {
			t.Fatalf("court cases = %d\n%s", r.code, r.stderr)
		}
		for _, want := range []string{"summit-ridge", "haunted-estate", "builtin"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("listing lacks %q:\n%s", want, r.stdout)
			}
		}
		line := ""
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(l, "riverside-theft ") {
				line = l
			}
		}
		for _, want := range []string{"The Riverside Theft", "criminal", "generated", "theft case", "openai/case-writer"} {
			if !strings.Contains(line, want) {
				t.Errorf("line of the stored case %q lacks %q", line, want)
			}
		}
	})
	t.Run("list json", func(t *testing.T) {
		r := arbiter(t, nil, "court", "cases", "--db", db, "--format", "json")
		var got struct {
			Cases []struct {
				ID, Origin, Prior, Model string
				Created                  *string
			} `json:"cases"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
			t.Fatalf("court cases --format json = %d, %v\n%s", r.code, err, r.stdout)
		}
		if len(got.Cases) != 6 {
			t.Fatalf("%d cases; want the 5 bundled and 1 stored", len(got.Cases))
		}
		last := got.Cases[5]
		if last.Origin != "generated" || last.Prior != "theft case" || last.Model != "openai/case-writer" || last.Created == nil {
			t.Errorf("stored entry %+v; want its origin, prior, model and date", last)
		}
	})
	t.Run("export loads back", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "riverside.json")
		r := arbiter(t, nil, "court", "cases", "--db", db, "--export", "riverside-theft", "--out", out)
		if r.code != 0 {
			t.Fatalf("court cases --export = %d\n%s", r.code, r.stderr)
		}
		v := arbiter(t, nil, "court", "validate", "--cases", out)
		if v.code != 0 || !strings.Contains(v.stdout, "riverside-theft: ok: The Riverside Theft") {
			t.Errorf("court validate of the export = %d\n%s%s", v.code, v.stdout, v.stderr)
		}
		b := arbiter(t, nil, "court", "cases", "--db", db, "--export", "dukes-yard")
		if b.code != 0 || !strings.Contains(b.stdout, `"case_id": "dukes-yard"`) {
			t.Errorf("export of a bundled case = %d\n%s", b.code, b.stderr)
		}
	})
	t.Run("load stored", func(t *testing.T) {
		for _, cases := range []string{"stored", "stored:riverside-theft"} {
			v := arbiter(t, nil, "court", "validate", "--cases", cases, "--db", db)
			if v.code != 0 || !strings.Contains(v.stdout, "riverside-theft: ok") || !strings.Contains(v.stdout, "1 case(s) valid") {
				t.Errorf("court validate --cases %s = %d\n%s%s", cases, v.code, v.stdout, v.stderr)
			}
		}
	})
	t.Run("bad input", func(t *testing.T) {
		empty := filepath.Join(t.TempDir(), "empty.db")
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"court", "cases", "--db", db, "--export", "nope", "--out", filepath.Join(t.TempDir(), "x.json")}, "--export nope: no such case"},
			{[]string{"court", "cases", "--db", db, "--format", "csv"}, `--format "csv"`},
			{[]string{"court", "cases", "--db", db, "--out", "x.json"}, "--out is for --export"},
			{[]string{"court", "validate", "--cases", "stored:nope", "--db", db}, "stored:nope: no such case"},
			{[]string{"court", "validate", "--cases", "stored", "--db", empty}, "no cases in store"},
		} {
			r := arbiter(t, nil, tc.args...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("%q = %d, %q; want 2 and %q", tc.args, r.code, r.stderr, tc.want)
			}
		}
	})
}
