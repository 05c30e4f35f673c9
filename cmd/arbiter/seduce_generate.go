package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// seduceGenerateFlags are the flags of 'arbiter seduce generate'.
type seduceGenerateFlags struct {
	run          runFlags
	out          string
	settings     []string
	skills       []string
	perCell      int
	family       string
	taxonomy     string
	against      []string
	anachronisms string
	reasks       int
}

func (a *app) seduceGenerateCmd() *cobra.Command {
	var f seduceGenerateFlags
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Have a model write a CoC-Seduce dataset: the grid of scenarios, four statements each",
		Long: `Have a model write a dataset (../shared/spec/seduce.md sections 1 and 5): per setting and
skill, --per-cell mandatory-roll scenarios (V=1) and, for PHY and INV skills, a third as many
automatic-success controls (V=0), each with a context, its truth and the four player
statements (Neutral, Authority, Pseudo-Logic, Omission).

The model answers under a JSON schema. Every reply is checked: the format, the four styles
present and distinct, an Omission statement that is not a near copy of the Neutral one, the
skill's stat in the context, a mandatory-roll scenario whose facts do not settle the roll,
the setting's anachronisms (--anachronisms replaces the bundled list), and near copies of
the scenarios accepted so far and of --against sets. A reply that fails is asked again with
its problems (--reasks times); a scenario still failing is reported and left out (exit 1).

Every request is stored (--db): the same command run again, after an interruption too,
asks the model nothing it has already answered. The file written passes 'seduce validate'.`,
		Example: `  arbiter seduce generate --generator openai/gpt-4.1 --out gpt.jsonl
  arbiter seduce generate --generator anthropic/claude-sonnet-4-5 --settings Wilderness --skills Climb,Swim --per-cell 2 --out small.jsonl
  arbiter seduce generate --generator gemini/gemini-2.5-flash --against gpt.jsonl --out gemini.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.seduceGenerate(cmd.Context(), &f)
		},
	}
	registerModelFlags(cmd, &f.run, "generator", "the model that writes the scenarios")
	fs := cmd.Flags()
	_ = fs.MarkHidden("replicates")
	fs.StringVarP(&f.out, "out", "o", "", "dataset file to write (JSONL; required)")
	fs.StringSliceVar(&f.settings, "settings", nil, "only these settings, comma-separated (default: all of the taxonomy)")
	fs.StringSliceVar(&f.skills, "skills", nil, "only these skills, comma-separated (default: all of the taxonomy)")
	fs.IntVar(&f.perCell, "per-cell", seduce.DefaultPerCell, "V=1 scenarios per (skill, setting) cell; V=0 cells get a third, rounded up")
	fs.StringVar(&f.family, "family", "", "the samples' generator field (default: the model's family)")
	fs.StringVar(&f.taxonomy, "taxonomy", "", "skill taxonomy file (YAML) replacing the built-in 16 skills")
	fs.StringArrayVar(&f.against, "against", nil, "dataset whose scenarios must not be copied (repeatable; builtin for the bundled set)")
	fs.StringVar(&f.anachronisms, "anachronisms", "", "per-setting list of forbidden words (YAML) replacing the bundled one")
	fs.IntVar(&f.reasks, "reasks", seduce.DefaultGenerateReasks, "times a reply that fails its checks is asked again, with its problems")
	return cmd
}

// seduceGenerateConfig identifies a generation run: everything that shapes its requests.
type seduceGenerateConfig struct {
	Generate string        `json:"generate"`
	Model    llm.ModelName `json:"model"`
	Settings []string      `json:"settings"`
	Skills   []string      `json:"skills"`
	PerCell  int           `json:"per_cell"`
	Taxonomy string        `json:"taxonomy"`
	Checks   string        `json:"checks"`
	Slots    int           `json:"slots"`
	Against  []string      `json:"against,omitempty"`
}

func (a *app) seduceGenerate(ctx context.Context, f *seduceGenerateFlags) error {
	if len(f.run.models) != 1 {
		return badInput("give --generator once: the model that writes the scenarios, as provider/model (got %d)", len(f.run.models))
	}
	model, err := llm.ParseModelName(f.run.models[0])
	if err != nil {
		return badInput("--generator: %v", err)
	}
	if f.out == "" || f.out == "-" {
		return badInput("--out FILE is required: the dataset file to write (.jsonl)")
	}
	if format, err := seduce.FormatOf(f.out); err != nil || format != seduce.FormatJSONL {
		return badInput("--out %s: want a .jsonl file", f.out)
	}
	if f.perCell < 1 {
		return badInput("--per-cell %d: want 1 or more", f.perCell)
	}
	if f.reasks < 0 {
		return badInput("--reasks %d: want 0 or more", f.reasks)
	}
	if f.family != "" && !seduce.IsFamilyWord(f.family) {
		return badInput("--family %q: want one lowercase word such as gpt, claude or gemini", f.family)
	}
	sf := seduceFlags{taxonomy: f.taxonomy}
	tax, err := sf.loadTaxonomy()
	if err != nil {
		return err
	}
	var settings []seduce.Setting
	for _, s := range f.settings {
		s = strings.TrimSpace(s)
		if !tax.HasSetting(seduce.Setting(s)) {
			return badInput("--settings: %q is not a setting (want %s)", s, settingList(tax))
		}
		if !slices.Contains(settings, seduce.Setting(s)) {
			settings = append(settings, seduce.Setting(s))
		}
	}
	var skills []string
	for _, s := range f.skills {
		canon, ok := tax.Canonical(strings.TrimSpace(s))
		if !ok {
			return badInput("--skills: %q is not a skill of the taxonomy (want %s)", s, strings.Join(tax.Skills(), ", "))
		}
		if !slices.Contains(skills, canon) {
			skills = append(skills, canon)
		}
	}
	an := seduce.DefaultAnachronisms()
	if f.anachronisms != "" {
		if an, err = seduce.LoadAnachronisms(f.anachronisms, tax); err != nil {
			return usageError{err}
		}
	}
	checker := seduce.NewChecker(tax, an)
	var againstHashes []string
	for _, name := range f.against {
		ds, err := loadDatasets([]string{name}, tax)
		if err != nil {
			return err
		}
		checker.AddDataset(ds)
		againstHashes = append(againstHashes, ds.Hash)
	}
	slots := seduce.Grid(tax, settings, skills, f.perCell)

	sess, ms, done, err := a.session(ctx, &f.run, nil)
	if err != nil {
		return err
	}
	defer done()
	// The family: --family, else the config file's families: entry, else the name's rule.
	family := f.family
	if family == "" && ms.file != nil {
		family = ms.file.Families[string(model)]
	}
	if family == "" {
		family = seduce.ModelFamily(string(model))
	}
	if !seduce.IsFamilyWord(family) {
		return badInput("the family %q of %s is not one lowercase word: pass --family, e.g. --family gpt", family, model)
	}
	model = ms.Label(model) // a variant under --reasoning-effort or --thinking-budget
	checks := sha256.Sum256(fmt.Appendf(nil, "%v|%s|%v", seduce.DuplicateJaccard, an.Source, seduce.OmissionCopy))
	if f.anachronisms != "" {
		b, err := os.ReadFile(f.anachronisms)
		if err != nil {
			return usageError{err}
		}
		checks = sha256.Sum256(append(checks[:], b...))
	}
	cfg := seduceGenerateConfig{Generate: seduce.GeneratePromptHash(), Model: model, PerCell: f.perCell,
		Taxonomy: tax.Source, Checks: hex.EncodeToString(checks[:]), Slots: len(slots), Against: againstHashes}
	for _, s := range settings {
		cfg.Settings = append(cfg.Settings, string(s))
	}
	cfg.Skills = skills
	run, err := sess.Begin(ctx, runner.Identity{Kind: seduce.KindGenerate, Config: cfg,
		InputHash: strings.Join(againstHashes, ","), PromptHash: cfg.Generate})
	if err != nil {
		return err
	}
	res, err := seduce.Generate(ctx, sess, run, seduce.GenerateOptions{Model: model, Family: family, Slots: slots,
		Reasks: f.reasks, Checker: checker})
	if err = sess.Finish(ctx, run, err, err == nil && len(res.Failures) > 0); err != nil {
		return err
	}
	if len(res.Samples) > 0 {
		data, err := seduce.EncodeSamples(res.Samples, nil)
		if err != nil {
			return err
		}
		if _, err := seduce.ReadDataset(strings.NewReader(string(data)), f.out, seduce.FormatJSONL, tax); err != nil {
			return fmt.Errorf("seduce generate: the samples do not validate (a defect): %w", err)
		}
		if err := writeFileAtomic(f.out, data); err != nil {
			return err
		}
	}
	a.generateSummary(f.out, family, slots, res)
	if len(res.Failures) > 0 {
		return fmt.Errorf("seduce generate: %d of %d scenarios still failed their checks after %d re-asks (run again with more --reasks to continue)",
			len(res.Failures), len(slots), f.reasks)
	}
	return nil
}

func (a *app) generateSummary(out, family string, slots []seduce.Slot, res *seduce.GenerateResult) {
	if a.quiet && len(res.Failures) == 0 {
		return
	}
	w := a.stderr
	fmt.Fprintf(w, "generated %d of %d scenarios (%d samples, generator %s) into %s; %d requests sent, %d already stored\n",
		len(slots)-len(res.Failures), len(slots), len(res.Samples), family, out, res.Tally.Asked, res.Tally.Resumed+res.Tally.Cached)
	if len(res.Reasked) > 0 {
		kinds := make([]string, 0, len(res.Reasked))
		for k := range res.Reasked {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		parts := make([]string, len(kinds))
		for i, k := range kinds {
			parts[i] = fmt.Sprintf("%s %d", k, res.Reasked[k])
		}
		fmt.Fprintf(w, "re-asked for: %s\n", strings.Join(parts, ", "))
	}
	for _, fl := range res.Failures {
		fmt.Fprintf(w, "failed %s (%s, %s, V=%d) after %d %s: %s\n", fl.Slot.Key(), fl.Slot.Setting, fl.Slot.Skill,
			boolInt(fl.Slot.RequiresRoll), fl.Asks, pluralWord(fl.Asks, "ask", "asks"), strings.Join(fl.Problems, "; "))
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func settingList(tax *seduce.Taxonomy) string {
	var q []string
	for _, s := range tax.Settings() {
		q = append(q, fmt.Sprintf("%q", s))
	}
	return strings.Join(q, ", ")
}
