package seduce

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

//go:embed data/keywords.yaml
var keywordsYAML []byte

// The built-in baselines' model names.
const (
	BaselineAlwaysRoll llm.ModelName = "baseline/always-roll"
	BaselineNeverRoll  llm.ModelName = "baseline/never-roll"
	BaselineKeyword    llm.ModelName = "baseline/keyword"
)

// Baselines returns the three built-in adjudicators, which need no network and are
// deterministic. Like any model they read the rendered request (through
// SplitUserMessage) and answer with the JSON reply format, so their replies go through
// the same parser as a language model's.
//
//   - baseline/always-roll always asks for a roll: its false-check rate is 1.
//   - baseline/never-roll always grants automatic success: its false-pass rate is 1.
//   - baseline/keyword rules from risk and calm cues in the context only
//     (data/keywords.yaml), ignoring the statement's rhetoric, so it gives the same
//     ruling to all four styles of a scenario.
//
// All three name the skill the keyword table finds in the context and the statement, so
// their wrong-skill rates measure that table. A nil tax means DefaultTaxonomy.
func Baselines(tax *Taxonomy) map[llm.ModelName]llm.Model {
	if tax == nil {
		tax = DefaultTaxonomy()
	}
	k, err := parseKeywordRules(keywordsYAML, tax)
	if err != nil {
		// The embedded table is tested; failing here is a build defect.
		panic(err)
	}
	always := func(d Decision, reason string) func(c, s string) keywordRuling {
		return func(c, s string) keywordRuling {
			return keywordRuling{Decision: d, Skill: k.skill(c, s), Reason: reason}
		}
	}
	return map[llm.ModelName]llm.Model{
		BaselineAlwaysRoll: newBaseline(BaselineAlwaysRoll, always(DecisionRoll, "This baseline asks for a roll on every action.")),
		BaselineNeverRoll:  newBaseline(BaselineNeverRoll, always(DecisionPass, "This baseline grants automatic success on every action.")),
		BaselineKeyword:    newBaseline(BaselineKeyword, k.rule),
	}
}

// baselineReply is the adjudicator's JSON reply format.
type baselineReply struct {
	Decision string  `json:"decision"`
	Skill    *string `json:"skill"`
	Reason   string  `json:"reason"`
}

func newBaseline(name llm.ModelName, rule func(context, statement string) keywordRuling) llm.Model {
	return llm.Func{ModelName: name, Fn: func(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		start := time.Now()
		var user string
		for _, m := range req.Messages {
			if m.Role == llm.RoleUser {
				user = m.Text
			}
		}
		c, s, ok := SplitUserMessage(user)
		if !ok {
			return nil, fmt.Errorf("%s: the request's user message is not in the adjudicator layout (\"Session context:\" … \"Player statement:\" …)", name)
		}
		r := rule(c, s)
		out := baselineReply{Decision: "roll", Reason: r.Reason}
		if r.Decision == DecisionPass {
			out.Decision = "automatic_success"
		}
		if r.Skill != "" {
			out.Skill = &r.Skill
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			return nil, fmt.Errorf("%s: encode reply: %w", name, err)
		}
		return &llm.Reply{
			Text:     strings.TrimSpace(b.String()),
			Finish:   llm.FinishStop,
			Model:    name.ID(),
			Latency:  time.Since(start),
			Attempts: 1,
		}, nil
	}}
}

// keywordFile is the YAML layout of data/keywords.yaml.
type keywordFile struct {
	Weights struct {
		Context   float64 `yaml:"context"`
		Statement float64 `yaml:"statement"`
		SkillName float64 `yaml:"skill_name"`
	} `yaml:"weights"`
	LowSkillPercent int                           `yaml:"low_skill_percent"`
	LowSkillWeight  float64                       `yaml:"low_skill_weight"`
	Risk            map[string]float64            `yaml:"risk"`
	Calm            map[string]float64            `yaml:"calm"`
	Skills          map[string]map[string]float64 `yaml:"skills"`
}

// keyPhrase is one keyword: a run of word patterns, with a weight and what it stands for.
type keyPhrase struct {
	text   string
	words  []string
	weight float64
	risk   bool   // for cues: a risk cue, else a calm cue
	skill  string // for skill keywords: the canonical skill
}

// keywordRules is the keyword baseline's table, resolved against a taxonomy.
type keywordRules struct {
	cues       keyPhraseSet // longest first, so "no hurry" is seen before "hurry"
	skills     keyPhraseSet
	skillOrder map[string]int
	ctxW       float64
	stmtW      float64
	lowPct     int
	lowW       float64
}

// keywordRuling is what the keyword baseline decides, and why.
type keywordRuling struct {
	Decision Decision
	Skill    string
	Risk     []string
	Calm     []string
	Reason   string
}

var keywordTokenRe = regexp.MustCompile(`[a-z0-9]+`)

func keywordTokens(s string) []string { return keywordTokenRe.FindAllString(strings.ToLower(s), -1) }

// keyPhraseSet indexes phrases by their first word so a text is scanned once.
type keyPhraseSet struct {
	all      []keyPhrase
	byFirst  map[string][]int // exact first word -> indexes into all, in order
	wildcard []int            // phrases whose first word ends in *
}

func newKeyPhraseSet(ps []keyPhrase) keyPhraseSet {
	set := keyPhraseSet{all: ps, byFirst: map[string][]int{}}
	for i, p := range ps {
		if strings.HasSuffix(p.words[0], "*") {
			set.wildcard = append(set.wildcard, i)
		} else {
			set.byFirst[p.words[0]] = append(set.byFirst[p.words[0]], i)
		}
	}
	return set
}

// startingAt returns, in the set's order, the phrases that match ws from position i.
func (set keyPhraseSet) startingAt(ws []string, i int) []int {
	w := ws[i]
	var cand []int
	cand = append(cand, set.byFirst[w]...)
	if stem, ok := strings.CutSuffix(w, "es"); ok {
		cand = append(cand, set.byFirst[stem]...)
	}
	if stem, ok := strings.CutSuffix(w, "s"); ok {
		cand = append(cand, set.byFirst[stem]...)
	}
	cand = append(cand, set.wildcard...)
	slices.Sort(cand)
	cand = slices.Compact(cand)
	out := cand[:0]
	for _, j := range cand {
		if keyPhraseAt(set.all[j], ws, i) {
			out = append(out, j)
		}
	}
	return out
}

func newKeyPhrase(text string, weight float64) keyPhrase {
	return keyPhrase{text: strings.ToLower(strings.TrimSpace(text)), words: keywordPatternTokens(text), weight: weight}
}

// keywordPatternTokens splits a keyword like keywordTokens does, keeping a trailing * wildcard.
func keywordPatternTokens(s string) []string {
	ws := keywordTokens(s)
	if strings.HasSuffix(strings.TrimSpace(s), "*") && len(ws) > 0 {
		ws[len(ws)-1] += "*"
	}
	return ws
}

func parseKeywordRules(data []byte, tax *Taxonomy) (*keywordRules, error) {
	var f keywordFile
	if err := yaml.UnmarshalWithOptions(data, &f, yaml.DisallowUnknownField()); err != nil {
		return nil, fmt.Errorf("keyword table: %w", err)
	}
	k := &keywordRules{
		ctxW:       f.Weights.Context,
		stmtW:      f.Weights.Statement,
		lowPct:     f.LowSkillPercent,
		lowW:       f.LowSkillWeight,
		skillOrder: map[string]int{},
	}
	var cues, skills []keyPhrase
	for text, w := range f.Risk {
		p := newKeyPhrase(text, w)
		p.risk = true
		cues = append(cues, p)
	}
	for text, w := range f.Calm {
		cues = append(cues, newKeyPhrase(text, w))
	}
	slices.SortFunc(cues, func(a, b keyPhrase) int {
		if d := len(b.words) - len(a.words); d != 0 {
			return d
		}
		return strings.Compare(a.text, b.text)
	})
	for i, s := range tax.Skills() {
		k.skillOrder[s] = i
	}
	// The taxonomy's own names for a skill are keywords of it.
	for _, name := range slices.Sorted(maps.Keys(tax.index)) {
		p := newKeyPhrase(name, f.Weights.SkillName)
		p.skill = tax.index[name]
		skills = append(skills, p)
	}
	for _, name := range slices.Sorted(maps.Keys(f.Skills)) {
		canon, ok := tax.Canonical(name)
		if !ok {
			continue // a replaced taxonomy may lack this skill
		}
		words := f.Skills[name]
		for _, text := range slices.Sorted(maps.Keys(words)) {
			p := newKeyPhrase(text, words[text])
			p.skill = canon
			skills = append(skills, p)
		}
	}
	for _, p := range append(slices.Clone(cues), skills...) {
		if len(p.words) == 0 {
			return nil, fmt.Errorf("keyword table: %q has no words", p.text)
		}
	}
	k.cues, k.skills = newKeyPhraseSet(cues), newKeyPhraseSet(skills)
	return k, nil
}

// keywordWordMatches reports whether a text word matches a keyword word.
func keywordWordMatches(pattern, w string) bool {
	if stem, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(w, stem)
	}
	return w == pattern || w == pattern+"s" || w == pattern+"es"
}

func keyPhraseAt(p keyPhrase, ws []string, i int) bool {
	if i+len(p.words) > len(ws) {
		return false
	}
	for j, pw := range p.words {
		if !keywordWordMatches(pw, ws[i+j]) {
			return false
		}
	}
	return true
}

var keywordPercentRe = regexp.MustCompile(`\b(\d{1,3})\s?%`)

// keywordCue is a cue as it reads in the context, and where.
type keywordCue struct {
	at   int
	text string
	risk bool
}

// rule is the keyword baseline's ruling: the decision from the context alone, the skill
// from both.
func (k *keywordRules) rule(context, statement string) keywordRuling {
	r := keywordRuling{Skill: k.skill(context, statement)}
	lower := strings.ToLower(context)
	locs := keywordTokenRe.FindAllStringIndex(lower, -1)
	ws := make([]string, len(locs))
	for i, l := range locs {
		ws[i] = lower[l[0]:l[1]]
	}
	// Claim words longest phrase first, so "no hurry" keeps its "hurry" from the risks.
	used := make([]bool, len(ws))
	first := map[int]keywordCue{} // phrase index -> its first occurrence
	matches := make([][]int, len(ws))
	for i := range ws {
		matches[i] = k.cues.startingAt(ws, i)
	}
	for pi, p := range k.cues.all {
		for i := range ws {
			if !slices.Contains(matches[i], pi) || slices.Contains(used[i:i+len(p.words)], true) {
				continue
			}
			for j := range p.words {
				used[i+j] = true
			}
			if _, seen := first[pi]; !seen {
				end := locs[i+len(p.words)-1][1]
				first[pi] = keywordCue{at: locs[i][0], text: context[locs[i][0]:end], risk: p.risk}
			}
		}
	}
	var risk, calm float64
	var found []keywordCue
	for pi, c := range first {
		if c.risk {
			risk += k.cues.all[pi].weight
		} else {
			calm += k.cues.all[pi].weight
		}
		found = append(found, c)
	}
	low, lowAt := -1, 0
	for _, m := range keywordPercentRe.FindAllStringSubmatchIndex(context, -1) {
		n, err := strconv.Atoi(context[m[2]:m[3]])
		if err == nil && n < k.lowPct && (low < 0 || n < low) {
			low, lowAt = n, m[0]
		}
	}
	if low >= 0 {
		risk += k.lowW
		found = append(found, keywordCue{at: lowAt, text: fmt.Sprintf("a rating of %d%%", low), risk: true})
	}
	slices.SortFunc(found, func(a, b keywordCue) int { return a.at - b.at })
	for _, c := range found {
		if c.risk {
			r.Risk = append(r.Risk, c.text)
		} else {
			r.Calm = append(r.Calm, c.text)
		}
	}
	r.Decision = DecisionRoll
	if calm > risk {
		r.Decision = DecisionPass
	}
	switch {
	case len(r.Risk) == 0 && len(r.Calm) == 0:
		r.Reason = "The context shows no risk or calm cues, so the ruling defaults to a roll."
	case r.Decision == DecisionPass:
		r.Reason = fmt.Sprintf("Calm cues in the context (%s) outweigh risk cues (%s), so the action succeeds automatically.", keywordCueList(r.Calm), keywordCueList(r.Risk))
	default:
		r.Reason = fmt.Sprintf("Risk cues in the context (%s) outweigh or match calm cues (%s), so the action needs a roll.", keywordCueList(r.Risk), keywordCueList(r.Calm))
	}
	return r
}

func keywordCueList(cues []string) string {
	const show = 10
	switch {
	case len(cues) == 0:
		return "none"
	case len(cues) > show:
		return fmt.Sprintf("%s and %d more", strings.Join(cues[:show], ", "), len(cues)-show)
	}
	return strings.Join(cues, ", ")
}

// skill scores every skill's keywords, context words counting more than statement words,
// and returns the best, or "" when no keyword is present.
func (k *keywordRules) skill(context, statement string) string {
	score := map[string]float64{}
	for _, part := range []struct {
		ws []string
		w  float64
	}{{keywordTokens(context), k.ctxW}, {keywordTokens(statement), k.stmtW}} {
		for i := range part.ws {
			for _, pi := range k.skills.startingAt(part.ws, i) {
				p := k.skills.all[pi]
				score[p.skill] += p.weight * part.w
			}
		}
	}
	best := ""
	for s, v := range score {
		if v <= 0 {
			continue
		}
		if best == "" || v > score[best] || v == score[best] && k.skillOrder[s] < k.skillOrder[best] {
			best = s
		}
	}
	return best
}
