package main

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// TestSeduceReportsCost: a run against a stand-in whose usage reports cached tokens
// gives, in every format, the cost computed by hand from the config's prices: direct
// replies at the full price, a --batch run's at half, cached input at the cache price.
func TestSeduceReportsCost(t *testing.T) {
	srv := llmtest.NewBatchServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		r := keeperReply(req)
		r.InputTokens, r.CachedInputTokens, r.OutputTokens = 1000, 800, 10
		return r
	}}, llmtest.BatchOptions{})
	defer srv.Close()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "prices.yaml")
	prices := "prices:\n  openai/gpt-4.1: {input: 2, output: 8, cached_input: 0.5}\n  anthropic/claude-opus-4-7: {input: 4, output: 20, cached_input: 1}\n"
	if err := os.WriteFile(cfg, []byte(prices), 0o644); err != nil {
		t.Fatal(err)
	}
	data := smallDataset(t, 30)
	// 30 replies of 1000 input tokens (800 cached) and 10 output tokens each.
	want := map[string]float64{
		"openai/gpt-4.1":            30 * (200*2 + 800*0.5 + 10*8) / 1e6,
		"anthropic/claude-opus-4-7": 30 * (200*4 + 800*1 + 10*20) / 1e6,
	}
	for _, tc := range []struct {
		name, pricing string
		share         float64
		extra         []string
	}{
		{"direct", "direct", 1, nil},
		{"batch", "batch", 0.5, []string{"--batch", "--batch-poll", "1ms"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(dir, tc.name+".db")
			args := append([]string{"seduce", "run", "-q", "--dataset", data, "-m", "openai/gpt-4.1", "-m", "anthropic/claude-opus-4-7",
				"--base-url", srv.URL, "--db", db, "--config", cfg, "--format", "json"}, tc.extra...)
			res := arbiter(t, map[string]string{}, args...)
			if res.code != 0 {
				t.Fatalf("run: exit %d\n%s", res.code, res.stderr)
			}
			models := decodeJSON(t, res.stdout)["models"].([]any)
			if len(models) != 2 {
				t.Fatalf("%d models in the report; want 2", len(models))
			}
			for _, m := range models {
				m := m.(map[string]any)
				name := m["model"].(string)
				c, ok := m["cost"].(map[string]any)
				if !ok {
					t.Fatalf("%s: no cost in the JSON report: %v", name, m["cost"])
				}
				usd, _ := c["usd"].(float64)
				if w := want[name] * tc.share; math.Abs(usd-w) > 1e-9 {
					t.Errorf("%s: cost %v; want %v", name, usd, w)
				}
				if c["requests"] != 30.0 || c["input_tokens"] != 30000.0 || c["cached_input_tokens"] != 24000.0 ||
					c["output_tokens"] != 300.0 || c["pricing"] != tc.pricing {
					t.Errorf("%s: cost %v; want 30 requests, 30000 input (24000 cached), 300 output at %s prices", name, c, tc.pricing)
				}
			}

			// The stored run's report gives the same cost in table 4, in every format.
			for _, format := range []string{"text", "md", "csv"} {
				rep := arbiter(t, map[string]string{}, "seduce", "report", "--db", db, "--config", cfg, "--format", format)
				if rep.code != 0 {
					t.Fatalf("report --format %s: exit %d\n%s", format, rep.code, rep.stderr)
				}
				cells := table4Row(rep.stdout, "openai/gpt-4.1")
				usd := want["openai/gpt-4.1"] * tc.share
				costShown := slices.ContainsFunc(cells, func(c string) bool {
					v, err := strconv.ParseFloat(c, 64)
					return err == nil && math.Abs(v-usd) < 5e-5
				})
				for _, cell := range []string{"30000", "24000", "300", tc.pricing} {
					if !slices.Contains(cells, cell) {
						t.Errorf("report --format %s: table 4's row %q lacks %q", format, cells, cell)
					}
				}
				if !costShown {
					t.Errorf("report --format %s: table 4's row %q lacks the cost %.4f", format, cells, usd)
				}
			}
		})
	}
}

// table4Row is the cells of the line of table 4 (the query time table) that names model,
// in text, Markdown or CSV.
func table4Row(out, model string) []string {
	_, after, ok := strings.Cut(out, "Table 4")
	if !ok {
		return nil
	}
	for _, line := range strings.Split(after, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, "| "), model) {
			return strings.FieldsFunc(line, func(r rune) bool { return r == '|' || r == ',' || r == ' ' || r == '\t' })
		}
	}
	return nil
}
