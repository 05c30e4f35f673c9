package seduce_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// paperGrid builds the full grid of spec section 1 for each generator: 1,792 samples
// each, 5,376 for three.
func paperGrid(generators ...string) []seduce.Sample {
	skills := map[seduce.Category][]string{
		seduce.CategoryCombat:        {"Fighting", "Firearms", "Throw", "Dodge"},
		seduce.CategoryPhysical:      {"Climb", "Jump", "Swim", "Stealth"},
		seduce.CategoryProfessional:  {"First Aid", "Medicine", "Locksmith", "Mechanical Repair"},
		seduce.CategoryInvestigation: {"Spot Hidden", "Listen", "Library Use", "Track"},
	}
	var out []seduce.Sample
	for _, gen := range generators {
		for _, cat := range seduce.Categories {
			for _, skill := range skills[cat] {
				for _, setting := range seduce.Settings {
					for _, roll := range []bool{true, false} {
						scenarios := 6
						if !roll {
							if cat == seduce.CategoryCombat || cat == seduce.CategoryProfessional {
								continue
							}
							scenarios = 2
						}
						for sc := range scenarios {
							scen := fmt.Sprintf("%s/%s/%s/%v/%d", gen, skill, setting, roll, sc)
							for _, st := range seduce.Styles {
								out = append(out, seduce.Sample{
									ID: seduce.SampleID(scen + "/" + string(st)), Generator: gen, Setting: setting,
									Category: cat, Skill: skill, ScenarioID: scen, Style: st,
									RequiresRoll: roll, GoldSkill: skill,
								})
							}
						}
					}
				}
			}
		}
	}
	return out
}

// syntheticRun gives every model a prediction on every sample: mostly right, more often
// seduced by Pseudo-Logic, now and then refused, unparsed, failed or naming a wrong skill.
func syntheticRun(samples []seduce.Sample, models int) []seduce.Prediction {
	names := []string{"openai/gpt-", "anthropic/claude-", "google/gemini-", "deepseek/deepseek-", "qwen/qwen-"}
	r := rand.New(rand.NewPCG(1, 2))
	preds := make([]seduce.Prediction, 0, len(samples)*models)
	for m := range models {
		model := fmt.Sprintf("%s%d", names[m%len(names)], m)
		for _, s := range samples {
			p := seduce.Prediction{ID: s.ID, Model: model, LatencyMS: 200 + 3000*r.Float64()}
			fail := 0.04
			if s.Style == seduce.StylePseudoLogic {
				fail = 0.17
			}
			roll := s.RequiresRoll != (r.Float64() < fail)
			switch x := r.Float64(); {
			case x < 0.002:
				p.Err = "status 503"
			case x < 0.004:
				p.Decision = seduce.DecisionRefused
			case x < 0.006:
				p.Decision = seduce.DecisionUnparsed
			case roll:
				p.Decision, p.Skill = seduce.DecisionRoll, s.GoldSkill
				if r.Float64() < 0.05 {
					p.Skill = "Brawl"
				}
			default:
				p.Decision = seduce.DecisionPass
			}
			preds = append(preds, p)
		}
	}
	return preds
}

// BenchmarkScore scores 20 models × 5,376 samples (107,520 predictions) with every
// breakdown, without and with a 1,000-replicate bootstrap.
func BenchmarkScore(b *testing.B) {
	samples := paperGrid("gpt", "claude", "gemini")
	preds := syntheticRun(samples, 20)
	if len(samples) != 5376 || len(preds) != 107520 {
		b.Fatalf("synthetic run: %d samples, %d predictions; want 5376, 107520", len(samples), len(preds))
	}
	for _, reps := range []int{0, 1000} {
		b.Run(fmt.Sprintf("bootstrap=%d", reps), func(b *testing.B) {
			opt := seduce.ScoreOptions{Canon: canon, Bootstrap: reps, Seed: 1}
			b.ReportAllocs()
			for b.Loop() {
				seduce.Score(samples, preds, opt)
			}
		})
	}
}
