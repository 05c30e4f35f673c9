package llm

import (
	"encoding/json"
	"strings"
	"testing"
)

const testKey = "sk-test-SECRET-0123456789"

func TestReplyRedact(t *testing.T) {
	tests := []struct {
		name    string
		raw     string
		wantRaw string
	}{
		{"key in a string", `{"text":"my key is sk-test-SECRET-0123456789"}`, `{"text":"my key is [REDACTED]"}`},
		{"no key", `{"text":"hello"}`, `{"text":"hello"}`},
		{"key outside a string", `{"n":sk-test-SECRET-0123456789}`, `{"n":[REDACTED]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := (&Reply{
				Text: "key " + testKey + ".", Reasoning: testKey + testKey, Refusal: "no " + testKey,
				Raw: json.RawMessage(tt.raw),
			}).Redact(testKey)
			if r.Text != "key [REDACTED]." || r.Reasoning != "[REDACTED][REDACTED]" || r.Refusal != "no [REDACTED]" {
				t.Errorf("Redact = %q %q %q", r.Text, r.Reasoning, r.Refusal)
			}
			if strings.Contains(string(r.Raw), testKey) {
				t.Errorf("Raw = %s; shows the key", r.Raw)
			}
			if json.Valid([]byte(tt.raw)) && !json.Valid(r.Raw) {
				t.Errorf("Raw = %s; not valid JSON any more", r.Raw)
			}
			if json.Valid(r.Raw) && tt.wantRaw != string(r.Raw) && json.Valid([]byte(tt.wantRaw)) {
				t.Errorf("Raw = %s; want %s", r.Raw, tt.wantRaw)
			}
		})
	}
	t.Run("escaped in JSON", func(t *testing.T) {
		key := `sk-<weird>&"key"`
		raw, _ := json.Marshal(map[string]string{"text": "it is " + key})
		r := (&Reply{Raw: raw}).Redact(key)
		var got map[string]string
		if err := json.Unmarshal(r.Raw, &got); err != nil || got["text"] != "it is [REDACTED]" {
			t.Errorf("Raw = %s (%v); want the escaped key redacted", r.Raw, err)
		}
	})
	t.Run("short values are left alone", func(t *testing.T) {
		r := (&Reply{Text: "a b c"}).Redact("a")
		if r.Text != "a b c" {
			t.Errorf("Redact(short) = %q", r.Text)
		}
	})
}

// streamed splits text at cuts and sends the pieces through RedactDeltas.
func streamed(text string, cuts []int, secret string) (deltas []string) {
	write, flush := RedactDeltas(func(d string) { deltas = append(deltas, d) }, secret)
	prev := 0
	for _, c := range cuts {
		c = min(max(c, prev), len(text))
		write(text[prev:c])
		prev = c
	}
	write(text[prev:])
	flush()
	return deltas
}

func TestRedactDeltas(t *testing.T) {
	text := "first " + testKey + " then sk-test-almost and " + testKey + testKey + " end sk-test-SECRET"
	want := strings.ReplaceAll(text, testKey, Redacted)
	// Every way of cutting the text in two and in three pieces.
	for i := 0; i <= len(text); i++ {
		for j := i; j <= len(text); j += 7 {
			deltas := streamed(text, []int{i, j}, testKey)
			if got := strings.Join(deltas, ""); got != want {
				t.Fatalf("cuts %d,%d: deltas joined = %q; want %q", i, j, got, want)
			}
			for _, d := range deltas {
				if strings.Contains(d, testKey) || d == "" {
					t.Fatalf("cuts %d,%d: delta %q", i, j, d)
				}
			}
		}
	}
	if w, _ := RedactDeltas(nil, testKey); w != nil {
		t.Error("RedactDeltas(nil) is not nil")
	}
}

func FuzzRedactDeltas(f *testing.F) {
	f.Add("abc sk-test-SECRET-0123456789 def", 3, 9, "sk-test-SECRET-0123456789")
	f.Add("aaaaaaaaab", 4, 5, "aaaaaaab")
	f.Fuzz(func(t *testing.T, text string, i, j int, secret string) {
		if len(secret) < minSecret {
			return
		}
		deltas := streamed(text, []int{i, j}, secret)
		if got, want := strings.Join(deltas, ""), strings.ReplaceAll(text, secret, Redacted); got != want {
			t.Errorf("deltas joined = %q; want %q", got, want)
		}
	})
}
