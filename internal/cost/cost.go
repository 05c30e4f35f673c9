// Package cost prices model usage and estimates what a run will cost before it starts.
//
// Prices come from the model database that charm.land/catwalk embeds (per provider, US
// dollars per million tokens), overridden or extended by the config file's prices
// section. Local models (baselines, Ollama) cost nothing. The batch APIs of OpenAI,
// Anthropic and Gemini charge half; cached prompt tokens are charged at the cache-read
// price where the database has one.
//
// Input tokens are counted with a real tokenizer (o200k_base, from
// github.com/tiktoken-go/tokenizer, which embeds its vocabulary) over every message of
// a request, with the few tokens of framing each chat message adds.
package cost

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"charm.land/catwalk/pkg/catwalk"
	"charm.land/catwalk/pkg/embedded"
	"github.com/tiktoken-go/tokenizer"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

// Price is one model's price in US dollars per million tokens.
type Price struct {
	Input, Output float64
	// CachedInput is the price of a prompt token read from the provider's cache.
	CachedInput float64
	// Batch is the share of the price paid through the batch API; 0 means the provider
	// has no batch API arbiter uses.
	Batch float64
	// Local models cost nothing.
	Local bool
}

// Usage is what a request (or a run) used.
type Usage struct {
	Input, CachedInput, Output int64
}

// Cost is the price of u in US dollars, through the batch API when batch is set (and
// the provider has one).
func (p Price) Cost(u Usage, batch bool) float64 {
	if p.Local {
		return 0
	}
	cached := min(u.CachedInput, u.Input)
	c := (float64(u.Input-cached)*p.Input + float64(cached)*p.CachedInput + float64(u.Output)*p.Output) / 1e6
	if batch && p.Batch > 0 {
		c *= p.Batch
	}
	return c
}

// batchShare is the batch APIs' price, as a share of the direct one, by provider.
var batchShare = map[string]float64{"openai": 0.5, "anthropic": 0.5, "google": 0.5}

// catalogOf maps arbiter's provider names to the model database's where they differ.
var catalogOf = map[string]catwalk.InferenceProvider{"google": catwalk.InferenceProviderGemini}

// localProviders run on the user's machine.
var localProviders = map[string]bool{"baseline": true, "ollama": true}

// Prices looks prices up by model.
type Prices struct {
	byModel map[llm.ModelName]Price
}

var (
	defaultOnce sync.Once
	defaults    map[llm.ModelName]Price
)

// Default is the embedded model database's prices.
func Default() *Prices {
	defaultOnce.Do(func() {
		defaults = map[llm.ModelName]Price{}
		for _, prov := range embedded.GetAll() {
			name := string(prov.ID)
			for ours, theirs := range catalogOf {
				if theirs == prov.ID {
					name = ours
				}
			}
			for _, m := range prov.Models {
				defaults[llm.ModelName(name+"/"+m.ID)] = fromCatalog(name, m)
			}
		}
	})
	p := &Prices{byModel: make(map[llm.ModelName]Price, len(defaults))}
	for k, v := range defaults {
		p.byModel[k] = v
	}
	return p
}

// fromCatalog reads a database entry. The database's two cached prices mean different
// things per provider (cache writes and reads for Anthropic, reads alone for others):
// the cheaper one below the input price is the read price.
func fromCatalog(provider string, m catwalk.Model) Price {
	p := Price{Input: m.CostPer1MIn, Output: m.CostPer1MOut, CachedInput: m.CostPer1MIn, Batch: batchShare[provider]}
	for _, c := range []float64{m.CostPer1MInCached, m.CostPer1MOutCached} {
		if c > 0 && c < p.CachedInput {
			p.CachedInput = c
		}
	}
	return p
}

// Override applies a config file's prices section. A model the database lacks must
// give input and output; an error names the model and the field.
func (p *Prices) Override(path string, specs map[string]config.PriceSpec) error {
	names := make([]string, 0, len(specs))
	for n := range specs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s := specs[n]
		name, err := llm.ParseModelName(n)
		if err != nil {
			return fmt.Errorf("config %s: prices.%s: %v", path, n, err)
		}
		pr, known := p.lookup(name)
		if !known && (s.Input == nil || s.Output == nil) {
			return fmt.Errorf("config %s: prices.%s: the model database does not know this model, so give input and output", path, n)
		}
		if !known {
			pr = Price{Batch: batchShare[name.Provider()]}
		}
		for field, v := range map[string]*float64{"input": s.Input, "output": s.Output, "cached_input": s.CachedInput, "batch": s.Batch} {
			if v != nil && *v < 0 {
				return fmt.Errorf("config %s: prices.%s.%s: %v is negative", path, n, field, *v)
			}
		}
		if s.Input != nil {
			pr.Input = *s.Input
			if s.CachedInput == nil && (!known || pr.CachedInput > pr.Input) {
				pr.CachedInput = pr.Input
			}
		}
		if s.Output != nil {
			pr.Output = *s.Output
		}
		if s.CachedInput != nil {
			pr.CachedInput = *s.CachedInput
		}
		if s.Batch != nil {
			pr.Batch = *s.Batch
		}
		pr.Local = false
		p.byModel[name] = pr
	}
	return nil
}

// dated is a model id's release-date suffix (claude-…-20250929, gpt-…-2025-08-07).
var dated = regexp.MustCompile(`-(\d{8}|\d{4}-\d{2}-\d{2})$`)

func (p *Prices) lookup(name llm.ModelName) (Price, bool) {
	if pr, ok := p.byModel[name]; ok {
		return pr, true
	}
	// A variant under its default label (openai/o3+reasoning-high) is priced as its base.
	if base, _, ok := strings.Cut(string(name), "+"); ok && strings.Contains(base, "/") {
		return p.lookup(llm.ModelName(base))
	}
	bare := llm.ModelName(name.Provider() + "/" + dated.ReplaceAllString(name.ID(), ""))
	if pr, ok := p.byModel[bare]; ok {
		return pr, true
	}
	// The database may list only the dated id.
	for k, pr := range p.byModel {
		if k.Provider() == name.Provider() && dated.ReplaceAllString(k.ID(), "") == bare.ID() {
			return pr, true
		}
	}
	return Price{}, false
}

// Lookup is the price of a model; local says the model runs on the user's machine
// (free). A remote model neither the database nor the config knows is not found.
func (p *Prices) Lookup(name llm.ModelName, local bool) (Price, bool) {
	if local || localProviders[name.Provider()] {
		if pr, ok := p.byModel[name]; ok { // a price the config gave wins
			return pr, true
		}
		return Price{Local: true}, true
	}
	return p.lookup(name)
}

var (
	codecOnce sync.Once
	codec     tokenizer.Codec
	codecErr  error
)

// Per-message framing of chat formats: a few tokens around each message and the
// reply's opening.
const (
	tokensPerMessage = 3
	tokensPerReply   = 3
)

// InputTokens counts the prompt tokens of a request with the o200k_base tokenizer.
func InputTokens(req *llm.Request) (int64, error) {
	codecOnce.Do(func() { codec, codecErr = tokenizer.Get(tokenizer.O200kBase) })
	if codecErr != nil {
		return 0, fmt.Errorf("tokenizer: %w", codecErr)
	}
	n := tokensPerReply
	count := func(s string) error {
		if s == "" {
			return nil
		}
		c, err := codec.Count(s)
		n += c + tokensPerMessage
		return err
	}
	if err := count(req.System); err != nil {
		return 0, err
	}
	for _, m := range req.Messages {
		if err := count(m.Text); err != nil {
			return 0, err
		}
	}
	if len(req.JSONSchema) > 0 {
		if err := count(string(req.JSONSchema)); err != nil {
			return 0, err
		}
	}
	return int64(n), nil
}

// Estimate is what a run would send to one model.
type Estimate struct {
	Model    llm.ModelName
	Requests int
	// InputTokens are counted; OutputTokens are the requests' max tokens or, without
	// one, the model's average reply in the store (OutputFrom says which).
	InputTokens, OutputTokens int64
	OutputFrom                string
	// Cost is in US dollars; Priced is false when no price is known for the model.
	Cost   float64
	Priced bool
	Batch  bool
}

// Estimator builds estimates, one model at a time.
type Estimator struct {
	Prices *Prices
	Local  func(llm.ModelName) bool
	// History gives a model's average output tokens per answered request in the store
	// and how many requests that average is over (may be nil).
	History func(llm.ModelName) (avg float64, n int)
	// DefaultOutput is assumed per request when neither max tokens nor history say
	// (default 256).
	DefaultOutput int64
	Batch         bool
}

// Estimate adds up the requests of one model.
func (e *Estimator) Estimate(model llm.ModelName, reqs []*llm.Request) (Estimate, error) {
	est := Estimate{Model: model, Requests: len(reqs), Batch: e.Batch}
	local := e.Local != nil && e.Local(model)
	var hist float64
	var histN int
	if e.History != nil {
		hist, histN = e.History(model)
	}
	def := e.DefaultOutput
	if def <= 0 {
		def = 256
	}
	from := map[string]bool{}
	for _, r := range reqs {
		in, err := InputTokens(r)
		if err != nil {
			return est, err
		}
		est.InputTokens += in
		switch {
		case histN > 0:
			out := int64(hist + 0.5)
			if r.MaxTokens > 0 {
				out = min(out, int64(r.MaxTokens))
			}
			est.OutputTokens += out
			from[fmt.Sprintf("store (%d replies)", histN)] = true
		case r.MaxTokens > 0:
			est.OutputTokens += int64(r.MaxTokens)
			from["max tokens"] = true
		default:
			est.OutputTokens += def
			from[fmt.Sprintf("assumed %d", def)] = true
		}
	}
	var fs []string
	for f := range from {
		fs = append(fs, f)
	}
	sort.Strings(fs)
	est.OutputFrom = strings.Join(fs, ", ")
	if pr, ok := e.Prices.Lookup(model, local); ok {
		est.Priced = true
		est.Cost = pr.Cost(Usage{Input: est.InputTokens, Output: est.OutputTokens}, e.Batch)
	}
	return est, nil
}
