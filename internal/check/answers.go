package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Verdict is a judge's answer to one question.
type Verdict int8

// The verdicts. Missing is an answer the judge never gave, even when asked again: it is
// left out of every score, never counted as "no".
const (
	Missing Verdict = iota
	Yes
	No
)

func (v Verdict) String() string {
	switch v {
	case Yes:
		return "yes"
	case No:
		return "no"
	}
	return "missing"
}

// MarshalText writes yes, no or missing.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads yes, no or missing.
func (v *Verdict) UnmarshalText(b []byte) error {
	switch string(b) {
	case "yes":
		*v = Yes
	case "no":
		*v = No
	case "missing", "":
		*v = Missing
	default:
		return fmt.Errorf("verdict %q: want yes, no or missing", b)
	}
	return nil
}

// Answer is one parsed answer.
type Answer struct {
	Q       int     `json:"q"`
	Verdict Verdict `json:"answer"`
	Reason  string  `json:"reason,omitempty"`
}

// maxReason bounds a stored justification.
const maxReason = 600

// ParseAnswers reads a judge's reply in any of the forms of spec section 3: lines such as
// "Q3 - <question>: yes (reasoning: …)", "Q3: no - because …" or "**Q3**: Sì", and a
// JSON array of {"q": 3, "answer": "yes", "reason": "…"}. Case does not matter, yes
// and no may come as sì/si/sí/oui/ja/是 and non/nein/否, and Chinese punctuation
// ("Q3：是（理由：……）") reads as its ASCII kin. questions maps the numbers asked to
// their text, so an echoed question is skipped before the answer is looked for; answers
// to numbers not in it are ignored. A nil map accepts every number. When a number is
// answered twice, the first answer counts.
func ParseAnswers(reply string, questions map[int]string) map[int]Answer {
	out := map[int]Answer{}
	keep := func(a Answer) {
		if a.Q <= 0 || a.Verdict == Missing {
			return
		}
		if questions != nil {
			if _, asked := questions[a.Q]; !asked {
				return
			}
		}
		if _, dup := out[a.Q]; dup {
			return
		}
		a.Reason = clip(oneLine(a.Reason), maxReason)
		out[a.Q] = a
	}
	for _, a := range jsonAnswers(reply) {
		keep(a)
	}
	lines := lineAnswers(reply, questions, labelPattern)
	if len(lines) == 0 && len(out) == 0 {
		// No "Qn" labels at all: accept a plain numbered list, "3. yes (…)".
		lines = lineAnswers(reply, questions, numberPattern)
	}
	for _, a := range lines {
		keep(a)
	}
	return out
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// yesWords and noWords are the answer words understood, in the languages judges slip
// into.
var (
	yesWords = []string{"yes", "yeah", "yep", "sì", "sí", "si", "oui", "ja", "true", "是的", "是"}
	noWords  = []string{"no", "nope", "non", "nein", "false", "不是", "否"}
)

// verdictAt reads an answer word at the start of s, returning the verdict and the rest.
func verdictAt(s string) (Verdict, string) {
	for _, set := range []struct {
		v     Verdict
		words []string
	}{{Yes, yesWords}, {No, noWords}} {
		for _, w := range set.words {
			n, ok := foldPrefix(s, w)
			if ok && wordEnds(s[n:]) {
				return set.v, s[n:]
			}
		}
	}
	return Missing, s
}

// foldPrefix reports whether s starts with the lower-case word w in any case, and how
// many bytes of s that takes.
func foldPrefix(s, w string) (int, bool) {
	n := 0
	for _, wr := range w {
		r, size := utf8.DecodeRuneInString(s[n:])
		if size == 0 || unicode.ToLower(r) != wr {
			return 0, false
		}
		n += size
	}
	return n, true
}

// wordEnds reports whether a word ends where rest begins: not inside a longer word
// ("not", "nonsense"), nor a hyphenated or elided one ("non-sequitur", "no'").
func wordEnds(rest string) bool {
	r, size := utf8.DecodeRuneInString(rest)
	if size == 0 {
		return true
	}
	if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
		return false
	}
	if r == '-' || r == '\'' || r == '’' {
		next, _ := utf8.DecodeRuneInString(rest[size:])
		return !unicode.IsLetter(next)
	}
	return true
}

// markup is what judges wrap labels and answers in.
const markup = " \t*_`\"'“”‘’[]<>「」『』【】\u3000"

// separators may stand between a question (or its label) and the answer.
const separators = ":-–—=?→|.)：？。）"

var (
	labelPattern  = regexp.MustCompile(`(?i)^(?:(?:q(?:uestion)?|问题)\s*(?:#|n[o°º]\.?)?\s*)(\d{1,4})(?:[^0-9]|$)`)
	numberPattern = regexp.MustCompile(`^(\d{1,3})[.):](?:\s|$)`)
	// listNumber is a list item's number before a label, "1. Q3: yes": not the question's.
	listNumber = regexp.MustCompile(`^\d{1,3}[.)]\s*`)
	// reasonLead is a label judges put before a justification.
	reasonLead = regexp.MustCompile(`(?i)^(?:reasoning|reason|justification|rationale|because|motivazione|raison|begründung|理由|推理|原因)\s*[:\-–—：]?\s*`)
	// answerLead is a label judges put before the answer on its own line.
	answerLead = regexp.MustCompile(`(?i)^(?:answer|a|risposta|réponse|antwort|回答|答案|答)\s*[:\-–—：]\s*`)
)

// lineAnswers reads answers line by line. A label with no answer on its line takes the
// answer from the next line; a justification may run over the lines that follow.
func lineAnswers(reply string, questions map[int]string, label *regexp.Regexp) []Answer {
	var out []Answer
	pending := 0 // a label seen without its answer
	open := -1   // index in out of an answer whose parenthesis is still open
	for _, raw := range strings.Split(reply, "\n") {
		line := strings.TrimLeft(strings.TrimSpace(raw), "-•>#+ \t*_`")
		if line == "" {
			continue
		}
		if n := listNumber.FindString(line); n != "" {
			if after := strings.TrimLeft(line[len(n):], "-•>#+ \t*_`"); labelPattern.MatchString(after) {
				line = after
			}
		}
		m := label.FindStringSubmatchIndex(line)
		if m == nil {
			switch {
			case pending > 0:
				body := answerLead.ReplaceAllString(strings.TrimLeft(line, markup), "")
				if v, rest := verdictAt(strings.TrimLeft(body, markup)); v != Missing {
					out = append(out, Answer{Q: pending, Verdict: v, Reason: reasonOf(rest)})
					open = openParen(rest, len(out)-1)
				}
				pending = 0
			case open >= 0:
				out[open].Reason += " " + strings.TrimRight(strings.TrimSpace(raw), ")）")
				if strings.ContainsAny(raw, ")）") {
					open = -1
				}
			}
			continue
		}
		open, pending = -1, 0
		q, err := strconv.Atoi(line[m[2]:m[3]])
		if err != nil || q <= 0 {
			continue
		}
		rest := line[m[3]:]
		v, after := findVerdict(rest, questions[q])
		if v == Missing {
			pending = q
			continue
		}
		out = append(out, Answer{Q: q, Verdict: v, Reason: reasonOf(after)})
		open = openParen(after, len(out)-1)
	}
	return out
}

// openParen returns i when text opens a justification in parentheses it does not close.
func openParen(text string, i int) int {
	t := strings.TrimLeft(text, markup+reasonPunct)
	if (strings.HasPrefix(t, "(") && !strings.Contains(t, ")")) || (strings.HasPrefix(t, "（") && !strings.Contains(t, "）")) {
		return i
	}
	return -1
}

// reasonPunct is what may stand between an answer word and its justification.
const reasonPunct = ".,;:!-–—，。；：！、"

// findVerdict finds the answer in what follows a question label: straight after the
// label, after the echoed question when its text is known, or else after the first
// separator that an answer word follows.
func findVerdict(rest, question string) (Verdict, string) {
	trimmed := strings.TrimLeft(rest, markup+separators)
	// The echo first: a question may itself start with an answer word ("No witness …?").
	if question != "" {
		if cut, ok := cutEcho(trimmed, question); ok {
			if v, after := verdictAt(strings.TrimLeft(cut, markup+separators)); v != Missing {
				return v, after
			}
		}
	}
	if v, after := verdictAt(trimmed); v != Missing {
		return v, after
	}
	for i, r := range rest {
		if !strings.ContainsRune(separators, r) {
			continue
		}
		if v, after := verdictAt(strings.TrimLeft(rest[i+utf8.RuneLen(r):], markup+separators)); v != Missing {
			return v, after
		}
	}
	return Missing, rest
}

// cutEcho removes the question's text from the start of s, comparing letters and digits
// only, so an echo with different punctuation or case still matches.
func cutEcho(s, question string) (string, bool) {
	want := looseRunes(question)
	if len(want) == 0 {
		return s, false
	}
	k := 0
	for i, r := range s {
		if !isWordRune(r) {
			continue
		}
		if unicode.ToLower(r) != want[k] {
			return s, false
		}
		k++
		if k == len(want) {
			return s[i+utf8.RuneLen(r):], true
		}
	}
	return s, false
}

func looseRunes(s string) []rune {
	var out []rune
	for _, r := range s {
		if isWordRune(r) {
			out = append(out, unicode.ToLower(r))
		}
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// reasonOf reads the justification after an answer word: the inside of parentheses, or
// the text after a dash, colon or comma, without a "reasoning:" label.
func reasonOf(s string) string {
	s = strings.TrimLeft(s, markup+reasonPunct)
	for _, p := range [][2]string{{"(", ")"}, {"（", "）"}} {
		if rest, ok := strings.CutPrefix(s, p[0]); ok {
			s = rest
			if i := strings.LastIndex(s, p[1]); i >= 0 {
				s = s[:i]
			}
			break
		}
	}
	s = strings.TrimSpace(s)
	s = reasonLead.ReplaceAllString(s, "")
	return strings.TrimSpace(strings.Trim(s, "*_`"))
}

// jsonAnswers reads the first JSON array of answers in the reply, bare or inside an
// object such as {"answers": […]}, in a code fence or not.
func jsonAnswers(reply string) []Answer {
	for i := 0; i < len(reply); i++ {
		c := reply[i]
		if c != '[' && c != '{' {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(reply[i:]))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			continue
		}
		if as := answersFromJSON(v); len(as) > 0 {
			return as
		}
		i += int(dec.InputOffset()) - 1
	}
	return nil
}

func answersFromJSON(v any) []Answer {
	switch x := v.(type) {
	case []any:
		var out []Answer
		for _, item := range x {
			obj, ok := item.(map[string]any)
			if !ok {
				continue
			}
			if a, ok := answerFromJSON(obj); ok {
				out = append(out, a)
			}
		}
		return out
	case map[string]any:
		for _, k := range []string{"answers", "results", "questions", "checklist"} {
			if arr, ok := x[k].([]any); ok {
				return answersFromJSON(arr)
			}
		}
	}
	return nil
}

func answerFromJSON(obj map[string]any) (Answer, bool) {
	var a Answer
	for _, k := range []string{"q", "question", "id", "n", "number", "question_number", "qn"} {
		if q, ok := questionNumber(obj[k]); ok {
			a.Q = q
			break
		}
	}
	if a.Q <= 0 {
		return a, false
	}
	for _, k := range []string{"answer", "verdict", "a", "value", "response"} {
		switch v := obj[k].(type) {
		case string:
			a.Verdict, _ = verdictAt(strings.TrimLeft(strings.TrimSpace(v), markup))
		case bool:
			a.Verdict = No
			if v {
				a.Verdict = Yes
			}
		}
		if a.Verdict != Missing {
			break
		}
	}
	for _, k := range []string{"reason", "reasoning", "justification", "rationale", "why"} {
		if s, ok := obj[k].(string); ok {
			a.Reason = s
			break
		}
	}
	return a, a.Verdict != Missing
}

func questionNumber(v any) (int, bool) {
	switch x := v.(type) {
	case json.Number:
		n, err := x.Int64()
		if err != nil || n <= 0 || n > 1e6 {
			return 0, false
		}
		return int(n), true
	case string:
		s := strings.TrimSpace(x)
		s = strings.TrimLeft(s, "Qq# ")
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 || n > 1e6 {
			return 0, false
		}
		return n, true
	}
	return 0, false
}

// stripFence removes a Markdown code fence around a reply, if there is one.
func stripFence(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "```") {
		return s
	}
	t = strings.TrimPrefix(t, "```")
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = t[i+1:]
	}
	if i := strings.LastIndex(t, "```"); i >= 0 {
		t = t[:i]
	}
	return string(bytes.TrimSpace([]byte(t)))
}
