package web

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

func TestMarkSpan(t *testing.T) {
	tests := []struct {
		name, text, span string
		want             []string // the marked parts, in order
	}{
		{"whole span", "Well. Decision: roll. Bye.", "Decision: roll", []string{"Decision: roll"}},
		{"contradiction pieces", "Make a Climb roll. Actually, no roll is needed.", "Make a Climb roll | no roll", []string{"Make a Climb roll", "no roll"}},
		{"after the reasoning", "<think>no roll</think> so: no roll.", "no roll", []string{"no roll"}},
		{"cut span", "Roll Climb because " + strings.Repeat("x", 300), "Roll Climb because xxx…", []string{"Roll Climb because xxx"}},
		{"not in the text", "Roll for Climb.", "Decision: pass", nil},
		{"no span", "Roll for Climb.", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, shown := markSpan(tt.text, tt.span)
			var joined strings.Builder
			var marked []string
			for _, p := range parts {
				joined.WriteString(p.Text)
				if p.Mark {
					marked = append(marked, p.Text)
				}
			}
			if joined.String() != tt.text {
				t.Errorf("markSpan(%q, %q) parts join to %q; want the text unchanged", tt.text, tt.span, joined.String())
			}
			if strings.HasPrefix(tt.text, "<think>") && (len(parts) < 2 || !strings.HasSuffix(parts[0].Text, "so: ")) {
				t.Errorf("markSpan(%q, %q) = %+v; want the ruling after the reasoning marked, not the reasoning", tt.text, tt.span, parts)
			}
			if shown != (len(tt.want) > 0) || strings.Join(marked, "|") != strings.Join(tt.want, "|") {
				t.Errorf("markSpan(%q, %q) marked %q (shown %v); want %q", tt.text, tt.span, marked, shown, tt.want)
			}
		})
	}
	// The reasoning block holds the span only: it is marked there rather than not at all.
	if parts, shown := markSpan("<think>no roll</think> Sure.", "no roll"); !shown || parts[1].Text != "no roll" {
		t.Errorf("markSpan of a span only in the reasoning = %+v, %v; want it marked there", parts, shown)
	}
}

// TestRepliesShowRuleAndSpan: the replies page shows beside each reply the rule that
// decided it, marks the span it read inside the reply, escapes both (a hostile reply,
// span and rule name run no script), and filters by rule.
func TestRepliesShowRuleAndSpan(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	text := hostile + "\nDecision: <b>roll</b> & Climb\n" + hostile
	contra := "Make a Climb roll. Actually, no roll is needed."
	const evilRule = `"><script>alert(4)</script>`
	mk := func(key, item, text, outcome string) *store.Result {
		return &store.Result{RunID: seduceRun, JobKey: key, Model: "openai/span", Item: item,
			Reply: llm.Reply{Text: text}, Outcome: outcome, Source: "provider"}
	}
	outcome := func(o seduce.Outcome) string {
		return seduce.OutcomeOf(seduce.Parsed{Decision: o.Decision, Skill: o.Skill, Rule: o.Rule, Span: o.Span})
	}
	results := []*store.Result{
		mk("span-1", string(f.ds.Samples[2].ID), text, outcome(seduce.Outcome{Decision: seduce.DecisionRoll, Skill: "Climb", Rule: seduce.RuleLabel, Span: "Decision: <b>roll</b> & Climb"})),
		mk("span-2", string(f.ds.Samples[3].ID), contra, seduce.OutcomeOf(seduce.ParseReply(contra, nil))),
		mk("span-3", string(f.ds.Samples[4].ID), "Plain reply.", outcome(seduce.Outcome{Decision: seduce.DecisionUnparsed, Rule: evilRule, Span: hostile})),
	}
	if err := f.st.PutResults(ctx, results, nil); err != nil {
		t.Fatal(err)
	}
	h := f.server(t).Handler()

	a := get(t, h, "/runs/seduce-test0001/replies?model="+url.QueryEscape("openai/span"))
	if a.status != 200 {
		t.Fatalf("replies: status %d", a.status)
	}
	for _, raw := range []string{"<script", "<img src=x", "<b>roll", `"><script`} {
		if strings.Contains(a.body, raw) {
			t.Errorf("replies page holds raw %q", raw)
		}
	}
	for _, want := range []string{
		"<pre>" + hostileEscaped + "\n<mark class=\"span\">Decision: &lt;b&gt;roll&lt;/b&gt; &amp; Climb</mark>\n" + hostileEscaped + "</pre>",
		"<code>label</code>",
		`<mark class="span">Make a Climb roll</mark>. Actually, <mark class="span">no roll</mark> is needed.`,
		"<code>contradiction</code>",
		"<code>&#34;&gt;&lt;script&gt;alert(4)&lt;/script&gt;</code> <q class=\"span\">" + hostileEscaped + "</q>",
		"<option>label</option>", "<option>contradiction</option>",
	} {
		if !strings.Contains(a.body, want) {
			t.Errorf("replies page lacks %q", want)
		}
	}
	if n := rows(t, a.body, "replies"); n != 3 {
		t.Errorf("replies of openai/span: %d rows; want 3", n)
	}

	b := get(t, h, "/runs/seduce-test0001/replies?rule=label")
	if n := rows(t, b.body, "replies"); n != 1 || !strings.Contains(b.body, "<option selected>label</option>") {
		t.Errorf("replies?rule=label: %d rows, rule selected %v; want 1 row and label selected", n, strings.Contains(b.body, "<option selected>label</option>"))
	}
	c := get(t, h, "/runs/seduce-test0001/replies?rule="+url.QueryEscape(evilRule))
	if n := rows(t, c.body, "replies"); n != 1 || strings.Contains(c.body, "<script") {
		t.Errorf("replies filtered by a hostile rule: %d rows, raw script %v; want 1 row, escaped", n, strings.Contains(c.body, "<script"))
	}
}

// TestRepliesExportUnparsed: the replies page links the export of its unparsed replies
// under its filters, and the export is JSONL of those replies only, their text unescaped.
func TestRepliesExportUnparsed(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	mk := func(key, model, item, text string) *store.Result {
		return &store.Result{RunID: seduceRun, JobKey: key, Model: llm.ModelName(model), Item: item,
			Reply: llm.Reply{Text: text}, Outcome: seduce.OutcomeOf(seduce.ParseReply(text, nil)), Source: "provider"}
	}
	results := []*store.Result{
		mk("x-1", "openai/x", string(f.ds.Samples[2].ID), "Make a Climb roll."),
		mk("x-2", "openai/x", string(f.ds.Samples[3].ID), "Make a Climb roll. Actually, no roll is needed."),
		mk("x-3", "openai/x", string(f.ds.Samples[4].ID), "She makes a Swim roll if she <b>falls</b> in."),
		mk("y-1", "openai/y", string(f.ds.Samples[2].ID), "Hmm & so on."),
	}
	if err := f.st.PutResults(ctx, results, nil); err != nil {
		t.Fatal(err)
	}
	h := f.server(t).Handler()
	page := get(t, h, "/runs/seduce-test0001/replies?model="+url.QueryEscape("openai/x")+"&rule=conditional")
	if link := `href="/runs/seduce-test0001/replies/unparsed.jsonl?model=openai%2Fx&amp;rule=conditional"`; !strings.Contains(page.body, link) {
		t.Errorf("replies page lacks the export link %s", link)
	}
	for _, tt := range []struct {
		name, query string
		want        []string // the texts exported, in order
	}{
		{"one model", "?model=openai%2Fx", []string{"Make a Climb roll. Actually, no roll is needed.", "She makes a Swim roll if she <b>falls</b> in."}},
		{"another model", "?model=openai%2Fy", []string{"Hmm & so on."}},
		{"one rule", "?model=openai%2Fx&rule=conditional", []string{"She makes a Swim roll if she <b>falls</b> in."}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := get(t, h, "/runs/seduce-test0001/replies/unparsed.jsonl"+tt.query)
			if a.status != 200 || !strings.HasPrefix(a.header.Get("Content-Type"), "application/x-ndjson") {
				t.Fatalf("export: status %d, type %q; want 200 JSONL", a.status, a.header.Get("Content-Type"))
			}
			var got []string
			for _, line := range strings.Split(strings.TrimSpace(a.body), "\n") {
				var l struct{ ID, Model, Text, Rule string }
				if err := json.Unmarshal([]byte(line), &l); err != nil || l.ID == "" || l.Rule == "" {
					t.Fatalf("export line %q: %v; want id, model, text and rule", line, err)
				}
				got = append(got, l.Text)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("export%s = %q; want %q", tt.query, got, tt.want)
			}
		})
	}
}

// FuzzMarkSpan: whatever the reply and span, markSpan never panics, its parts join to
// the reply unchanged, and a marked part is a piece of the span.
func FuzzMarkSpan(f *testing.F) {
	f.Add("Make a Climb roll. Actually, no roll is needed.", "Make a Climb roll | no roll")
	f.Add("<think>no roll</think> so: no roll.", "no roll")
	f.Add("x", " | | …")
	f.Fuzz(func(t *testing.T, text, span string) {
		parts, shown := markSpan(text, span)
		var b strings.Builder
		marked := false
		for _, p := range parts {
			b.WriteString(p.Text)
			if p.Mark {
				marked = true
				if p.Text == "" || !strings.Contains(span, p.Text) {
					t.Errorf("markSpan(%q, %q) marked %q, not a piece of the span", text, span, p.Text)
				}
			}
		}
		if b.String() != text || marked != shown {
			t.Errorf("markSpan(%q, %q) = %+v, %v; want parts that join to the text, shown iff marked", text, span, parts, shown)
		}
	})
}
