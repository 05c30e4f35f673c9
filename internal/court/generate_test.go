package court

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/google"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
)

const genModel llm.ModelName = "openai/case-writer"

// validGenerated is a record a model might write for a prior: a bundled case under an
// id of its own.
func validGenerated(t testing.TB, id string) string {
	t.Helper()
	cs, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	c := *cs[0]
	c.ID = id
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// edited is record with fn applied to its decoded object.
func edited(t testing.TB, record string, fn func(map[string]any)) string {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal([]byte(record), &obj); err != nil {
		t.Fatal(err)
	}
	fn(obj)
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// emptyKnows empties the second witness's knows list.
func emptyKnows(obj map[string]any) {
	obj["witnesses"].([]any)[1].(map[string]any)["knows"] = []any{}
}

// writerStandIn answers the generator's requests with replies in turn (the last one
// again when they run out) and keeps every request.
type writerStandIn struct {
	srv  *llmtest.Server
	ask  Asker
	mu   sync.Mutex
	reqs []*llmtest.Request
}

func newWriterStandIn(t *testing.T, replies ...string) *writerStandIn {
	t.Helper()
	w := &writerStandIn{}
	w.srv = llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.reqs = append(w.reqs, req)
		return llmtest.Response{Text: replies[min(len(w.reqs), len(replies))-1]}
	}})
	t.Cleanup(w.srv.Close)
	client := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(client.CloseIdleConnections)
	m, err := openai.New(genModel, config.Endpoint{Provider: "openai", BaseURL: w.srv.OpenAIBaseURL(), Key: "sk-test"}, openai.Options{HTTPClient: client})
	if err != nil {
		t.Fatal(err)
	}
	w.ask = Direct{genModel: m}
	return w
}

func (w *writerStandIn) requests() []*llmtest.Request {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.reqs)
}

func TestGenerate(t *testing.T) {
	valid := validGenerated(t, "riverside-theft")
	t.Run("valid reply", func(t *testing.T) {
		w := newWriterStandIn(t, valid)
		g, err := Generate(context.Background(), w.ask, GenerateOptions{Prior: "theft case", Model: genModel})
		if err != nil {
			t.Fatalf("Generate: %v", err)
		}
		if g.Asks != 1 || g.Case.ID != "riverside-theft" || g.Case.Prior != "theft case" || g.Prior != "theft case" || g.Model != genModel {
			t.Errorf("Generate = asks %d, id %q, prior %q/%q, model %q; want 1, riverside-theft, theft case, %s",
				g.Asks, g.Case.ID, g.Case.Prior, g.Prior, g.Model, genModel)
		}
		cs, err := ParseCases(g.Record, "record.json")
		if err != nil || cs[0].Prior != "theft case" {
			t.Fatalf("the record does not load back: %v", err)
		}
		reqs := w.requests()
		if len(reqs) != 1 {
			t.Fatalf("%d requests; want 1", len(reqs))
		}
		if !jsonEqual(reqs[0].JSONSchema, CaseSchema()) {
			t.Errorf("the request's schema is %s; want CaseSchema", reqs[0].JSONSchema)
		}
		if !strings.Contains(reqs[0].LastUser(), "Prior: theft case") {
			t.Errorf("the request does not state the prior: %q", reqs[0].LastUser())
		}
		if !strings.Contains(reqs[0].System, "- contradictions: at least one") {
			t.Errorf("the request does not ask for contradictions: %q", reqs[0].System)
		}
		if len(g.Case.Contradictions) == 0 {
			t.Errorf("the generated case lost its contradictions")
		}
	})
	t.Run("fenced reply", func(t *testing.T) {
		w := newWriterStandIn(t, "Here is the case.\n```json\n"+valid+"\n```\nGood luck.")
		g, err := Generate(context.Background(), w.ask, GenerateOptions{Prior: "theft case", Model: genModel})
		if err != nil || g.Asks != 1 {
			t.Fatalf("Generate of a fenced reply = %v, %v; want the case at the first ask", g, err)
		}
	})
	t.Run("invalid then valid", func(t *testing.T) {
		bad := edited(t, valid, emptyKnows)
		w := newWriterStandIn(t, bad, valid)
		g, err := Generate(context.Background(), w.ask, GenerateOptions{Prior: "theft case", Model: genModel})
		if err != nil {
			t.Fatalf("Generate: %v", err)
		}
		if g.Asks != 2 {
			t.Errorf("Asks = %d; want 2", g.Asks)
		}
		reqs := w.requests()
		if len(reqs) != 2 {
			t.Fatalf("%d requests; want 2", len(reqs))
		}
		re := reqs[1]
		if !strings.Contains(re.LastUser(), "witnesses[1].knows: must not be empty") {
			t.Errorf("the re-ask does not list the problem: %q", re.LastUser())
		}
		if n := len(re.Messages); n != 3 || re.Messages[1].Role != llm.RoleAssistant || re.Messages[1].Text != bad {
			t.Errorf("the re-ask has %d messages; want the first ask, the bad reply as the model's turn, the problems", n)
		}
	})
	t.Run("stays invalid", func(t *testing.T) {
		bad := edited(t, valid, func(o map[string]any) { emptyKnows(o); o["kind"] = "maritime" })
		w := newWriterStandIn(t, bad)
		g, err := Generate(context.Background(), w.ask, GenerateOptions{Prior: "theft case", Model: genModel})
		var ge *GenerateError
		if !errors.As(err, &ge) || g != nil {
			t.Fatalf("Generate = %v, %v; want a *GenerateError", g, err)
		}
		if ge.Asks != 3 || len(w.requests()) != 3 {
			t.Errorf("asks %d, requests %d; want 3 (the ask and 2 re-asks)", ge.Asks, len(w.requests()))
		}
		for _, want := range []string{"generated case: kind: \"maritime\": want criminal or civil", "generated case: witnesses[1].knows: must not be empty"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q lacks %q", err, want)
			}
		}
		last := w.requests()[2].LastUser()
		if !strings.Contains(last, "kind: \"maritime\"") {
			t.Errorf("the last re-ask does not list the problem: %q", last)
		}
	})
	t.Run("no contradictions", func(t *testing.T) {
		for name, edit := range map[string]func(map[string]any){
			"absent": func(o map[string]any) { delete(o, "contradictions") },
			"empty":  func(o map[string]any) { o["contradictions"] = []any{} },
		} {
			t.Run(name, func(t *testing.T) {
				bare := edited(t, valid, edit)
				if _, err := ParseCases([]byte(bare), "hand-written.json"); err != nil {
					t.Fatalf("ParseCases = %v; want a file without contradictions to be valid", err)
				}
				w := newWriterStandIn(t, bare, valid)
				g, err := Generate(context.Background(), w.ask, GenerateOptions{Prior: "theft case", Model: genModel})
				if err != nil || g.Asks != 2 || len(g.Case.Contradictions) == 0 {
					t.Fatalf("Generate = %v, %v; want the case with contradictions at a re-ask", g, err)
				}
				if want := "contradictions: has none: want at least one"; !strings.Contains(w.requests()[1].LastUser(), want) {
					t.Errorf("re-ask %q lacks %q", w.requests()[1].LastUser(), want)
				}
			})
		}
	})
	t.Run("no re-asks", func(t *testing.T) {
		w := newWriterStandIn(t, "I would rather not.")
		_, err := Generate(context.Background(), w.ask, GenerateOptions{Prior: "theft case", Model: genModel, Reasks: -1})
		if err == nil || len(w.requests()) != 1 {
			t.Errorf("Generate with no re-asks = %v after %d requests; want an error after 1", err, len(w.requests()))
		}
	})
	t.Run("too small for a trial", func(t *testing.T) {
		small := edited(t, valid, func(o map[string]any) {
			first := o["witnesses"].([]any)[0]
			o["witnesses"] = []any{first}
			o["contradictions"] = slices.DeleteFunc(o["contradictions"].([]any), func(x any) bool {
				return x.(map[string]any)["witness"] != first.(map[string]any)["id"]
			})
		})
		w := newWriterStandIn(t, small, valid)
		g, err := Generate(context.Background(), w.ask, GenerateOptions{Prior: "theft case", Model: genModel})
		if err != nil || g.Asks != 2 {
			t.Fatalf("Generate = %v, %v; want a re-ask", g, err)
		}
		if !strings.Contains(w.requests()[1].LastUser(), "witnesses: has 1 witnesses: want 2 to 5") {
			t.Errorf("re-ask %q lacks the witness count", w.requests()[1].LastUser())
		}
	})
}

func TestGenerateCaseIDs(t *testing.T) {
	valid := validGenerated(t, "riverside-theft")
	cases := []struct {
		name  string
		edit  func(map[string]any)
		taken []string
		want  string
	}{
		{"kept", func(map[string]any) {}, nil, "riverside-theft"},
		{"missing", func(o map[string]any) { delete(o, "case_id"); o["title"] = "The Riverside Théft, 1921!" }, nil, "the-riverside-th-ft-1921"},
		{"not a slug", func(o map[string]any) { o["case_id"] = "Riverside Theft" }, nil, "riverside-theft"},
		{"nothing to slug", func(o map[string]any) { o["case_id"] = "???"; o["title"] = "!!" }, nil, "generated-case"},
		{"a bundled id", func(o map[string]any) { o["case_id"] = "summit-ridge" }, nil, "summit-ridge-2"},
		{"taken twice", func(map[string]any) {}, []string{"riverside-theft", "riverside-theft-2"}, "riverside-theft-3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			taken := func(id string, _ json.RawMessage) bool { return slices.Contains(tc.taken, id) }
			c, errs := ParseGenerated([]byte(edited(t, valid, tc.edit)), "theft case", taken)
			if len(errs) > 0 {
				t.Fatalf("ParseGenerated: %v", errs)
			}
			if c.ID != tc.want {
				t.Errorf("case_id = %q; want %q", c.ID, tc.want)
			}
		})
	}
	t.Run("own earlier copy", func(t *testing.T) {
		first, _ := ParseGenerated([]byte(valid), "theft case", nil)
		rec, _ := json.Marshal(first)
		taken := func(id string, r json.RawMessage) bool { return id == "riverside-theft" && !bytes.Equal(r, rec) }
		c, errs := ParseGenerated([]byte(valid), "theft case", taken)
		if len(errs) > 0 || c.ID != "riverside-theft" {
			t.Errorf("ParseGenerated = %v, %v; want the same id for the same case", c, errs)
		}
	})
}

// TestCaseSchemaAgreesWithValidate builds the smallest record the schema allows and
// checks that it is valid, that leaving out any required field is not, and that the
// schema names every field of the contract but prior.
func TestCaseSchemaAgreesWithValidate(t *testing.T) {
	var s map[string]any
	if err := json.Unmarshal(CaseSchema(), &s); err != nil {
		t.Fatalf("CaseSchema is not JSON: %v", err)
	}
	n := 0
	record := linked(instance(s, &n))
	b, _ := json.Marshal(record)
	if cs, err := ParseCases(b, "schema.json"); err != nil || Validate(cs[0], "schema.json") != nil {
		t.Fatalf("a record built to the schema does not validate: %v\n%s", err, b)
	}
	// Every value the schema's enums allow is one Validate allows.
	witnessProps := propSchema(s, "witnesses")["items"].(map[string]any)["properties"].(map[string]any)
	for _, kind := range propSchema(s, "kind")["enum"].([]any) {
		for _, by := range witnessProps["called_by"].(map[string]any)["enum"].([]any) {
			rec := linked(instance(s, new(int)))
			rec["kind"] = kind
			rec["witnesses"].([]any)[0].(map[string]any)["called_by"] = by
			b, _ := json.Marshal(rec)
			if _, err := ParseCases(b, "schema.json"); err != nil {
				t.Errorf("kind %v, called_by %v from the schema's enums: %v", kind, by, err)
			}
		}
	}
	// Grown to the sizes the schema's descriptions ask for, it is a generated case.
	b, _ = json.Marshal(grown(s, record, &n))
	if _, errs := ParseGenerated(b, "a prior", nil); len(errs) > 0 {
		t.Fatalf("a record built to the schema is not a valid generated case: %v\n%s", errs, b)
	}
	// The schema keeps to what every provider's structured output accepts.
	for _, kw := range []string{"maxItems", "minLength", "maxLength", "minimum", "maximum", "{1,64}"} {
		if bytes.Contains(CaseSchema(), []byte(kw)) {
			t.Errorf("CaseSchema uses %s, which Anthropic's structured output refuses", kw)
		}
	}
	if bytes.Contains(CaseSchema(), []byte(`"minItems":2`)) || bytes.Contains(CaseSchema(), []byte(`"minItems":3`)) {
		t.Errorf("CaseSchema has a minItems above 1, which Anthropic's structured output refuses")
	}
	var names []string
	for _, k := range s["required"].([]any) {
		names = append(names, k.(string))
	}
	want := slices.DeleteFunc(slices.Clone(caseFields), func(f string) bool { return f == "prior" || f == "prosecution_goal" })
	if !slices.Equal(slices.Sorted(slices.Values(names)), slices.Sorted(slices.Values(want))) {
		t.Errorf("the schema requires %v; want the contract's fields %v", names, want)
	}
	// Every field the schema requires, at any depth, is one a generated case needs: drop
	// it and the record is refused. (case_id is the exception: Generate derives a missing
	// one.) Only contradictions is required of a generated case and not of a file.
	for _, path := range requiredPaths(s, "") {
		if path == "case_id" {
			continue
		}
		n := 0
		rec := grown(s, linked(instance(s, &n)), &n)
		drop(rec, strings.Split(path, "."))
		b, _ := json.Marshal(rec)
		if c, errs := ParseGenerated(b, "a prior", nil); len(errs) == 0 {
			t.Errorf("a generated record without %s is accepted: %+v; the schema requires it", path, c)
		}
		_, err := ParseCases(b, "schema.json")
		if optional := path == "contradictions"; (err == nil) != optional {
			t.Errorf("ParseCases of a record without %s = %v; want an error %v", path, err, !optional)
		}
	}
}

// linked makes the contradictions of rec, a record built by instance, name its first
// witness and its first item of evidence, as Validate asks.
func linked(rec any) map[string]any {
	m := rec.(map[string]any)
	w := m["witnesses"].([]any)[0].(map[string]any)["id"]
	e := m["evidence"].([]any)[0].(map[string]any)["id"]
	for _, x := range m["contradictions"].([]any) {
		x.(map[string]any)["witness"] = w
		x.(map[string]any)["evidence"] = []any{e}
	}
	return m
}

// grown is record with items of evidence and witnesses built to schema s added, up to
// the least a generated case has.
func grown(s map[string]any, record map[string]any, n *int) map[string]any {
	for field, size := range map[string]int{"evidence": GenMinEvidence, "witnesses": GenMinWitnesses} {
		for len(record[field].([]any)) < size {
			item := instance(propSchema(s, field)["items"].(map[string]any), n)
			record[field] = append(record[field].([]any), item)
		}
	}
	return record
}

// propSchema is the schema of the property name of object schema s.
func propSchema(s map[string]any, name string) map[string]any {
	return s["properties"].(map[string]any)[name].(map[string]any)
}

// instance is the smallest value of schema s: required properties only, minItems items,
// a distinct string matching any pattern, the first enum value.
func instance(s map[string]any, n *int) any {
	switch s["type"] {
	case "object":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for _, k := range s["required"].([]any) {
			out[k.(string)] = instance(props[k.(string)].(map[string]any), n)
		}
		return out
	case "array":
		var out []any
		lo, _ := s["minItems"].(float64)
		for range max(int(lo), 1) {
			out = append(out, instance(s["items"].(map[string]any), n))
		}
		return out
	case "string":
		if e, ok := s["enum"].([]any); ok {
			return e[0]
		}
		*n++
		return fmt.Sprintf("v%d", *n)
	}
	panic(fmt.Sprintf("schema type %v", s["type"]))
}

// requiredPaths lists the required properties of s as dotted paths; an array's items
// are reached through it.
func requiredPaths(s map[string]any, at string) []string {
	var out []string
	switch s["type"] {
	case "object":
		props, _ := s["properties"].(map[string]any)
		for _, k := range s["required"].([]any) {
			p := k.(string)
			if at != "" {
				p = at + "." + p
			}
			out = append(out, p)
			out = append(out, requiredPaths(props[k.(string)].(map[string]any), p)...)
		}
	case "array":
		out = append(out, requiredPaths(s["items"].(map[string]any), at)...)
	}
	return out
}

// drop removes the field at path from v, from every item of an array on the way.
func drop(v any, path []string) {
	switch x := v.(type) {
	case map[string]any:
		if len(path) == 1 {
			delete(x, path[0])
			return
		}
		drop(x[path[0]], path[1:])
	case []any:
		for _, it := range x {
			drop(it, path)
		}
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// TestGenerateRecorded generates through the store twice: the second time asks nothing
// and gives the same case, re-asks included.
func TestGenerateRecorded(t *testing.T) {
	valid := validGenerated(t, "riverside-theft")
	w := newWriterStandIn(t, edited(t, valid, emptyKnows), valid)
	path := filepath.Join(t.TempDir(), "gen.db")
	var asked atomic.Int64
	opt := GenerateOptions{Prior: "theft case", Model: genModel}
	rec, done := recordedSession(t, path, counted(w.ask.(Direct), &asked))
	first, err := Generate(context.Background(), rec, opt)
	done()
	if err != nil || asked.Load() != 2 {
		t.Fatalf("Generate = %v after %d requests; want the case after 2", err, asked.Load())
	}
	rec, done = recordedSession(t, path, counted(w.ask.(Direct), &asked))
	defer done()
	again, err := Generate(context.Background(), rec, opt)
	if err != nil {
		t.Fatalf("Generate again: %v", err)
	}
	if asked.Load() != 2 || len(w.requests()) != 2 {
		t.Errorf("the rerun asked %d more requests; want none", asked.Load()-2)
	}
	if !bytes.Equal(first.Record, again.Record) || again.Asks != 2 {
		t.Errorf("the rerun gave another case (asks %d)", again.Asks)
	}
}

func TestGenerateBadOptions(t *testing.T) {
	w := newWriterStandIn(t, "{}")
	for _, opt := range []GenerateOptions{{Model: genModel}, {Prior: " ", Model: genModel}, {Prior: "theft case"}} {
		if _, err := Generate(context.Background(), w.ask, opt); err == nil {
			t.Errorf("Generate(%+v) = nil error", opt)
		}
	}
	if n := len(w.requests()); n != 0 {
		t.Errorf("bad options sent %d requests", n)
	}
}

func TestExtractJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a": 1}`, `{"a": 1}`},
		{"```json\n{\"a\": 1}\n```", `{"a": 1}`},
		{"```json {\"a\": 1}```", `{"a": 1}`},
		{"```\n{\"a\": 1}", `{"a": 1}`},
		{"Here it is: {\"a\": {\"b\": 2}} Enjoy.", `{"a": {"b": 2}}`},
		{"\ufeff  {\"a\": 1}\n", `{"a": 1}`},
		{"no object", "no object"},
	} {
		if got := string(extractJSON([]byte(tc.in))); got != tc.want {
			t.Errorf("extractJSON(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzParseGenerated(f *testing.F) {
	f.Add([]byte(validGenerated(f, "riverside-theft")))
	f.Add([]byte("```json\n" + validGenerated(f, "x") + "\n```"))
	f.Add([]byte(`{"case_id": "Bad Id", "title": "T"}`))
	f.Add([]byte("no json { here"))
	f.Add([]byte("```"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, errs := ParseGenerated(data, "theft case", func(id string, _ json.RawMessage) bool { return id == "riverside-theft" })
		if (c == nil) == (len(errs) == 0) {
			t.Fatalf("ParseGenerated = %v, %v; want a case or problems", c, errs)
		}
		if c == nil {
			return
		}
		if c.ID == "riverside-theft" || !caseIDPattern.MatchString(c.ID) || c.Prior != "theft case" {
			t.Errorf("case_id %q, prior %q: want a free slug and the prior", c.ID, c.Prior)
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseCases(b, "again.json"); err != nil {
			t.Errorf("an accepted case does not load back: %v", err)
		}
	})
}

func BenchmarkParseGenerated(b *testing.B) {
	data := []byte(validGenerated(b, "riverside-theft"))
	for b.Loop() {
		if _, errs := ParseGenerated(data, "theft case", nil); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// TestGenerateGemini writes a case through the real Gemini adapter: the stand-in reads
// the case schema from responseJsonSchema.
func TestGenerateGemini(t *testing.T) {
	valid := validGenerated(t, "riverside-theft")
	var seen []byte
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		seen = req.JSONSchema
		return llmtest.Response{Text: valid}
	}})
	defer srv.Close()
	const name llm.ModelName = "google/case-writer"
	m, err := google.New(name, config.Endpoint{Provider: "google", BaseURL: srv.URL, Key: "AIza-test-key-0123"}, google.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Generate(context.Background(), Direct{name: m}, GenerateOptions{Prior: "theft case", Model: name})
	if err != nil || g.Case.ID != "riverside-theft" {
		t.Fatalf("Generate through Gemini = %v, %v", g, err)
	}
	if !jsonEqual(seen, CaseSchema()) {
		t.Errorf("Gemini was sent the schema %s; want CaseSchema", seen)
	}
}
