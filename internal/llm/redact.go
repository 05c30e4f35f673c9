package llm

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// Redacted is what a key a model repeated back is replaced with in its reply.
const Redacted = "[REDACTED]"

// minSecret is the shortest value redacted: shorter ones are placeholders, and replacing
// them would garble ordinary text.
const minSecret = 8

// Redact replaces secret (the adapter's API key) with Redacted wherever the reply shows
// it: Text, Reasoning, Refusal and Raw, so that a model or gateway that repeats the key
// never puts it in the store. In Raw the key is replaced as it appears inside JSON
// strings (plain and JSON-escaped), which keeps Raw valid JSON; should the key stand
// outside a string, Raw becomes one JSON string of the redacted text. It returns r.
func (r *Reply) Redact(secret string) *Reply {
	if r == nil || len(secret) < minSecret {
		return r
	}
	r.Text = strings.ReplaceAll(r.Text, secret, Redacted)
	r.Reasoning = strings.ReplaceAll(r.Reasoning, secret, Redacted)
	r.Refusal = strings.ReplaceAll(r.Refusal, secret, Redacted)
	r.Raw = redactJSON(r.Raw, secret)
	return r
}

func redactJSON(raw json.RawMessage, secret string) json.RawMessage {
	out := []byte(raw)
	found := false
	for _, form := range jsonForms(secret) {
		if bytes.Contains(out, []byte(form)) {
			out = bytes.ReplaceAll(out, []byte(form), []byte(Redacted))
			found = true
		}
	}
	if !found {
		return raw
	}
	if json.Valid(out) || !json.Valid(raw) {
		return out
	}
	b, err := json.Marshal(string(out))
	if err != nil {
		return nil
	}
	return b
}

// jsonForms are the ways secret may appear inside a JSON string: as itself and escaped,
// with and without the HTML escapes Go's encoder adds.
func jsonForms(secret string) []string {
	forms := []string{secret}
	for _, html := range []bool{true, false} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		if enc.Encode(secret) != nil {
			continue
		}
		s := strings.TrimSuffix(b.String(), "\n")
		s = s[1 : len(s)-1]
		if !slices.Contains(forms, s) {
			forms = append(forms, s)
		}
	}
	return forms
}

// RedactDeltas wraps a stream's OnDelta so that no delta shows secret, even split across
// deltas: the end of the text that could begin the key is held back until the next
// delta shows whether it does. Call flush when the stream ends well, to hand on what was
// held back (never more than the key's length less one byte). The joined deltas then
// equal the reply's redacted Text. With no callback or a short secret, onDelta comes back
// as it is.
func RedactDeltas(onDelta func(string), secret string) (write func(string), flush func()) {
	if onDelta == nil || len(secret) < minSecret {
		return onDelta, func() {}
	}
	var held string
	write = func(d string) {
		buf := strings.ReplaceAll(held+d, secret, Redacted)
		keep := 0
		for k := min(len(buf), len(secret)-1); k > 0; k-- {
			if strings.HasSuffix(buf, secret[:k]) {
				keep = k
				break
			}
		}
		held = buf[len(buf)-keep:]
		if out := buf[:len(buf)-keep]; out != "" {
			onDelta(out)
		}
	}
	flush = func() {
		if held != "" {
			onDelta(held)
			held = ""
		}
	}
	return write, flush
}
