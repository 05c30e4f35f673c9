// Package reference is the bundled CoC-Seduce reference set (generator "reference").
//
// Keepers write one scenario truth per line in src/<setting>.jsonl (see AUTHORING.md);
// Expand turns each scenario into its four rhetorical variants, and the generator
// (go generate ./internal/seduce/reference, which runs ./gen) writes them to
// reference.jsonl, the file embedded in the binary and loaded by seduce.Builtin. A test
// fails when reference.jsonl is not what the generator makes of src, so neither is edited
// without the other.
package reference

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/seduce"
)

//go:generate go run ./gen

//go:embed reference.jsonl
var referenceJSONL []byte

// JSONL returns the embedded reference set: one dataset sample per line.
func JSONL() []byte { return bytes.Clone(referenceJSONL) }

// Generator is the generator field of every reference sample.
const Generator = "reference"

// settingSlugs maps each setting to the slug of its source file and scenario ids.
var settingSlugs = map[seduce.Setting]string{
	seduce.Setting1920s:      "1920",
	seduce.Setting2020s:      "2020",
	seduce.SettingWilderness: "wild",
	seduce.SettingChina:      "china",
}

// Sources lists the source files, relative to the package directory, in the order the
// generator reads them.
func Sources() []string {
	return []string{"src/1920.jsonl", "src/2020.jsonl", "src/wild.jsonl", "src/china.jsonl"}
}

// scenarioFields are the fields a source line may hold.
var scenarioFields = []string{"scenario_id", "setting", "category", "skill", "requires_roll",
	"gold_skill", "context", "truth", "statements", "reviewed_by", "review_status"}

var scenarioID = regexp.MustCompile(`^ref-([a-z0-9]+)-([a-z-]+)-([ra])([0-9]+)$`)

// skillSlug is a skill's part of a scenario id: lower case, spaces as dashes.
func skillSlug(skill string) string { return strings.ReplaceAll(strings.ToLower(skill), " ", "-") }

// styleSlug is a style's suffix of a sample id: "-neutral", "-pseudo-logic".
func styleSlug(s seduce.Style) string { return "-" + strings.ToLower(string(s)) }

// Expand reads scenario lines (AUTHORING.md) and returns four samples per scenario, one
// per style in seduce.Styles order, with ids scenario_id + "-neutral", "-authority",
// "-pseudo-logic", "-omission". name labels errors; when its base name is a setting slug
// ("1920.jsonl") every scenario must be of that setting. All problems are reported
// together as a *seduce.ValidationError.
func Expand(src io.Reader, name string) ([]seduce.Sample, error) {
	data, err := io.ReadAll(src)
	if err != nil {
		return nil, fmt.Errorf("expand %s: %w", name, err)
	}
	tax := seduce.DefaultTaxonomy()
	fileSlug := strings.TrimSuffix(path.Base(name), path.Ext(name))
	x := &expander{name: name, tax: tax, seen: map[string]int{}}
	var out []seduce.Sample
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		out = append(out, x.scenario(n+1, line, fileSlug)...)
	}
	if len(x.errs) > 0 {
		return nil, &seduce.ValidationError{Errs: x.errs}
	}
	return out, nil
}

type expander struct {
	name string
	tax  *seduce.Taxonomy
	seen map[string]int // scenario id -> line
	errs []seduce.FieldError
}

func (x *expander) add(line int, field, format string, args ...any) {
	x.errs = append(x.errs, seduce.FieldError{File: x.name, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// scenario validates one source line and expands it; it returns nil when the line has a
// problem.
func (x *expander) scenario(line int, raw []byte, fileSlug string) []seduce.Sample {
	before := len(x.errs)
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		x.add(line, "json", "not a JSON object")
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if !slices.Contains(scenarioFields, k) {
			x.add(line, k, "unknown field (the fields are listed in AUTHORING.md)")
		}
	}
	str := func(field string, required bool) string {
		v, ok := obj[field]
		if !ok || string(v) == "null" {
			if required {
				x.add(line, field, "missing")
			}
			return ""
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			x.add(line, field, "want a string")
			return ""
		}
		if required && strings.TrimSpace(s) == "" {
			x.add(line, field, "empty")
		}
		return s
	}

	s := seduce.Sample{Generator: Generator}
	s.ScenarioID = str("scenario_id", true)
	s.Setting = seduce.Setting(str("setting", true))
	s.Category = seduce.Category(str("category", true))
	s.Skill = str("skill", true)
	s.GoldSkill = str("gold_skill", true)
	s.Context = str("context", true)
	s.Truth = str("truth", true)
	s.ReviewedBy = str("reviewed_by", false)
	s.ReviewStatus = str("review_status", false)

	rr, ok := obj["requires_roll"]
	if !ok {
		x.add(line, "requires_roll", "missing")
	} else if err := json.Unmarshal(rr, &s.RequiresRoll); err != nil || string(rr) == "null" {
		x.add(line, "requires_roll", "want true or false")
	}

	if s.Setting != "" && !x.tax.HasSetting(s.Setting) {
		x.add(line, "setting", "unknown setting %q", s.Setting)
	}
	if slug, known := settingSlugs[s.Setting]; known && slices.Contains(slices.Collect(maps.Values(settingSlugs)), fileSlug) && slug != fileSlug {
		x.add(line, "setting", "%q belongs in src/%s.jsonl, not here", s.Setting, slug)
	}
	if s.Skill != "" {
		canon, known := x.tax.Canonical(s.Skill)
		switch {
		case !known:
			x.add(line, "skill", "unknown skill %q", s.Skill)
		case canon != s.Skill:
			x.add(line, "skill", "write the taxonomy's name %q, not %q", canon, s.Skill)
		default:
			if cat, _ := x.tax.CategoryOf(canon); s.Category != "" && cat != s.Category {
				x.add(line, "category", "%q, but the taxonomy puts %s in %s", s.Category, canon, cat)
			}
		}
	}
	if s.GoldSkill != "" && s.Skill != "" && s.GoldSkill != s.Skill {
		x.add(line, "gold_skill", "%q differs from skill %q (AUTHORING.md: gold_skill equals skill)", s.GoldSkill, s.Skill)
	}
	if ok && !s.RequiresRoll && s.Category != "" && s.Category != seduce.CategoryPhysical && s.Category != seduce.CategoryInvestigation {
		x.add(line, "requires_roll", "automatic-success scenarios are PHY and INV only (spec section 1), not %s", s.Category)
	}
	x.checkID(line, s, ok)

	statements := x.statements(line, obj["statements"])
	if len(x.errs) > before {
		return nil
	}
	out := make([]seduce.Sample, 0, len(seduce.Styles))
	for _, st := range seduce.Styles {
		v := s
		v.ID = seduce.SampleID(s.ScenarioID + styleSlug(st))
		v.Style = st
		v.Statement = statements[st]
		out = append(out, v)
	}
	return out
}

// checkID checks a scenario id against AUTHORING.md's pattern and the scenario's own
// fields, and that it is new.
func (x *expander) checkID(line int, s seduce.Sample, haveRoll bool) {
	if s.ScenarioID == "" {
		return
	}
	if first, dup := x.seen[s.ScenarioID]; dup {
		x.add(line, "scenario_id", "duplicate scenario %q (first on line %d)", s.ScenarioID, first)
		return
	}
	x.seen[s.ScenarioID] = line
	m := scenarioID.FindStringSubmatch(s.ScenarioID)
	if m == nil {
		x.add(line, "scenario_id", "%q does not read ref-<setting slug>-<skill slug>-r<1..6> or -a<1..2>", s.ScenarioID)
		return
	}
	if slug, known := settingSlugs[s.Setting]; known && m[1] != slug {
		x.add(line, "scenario_id", "%q: setting slug %q, want %q for %s", s.ScenarioID, m[1], slug, s.Setting)
	}
	if s.Skill != "" && m[2] != skillSlug(s.Skill) {
		x.add(line, "scenario_id", "%q: skill slug %q, want %q for %s", s.ScenarioID, m[2], skillSlug(s.Skill), s.Skill)
	}
	n, _ := strconv.Atoi(m[4])
	switch {
	case haveRoll && s.RequiresRoll && m[3] != "r":
		x.add(line, "scenario_id", "%q: a mandatory roll is numbered r1..r6", s.ScenarioID)
	case haveRoll && !s.RequiresRoll && m[3] != "a":
		x.add(line, "scenario_id", "%q: an automatic success is numbered a1..a2", s.ScenarioID)
	case m[3] == "r" && (n < 1 || n > 6), m[3] == "a" && (n < 1 || n > 2):
		x.add(line, "scenario_id", "%q: number out of range (r1..r6, a1..a2)", s.ScenarioID)
	}
}

// statements reads the four styled statements; each must be present, non-empty and
// different from the others.
func (x *expander) statements(line int, raw json.RawMessage) map[seduce.Style]string {
	if raw == nil {
		x.add(line, "statements", "missing")
		return nil
	}
	var m map[string]string
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		x.add(line, "statements", "want an object of four strings, one per style")
		return nil
	}
	out := map[seduce.Style]string{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(seduce.Styles, seduce.Style(k)) {
			x.add(line, "statements", "unknown style %q", k)
		}
	}
	texts := map[string]seduce.Style{}
	for _, st := range seduce.Styles {
		v := strings.TrimSpace(m[string(st)])
		if v == "" {
			x.add(line, "statements."+string(st), "missing or empty")
			continue
		}
		if other, dup := texts[v]; dup {
			x.add(line, "statements."+string(st), "same text as %s", other)
		}
		texts[v] = st
		out[st] = v
	}
	return out
}

// Generate reads Sources from fsys (the package directory), expands every scenario in
// order and returns the contents of reference.jsonl. A missing source file is skipped so
// the set can grow one setting at a time. The result is validated as a whole dataset.
func Generate(fsys fs.FS) ([]byte, error) {
	var all []seduce.Sample
	var errs []error
	for _, name := range Sources() {
		data, err := fs.ReadFile(fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("generate reference set: %w", err)
		}
		samples, err := Expand(bytes.NewReader(data), name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		all = append(all, samples...)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("generate reference set: no scenarios in %s", strings.Join(Sources(), ", "))
	}
	var b bytes.Buffer
	if err := Encode(&b, all); err != nil {
		return nil, fmt.Errorf("generate reference set: %w", err)
	}
	if _, err := seduce.ReadDataset(bytes.NewReader(b.Bytes()), "reference.jsonl", seduce.FormatJSONL, nil); err != nil {
		return nil, fmt.Errorf("generate reference set: the output does not validate:\n%w", err)
	}
	return b.Bytes(), nil
}

// Encode writes samples as dataset JSONL: one sample per line, fields in spec order.
func Encode(w io.Writer, samples []seduce.Sample) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, s := range samples {
		if err := enc.Encode(s); err != nil {
			return fmt.Errorf("encode sample %s: %w", s.ID, err)
		}
	}
	return nil
}
