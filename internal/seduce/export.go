package seduce

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// StoredRuling is one ruling of a stored run as its report counts it: one model's
// reading of one sample in one replicate, under one defense.
type StoredRuling struct {
	Model string
	// Defense is "" outside a defense study, else "none" or the defense's name, as the
	// report's ModelResult.Defense.
	Defense   string
	Run       store.RunID
	Sample    SampleID
	Replicate int
	// Request is what the adjudicator was asked (under a defense, its last request).
	Request *llm.Request
	// Reply is the model's reply; nil when the request failed, or when a defense's
	// ruling is not one stored reply (self-consistency's majority, say) and its last
	// request's reply cannot be found.
	Reply *llm.Reply
	// Parsed is the ruling the report counted; Err the error of a request that failed.
	Parsed Parsed
	Err    string
	// Completed is when the result was stored (zero when unknown).
	Completed time.Time
	// Source says where the reply came from (provider, cache, builtin).
	Source store.Source
}

// RunExport is a stored benchmark run with everything an export of it needs: the
// report's results, computed by Rescore, and every ruling behind them.
type RunExport struct {
	Run     *store.Run
	Config  *RunConfig
	Dataset *Dataset
	Prompt  Prompt
	// Specs are the run's model specs by label (empty for older runs).
	Specs map[string]llm.Spec
	// Results is exactly what Rescore returns for the run.
	Results *Results
	// Rulings hold every prediction the results count, failed requests included.
	Rulings []StoredRuling
}

// ExportRun reads a stored run back as Rescore does and returns its results with the
// rulings behind them, so that an export and the report of the run agree.
func ExportRun(ctx context.Context, st *store.Store, r *store.Run, opt RescoreOptions) (*RunExport, error) {
	in, err := rescoreInputs(r, opt)
	if err != nil {
		return nil, err
	}
	x := &RunExport{Run: r, Config: in.cfg, Dataset: in.ds, Prompt: Prompt{System: r.PromptText, Hash: r.PromptHash},
		Specs: map[string]llm.Spec{}}
	if len(r.Models) > 0 {
		var specs []llm.Spec
		if err := json.Unmarshal(r.Models, &specs); err != nil {
			return nil, fmt.Errorf("run %s: model specs: %w", r.ID, err)
		}
		for _, s := range specs {
			x.Specs[string(s.Label)] = s
		}
	}
	if in.cfg.Defense == "" {
		if x.Results, err = ScoreRunWith(ctx, st, r.ID, in.ds, in.popt, in.so); err != nil {
			return nil, err
		}
		x.Rulings, err = storedRulings(ctx, st, r.ID, "", x, in.popt)
		return x, err
	}
	study, base, p, err := rebuildDefense(ctx, st, r, in.cfg, in.ds, in.popt, in.so)
	if err != nil {
		return nil, err
	}
	x.Results = study.Score(base, p.Models, in.ds.Samples, in.so)
	for i, d := range study.Defenses {
		if _, none := d.(None); none {
			rs, err := storedRulings(ctx, st, study.Runs[i], "none", x, in.popt)
			if err != nil {
				return nil, err
			}
			x.Rulings = append(x.Rulings, rs...)
			continue
		}
		rs, err := defenseRulings(ctx, st, study.Runs[i], d.Name(), p, study.Rulings[i])
		if err != nil {
			return nil, err
		}
		x.Rulings = append(x.Rulings, rs...)
	}
	return x, nil
}

// storedRulings reads a run's stored results as ScoreRunWith reads them.
func storedRulings(ctx context.Context, st *store.Store, run store.RunID, defense string, x *RunExport, popt ParseOptions) ([]StoredRuling, error) {
	byID := map[SampleID]*Sample{}
	for i := range x.Dataset.Samples {
		byID[x.Dataset.Samples[i].ID] = &x.Dataset.Samples[i]
	}
	var out []StoredRuling
	var preds []Prediction
	err := st.Results(ctx, run, false, func(r *store.Result) error {
		if _, ok := IsPushbackItem(r.Item); ok {
			return nil // a second turn is not a ruling on the sample's statement
		}
		sr := StoredRuling{Model: string(r.Model), Defense: defense, Run: run, Sample: SampleID(r.Item), Replicate: r.Replicate,
			Err: r.Err, Completed: r.UpdatedAt, Source: r.Source}
		if s := byID[sr.Sample]; s != nil {
			sr.Request = x.Prompt.Request(*s)
		}
		p := Prediction{ID: sr.Sample, Model: sr.Model, Replicate: r.Replicate, Err: r.Err}
		if r.Err == "" {
			reply := r.Reply
			sr.Reply = &reply
			sr.Parsed = FromReplyWith(&reply, popt.Taxonomy, popt.Lexicon)
			p.Decision, p.Skill, p.Rule, p.Text = sr.Parsed.Decision, sr.Parsed.Skill, sr.Parsed.Rule, reply.Text
		}
		out = append(out, sr)
		preds = append(preds, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if popt.Second != nil {
		if err := SecondReading(preds, popt.Second); err != nil {
			return nil, err
		}
		for i, p := range preds {
			if p.ModelParsed {
				out[i].Parsed.Decision, out[i].Parsed.Skill, out[i].Parsed.Rule, out[i].Parsed.How = p.Decision, p.Skill, p.Rule, HowModel
			}
		}
	}
	return out, nil
}

// defenseRulings turns a defense's rulings (by model, replicate, sample) into stored
// rulings, with the reply to each ruling's last request where the run holds it.
func defenseRulings(ctx context.Context, st *store.Store, run store.RunID, defense string, p *RunPlan, rulings [][][]Ruling) ([]StoredRuling, error) {
	type key struct{ model, hash string }
	replies := map[key]*store.Result{}
	err := st.Results(ctx, run, false, func(r *store.Result) error {
		if r.Err == "" {
			replies[key{string(r.Model), r.RequestHash}] = r
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []StoredRuling
	for m, name := range p.Models {
		for rep, rs := range rulings[m] {
			for i, ru := range rs {
				sr := StoredRuling{Model: string(name), Defense: defense, Run: run, Sample: p.Dataset.Samples[i].ID,
					Replicate: rep, Parsed: ru.Parsed, Err: ru.Err}
				if n := len(ru.Asked); n > 0 {
					sr.Request = ru.Asked[n-1]
					if res := replies[key{string(name), sr.Request.Hash()}]; res != nil && ru.Err == "" {
						reply := res.Reply
						sr.Reply, sr.Completed, sr.Source = &reply, res.UpdatedAt, res.Source
					}
				}
				out = append(out, sr)
			}
		}
	}
	return out, nil
}
