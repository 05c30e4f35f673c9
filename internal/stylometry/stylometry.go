// Package stylometry measures how the generators of a CoC-Seduce dataset write (paper
// section 5.2, spec seduce.md section 5): per generator and rhetorical style, the length
// of the player's statements in o200k_base tokens and in words, their em-dash rate, and
// the words that set each generator's vocabulary apart from the others' (TF-IDF terms and
// z-scored log-odds ratios).
//
// Tokens come from github.com/tiktoken-go/tokenizer, which embeds OpenAI's vocabularies in
// the binary, so a measurement needs no download and gives the counts OpenAI's own
// tiktoken gives. The package only measures; internal/report renders what it returns
// (Tables, Figure) and the JSON shape of Report is the spec's.
package stylometry

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tiktoken-go/tokenizer"

	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// Tokenizer is the encoding every token count is made with (spec section 5).
const Tokenizer = "o200k_base"

// AllStyles is the style of the row that pools a generator's samples of every style.
const AllStyles = "All"

// DefaultTopTerms is how many TF-IDF terms and log-odds words a document lists (spec
// section 5: 20).
const DefaultTopTerms = 20

// Row is one (generator, style) cell of the measurement. Its JSON names are the spec's.
type Row struct {
	Generator string `json:"generator"`
	// Style is a seduce style or AllStyles.
	Style   string `json:"style"`
	Samples int    `json:"samples"`
	// Tokens is the sum of the statements' o200k_base token counts.
	Tokens     int     `json:"tokens"`
	TokensMean float64 `json:"tokens_mean"`
	// TokensSD is the sample standard deviation (n-1) of the token counts; 0 below two
	// samples.
	TokensSD float64 `json:"tokens_sd"`
	// WordsMean is the mean count of whitespace-separated words.
	WordsMean float64 `json:"words_mean"`
	// EmDashes counts U+2014 in the statements.
	EmDashes int `json:"em_dashes"`
	// EmDashPer100Tokens is 100 × EmDashes / Tokens; 0 when there are no tokens.
	EmDashPer100Tokens float64 `json:"em_dash_per_100_tokens"`
}

// Term is a word and its TF-IDF score in one document.
type Term struct {
	Term  string  `json:"term"`
	Score float64 `json:"score"`
}

// Report is the whole measurement, as `arbiter seduce style --format json` prints it.
type Report struct {
	Tokenizer string `json:"tokenizer"`
	// Rows has, per generator in name order, one row per style present (in the order of
	// seduce.Styles, then any other style by name) and then the AllStyles row.
	Rows []Row `json:"rows"`
	// Terms lists each generator's top TF-IDF terms, one document per generator.
	Terms map[string][]Term `json:"terms"`
	// LogOdds lists each generator's words with the highest z-scored log-odds ratio
	// against all the other generators (LogOdds).
	LogOdds map[string][]LogOddsTerm `json:"log_odds"`
	// StyleTerms lists the top terms of each generator × style, one document per pair
	// against all the pairs (a field the spec allows to be added).
	StyleTerms map[string]map[string][]Term `json:"style_terms"`
}

// Options tune a measurement; the zero value is the spec's.
type Options struct {
	// StopWords are left out of the TF-IDF and log-odds vocabulary; nil is
	// DefaultStopWords.
	StopWords map[string]bool
	// TopTerms is how many TF-IDF terms and log-odds words a document lists; 0 is
	// DefaultTopTerms.
	TopTerms int
}

// Measure measures the statements of samples.
func Measure(samples []seduce.Sample, opt Options) (*Report, error) {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		return nil, fmt.Errorf("stylometry: open the %s tokenizer: %w", Tokenizer, err)
	}
	if opt.StopWords == nil {
		opt.StopWords = DefaultStopWords()
	}
	if opt.TopTerms <= 0 {
		opt.TopTerms = DefaultTopTerms
	}

	type key struct{ generator, style string }
	cells := map[key]*acc{}
	get := func(k key) *acc {
		a := cells[k]
		if a == nil {
			a = &acc{}
			cells[k] = a
		}
		return a
	}
	genDocs := map[string]map[string]int{}
	pairDocs := map[key]map[string]int{}
	for i := range samples {
		s := &samples[i]
		n, err := enc.Count(s.Statement)
		if err != nil {
			return nil, fmt.Errorf("stylometry: count the tokens of sample %s: %w", s.ID, err)
		}
		m := measure{tokens: n, words: len(strings.Fields(s.Statement)), emDashes: strings.Count(s.Statement, "\u2014")}
		get(key{s.Generator, string(s.Style)}).add(m)
		get(key{s.Generator, AllStyles}).add(m)
		words := Words(s.Statement, opt.StopWords)
		addWords(genDocs, s.Generator, words)
		addWords(pairDocs, key{s.Generator, string(s.Style)}, words)
	}

	rep := &Report{Tokenizer: Tokenizer, Rows: []Row{}, Terms: map[string][]Term{}, LogOdds: map[string][]LogOddsTerm{}, StyleTerms: map[string]map[string][]Term{}}
	var keys []key
	for k := range cells {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.generator, b.generator), cmp.Compare(styleRank(a.style), styleRank(b.style)), cmp.Compare(a.style, b.style))
	})
	for _, k := range keys {
		rep.Rows = append(rep.Rows, cells[k].row(k.generator, k.style))
	}
	for gen, terms := range TFIDF(genDocs, opt.TopTerms) {
		rep.Terms[gen] = terms
	}
	for gen, terms := range LogOdds(genDocs, opt.TopTerms) {
		rep.LogOdds[gen] = terms
	}
	for k, terms := range TFIDF(pairDocs, opt.TopTerms) {
		if rep.StyleTerms[k.generator] == nil {
			rep.StyleTerms[k.generator] = map[string][]Term{}
		}
		rep.StyleTerms[k.generator][k.style] = terms
	}
	return rep, nil
}

// styleRank orders the paper's styles first, in seduce.Styles order, then any other,
// then AllStyles.
func styleRank(style string) int {
	if style == AllStyles {
		return len(seduce.Styles) + 1
	}
	if i := slices.Index(seduce.Styles, seduce.Style(style)); i >= 0 {
		return i
	}
	return len(seduce.Styles)
}

// measure is what one statement contributes.
type measure struct{ tokens, words, emDashes int }

// acc sums the measures of one cell.
type acc struct {
	n, tokens, words, emDashes int
	tokenCounts                []int
}

func (a *acc) add(m measure) {
	a.n++
	a.tokens += m.tokens
	a.words += m.words
	a.emDashes += m.emDashes
	a.tokenCounts = append(a.tokenCounts, m.tokens)
}

func (a *acc) row(generator, style string) Row {
	r := Row{Generator: generator, Style: style, Samples: a.n, Tokens: a.tokens, EmDashes: a.emDashes}
	if a.n == 0 {
		return r
	}
	r.TokensMean = float64(a.tokens) / float64(a.n)
	r.WordsMean = float64(a.words) / float64(a.n)
	if a.n > 1 {
		var ss float64
		for _, c := range a.tokenCounts {
			d := float64(c) - r.TokensMean
			ss += d * d
		}
		r.TokensSD = math.Sqrt(ss / float64(a.n-1))
	}
	if a.tokens > 0 {
		r.EmDashPer100Tokens = 100 * float64(a.emDashes) / float64(a.tokens)
	}
	return r
}

func addWords[K comparable](docs map[K]map[string]int, k K, words []string) {
	d := docs[k]
	if d == nil {
		d = map[string]int{}
		docs[k] = d
	}
	for _, w := range words {
		d[w]++
	}
}
