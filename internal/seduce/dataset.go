package seduce

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/input"
)

// referenceJSONL is the bundled reference set. It is the same file package reference
// embeds and generates; it is embedded here too because reference imports seduce (its
// expander produces Samples), so seduce cannot import reference back.
//
//go:embed reference/reference.jsonl
var referenceJSONL []byte

// Format is a dataset file format.
type Format string

// The dataset formats of spec section 1.
const (
	FormatJSONL Format = "jsonl"
	FormatCSV   Format = "csv"
)

// FormatOf picks a dataset format from a file name's extension.
func FormatOf(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".ndjson":
		return FormatJSONL, nil
	case ".csv":
		return FormatCSV, nil
	}
	return "", fmt.Errorf("dataset %s: unknown extension %q (want .jsonl or .csv)", path, filepath.Ext(path))
}

// Dataset is a validated set of samples.
type Dataset struct {
	// Name is the file the samples came from, as given.
	Name string
	// Hash is the hex SHA-256 of the file's bytes, so a run records exactly which
	// dataset it scored.
	Hash string
	// Samples are in file order. Skill and GoldSkill hold the taxonomy's canonical names.
	Samples []Sample
	// Extra keeps, per sample, the fields the contract does not define (as raw JSON; CSV
	// cells as JSON strings). They are carried, never interpreted.
	Extra map[SampleID]map[string]json.RawMessage

	byID map[SampleID]int
}

// Lookup returns the sample with the given id.
func (d *Dataset) Lookup(id SampleID) (Sample, bool) {
	i, ok := d.byID[id]
	if !ok {
		return Sample{}, false
	}
	return d.Samples[i], true
}

// FieldError is one problem in an input file: file:line: field: what is wrong.
type FieldError = input.FieldError

// ValidationError lists every problem in one file; a file with any problem is rejected
// whole.
type ValidationError = input.ValidationError

// LoadDataset reads and validates a dataset file, JSONL or CSV by extension. A nil tax
// means DefaultTaxonomy. Validation problems come back as one *ValidationError listing
// every problem in the file.
func LoadDataset(path string, tax *Taxonomy) (*Dataset, error) {
	format, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	data, err := input.ReadFile(context.Background(), path)
	if err != nil {
		return nil, err
	}
	return parseDataset(data, path, format, tax)
}

// Builtin returns the bundled reference set (generator "reference"), validated against
// tax (nil means DefaultTaxonomy).
func Builtin(tax *Taxonomy) (*Dataset, error) {
	return ReadDataset(bytes.NewReader(referenceJSONL), "reference.jsonl", FormatJSONL, tax)
}

// ReadDataset reads and validates a dataset; name labels errors and becomes the
// dataset's Name. It reads with package input's limits (1 MiB lines, UTF-8 only).
func ReadDataset(r io.Reader, name string, format Format, tax *Taxonomy) (*Dataset, error) {
	data, err := input.ReadAll(context.Background(), r, name)
	if err != nil {
		return nil, err
	}
	return parseDataset(data, name, format, tax)
}

func parseDataset(data []byte, name string, format Format, tax *Taxonomy) (*Dataset, error) {
	if tax == nil {
		tax = DefaultTaxonomy()
	}
	v := &datasetValidator{name: name, tax: tax}
	var recs []datasetRecord
	switch format {
	case FormatJSONL:
		recs = v.jsonlRecords(data)
	case FormatCSV:
		recs = v.csvRecords(data)
	default:
		return nil, fmt.Errorf("read dataset %s: unknown format %q (want jsonl or csv)", name, format)
	}
	ds := v.samples(recs)
	if err := v.errs.Err(); err != nil {
		return nil, err
	}
	if len(ds.Samples) == 0 {
		return nil, &ValidationError{Errs: []FieldError{{File: name, Line: 1, Field: "id", Msg: "the file holds no samples"}}}
	}
	sum := sha256.Sum256(data)
	ds.Name = name
	ds.Hash = hex.EncodeToString(sum[:])
	return ds, nil
}

// The contract's fields, in spec order.
var (
	requiredSampleFields = []string{"id", "generator", "setting", "category", "skill", "scenario_id",
		"context", "statement", "style", "requires_roll", "gold_skill"}
	optionalSampleFields = []string{"truth", "reviewed_by", "review_status", "pushback"}
)

func knownSampleField(f string) bool {
	return slices.Contains(requiredSampleFields, f) || slices.Contains(optionalSampleFields, f)
}

// datasetRecord is one input line before validation: raw JSON values for JSONL, cells for CSV.
type datasetRecord struct {
	line  int
	json  map[string]json.RawMessage
	cells map[string]string
	// absent lists columns the CSV header lacks; they were reported once, at the header.
	absent map[string]bool
}

type datasetValidator struct {
	name string
	tax  *Taxonomy
	// errs keeps the first problems by line and counts the rest.
	errs input.Errors
	// texts holds one copy of each field value read: a scenario's variants repeat its
	// context, truth and ids word for word, and a run keeps its dataset in memory.
	texts map[string]string
}

// intern returns the copy of s that v read first.
func (v *datasetValidator) intern(s string) string {
	if c, ok := v.texts[s]; ok {
		return c
	}
	if v.texts == nil {
		v.texts = map[string]string{}
	}
	v.texts[s] = s
	return s
}

func (v *datasetValidator) add(line int, field, format string, args ...any) {
	v.errs.Addf(v.name, line, field, format, args...)
}

func (v *datasetValidator) jsonlRecords(data []byte) []datasetRecord {
	var recs []datasetRecord
	n := -1
	for line := range bytes.Lines(data) {
		n++
		line = bytes.TrimSpace(line)
		if n == 0 {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		if len(line) == 0 {
			continue
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(line, &obj); err != nil {
			v.add(n+1, "json", "not a JSON object: %s", jsonProblem(err))
			continue
		}
		if obj == nil {
			v.add(n+1, "json", "not a JSON object: null")
			continue
		}
		recs = append(recs, datasetRecord{line: n + 1, json: obj})
	}
	return recs
}

// jsonProblem words a decoding error without Go type names.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "the line holds a JSON " + te.Value
	}
	return err.Error()
}

func (v *datasetValidator) csvRecords(data []byte) []datasetRecord {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		v.csvError(err)
		return nil
	}
	cols := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		header[i] = h
		if h == "" {
			v.add(1, "csv", "column %d has no name", i+1)
			continue
		}
		if j, dup := cols[h]; dup {
			v.add(1, h, "column named twice (columns %d and %d)", j+1, i+1)
			continue
		}
		cols[h] = i
	}
	absent := map[string]bool{}
	for _, f := range requiredSampleFields {
		if _, ok := cols[f]; !ok {
			v.add(1, f, "missing column")
			absent[f] = true
		}
	}
	var recs []datasetRecord
	for {
		row, err := cr.Read()
		if err == io.EOF {
			return recs
		}
		if err != nil {
			v.csvError(err)
			return recs
		}
		line, _ := cr.FieldPos(0)
		if len(row) != len(header) {
			v.add(line, "csv", "%d fields, but the header has %d", len(row), len(header))
			continue
		}
		if strings.TrimSpace(strings.Join(row, "")) == "" {
			continue
		}
		cells := map[string]string{}
		for name, i := range cols {
			cells[name] = row[i]
		}
		recs = append(recs, datasetRecord{line: line, cells: cells, absent: absent})
	}
}

func (v *datasetValidator) csvError(err error) {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		v.add(pe.Line, "csv", "%v", pe.Err)
		return
	}
	v.add(1, "csv", "%v", err)
}

// text reads a string field. present is false for a missing field, JSON null or an empty
// CSV cell; problem is set when the value has the wrong type.
func (rec datasetRecord) text(field string) (s string, present bool, problem string) {
	if rec.cells != nil {
		c, ok := rec.cells[field]
		if !ok || strings.TrimSpace(c) == "" {
			return "", false, ""
		}
		return c, true, ""
	}
	raw, ok := rec.json[field]
	if !ok || string(raw) == "null" {
		return "", false, ""
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", true, "want a string, got " + describeJSON(raw)
	}
	return s, true, ""
}

// flag reads a boolean field: a JSON true/false, or a CSV cell "true"/"false".
func (rec datasetRecord) flag(field string) (b bool, present bool, problem string) {
	if rec.cells != nil {
		c, ok := rec.cells[field]
		if !ok || strings.TrimSpace(c) == "" {
			return false, false, ""
		}
		switch strings.ToLower(strings.TrimSpace(c)) {
		case "true":
			return true, true, ""
		case "false":
			return false, true, ""
		}
		return false, true, fmt.Sprintf("want true or false, got %q", c)
	}
	raw, ok := rec.json[field]
	if !ok || string(raw) == "null" {
		return false, false, ""
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, true, "want true or false, got " + describeJSON(raw)
	}
	return b, true, ""
}

func describeJSON(raw json.RawMessage) string {
	const max = 40
	s := string(raw)
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

// generatorWordRe is the shape of a generator family name: one lowercase word.
var generatorWordRe = regexp.MustCompile(`^[a-z][a-z0-9]*(?:[._-][a-z0-9]+)*$`)

// scenarioAgreement is what every variant of a scenario must agree on, each with the line
// that first stated it (0 while no line has stated a valid value).
type scenarioAgreement struct {
	requiresRoll                     bool
	skill                            string
	setting                          Setting
	rollLine, skillLine, settingLine int
}

func (v *datasetValidator) samples(recs []datasetRecord) *Dataset {
	ds := &Dataset{byID: map[SampleID]int{}, Extra: map[SampleID]map[string]json.RawMessage{}}
	idLine := map[SampleID]int{}
	scenarios := map[string]*scenarioAgreement{}
	for _, rec := range recs {
		s, ok := v.sample(rec)
		if extra := rec.extra(); len(extra) > 0 && s.ID != "" {
			ds.Extra[s.ID] = extra
		}
		if s.ID != "" {
			if first, dup := idLine[s.ID]; dup {
				v.add(rec.line, "id", "duplicate id %q (first on line %d)", s.ID, first)
				ok = false
			} else {
				idLine[s.ID] = rec.line
			}
		}
		if s.ScenarioID != "" {
			v.sameScenario(rec, s, scenarios)
		}
		if ok {
			ds.byID[s.ID] = len(ds.Samples)
			ds.Samples = append(ds.Samples, s)
		}
	}
	return ds
}

// extra returns the fields of a record the contract does not define.
func (rec datasetRecord) extra() map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, raw := range rec.json {
		if !knownSampleField(k) {
			out[k] = raw
		}
	}
	for k, c := range rec.cells {
		if !knownSampleField(k) {
			b, _ := json.Marshal(c) // a string always marshals
			out[k] = b
		}
	}
	return out
}

// sample validates one record on its own. A field that fails validation is left zero in
// the returned sample; ok is false when anything failed.
func (v *datasetValidator) sample(rec datasetRecord) (s Sample, ok bool) {
	before := v.errs.Len()
	str := func(field string, required bool) string {
		val, present, problem := rec.text(field)
		switch {
		case problem != "":
			v.add(rec.line, field, "%s", problem)
		case !present && required && !rec.absent[field]:
			v.add(rec.line, field, "missing")
		case present && required && strings.TrimSpace(val) == "":
			v.add(rec.line, field, "empty")
		}
		if problem != "" {
			return ""
		}
		return v.intern(val)
	}

	s.ID = SampleID(str("id", true))
	s.Generator = str("generator", true)
	if s.Generator != "" && !generatorWordRe.MatchString(s.Generator) {
		v.add(rec.line, "generator", "%q is not a lowercase word (gpt, claude, gemini, reference, …)", s.Generator)
		s.Generator = ""
	}
	if setting := str("setting", true); setting != "" {
		if v.tax.HasSetting(Setting(setting)) {
			s.Setting = Setting(setting)
		} else {
			v.add(rec.line, "setting", "unknown setting %q (want one of %s)", setting, quoteList(v.tax.Settings()))
		}
	}
	if category := str("category", true); category != "" {
		if v.tax.HasCategory(Category(category)) {
			s.Category = Category(category)
		} else {
			v.add(rec.line, "category", "unknown category %q (want one of %s)", category, quoteList(v.tax.Categories()))
		}
	}
	if skill := str("skill", true); skill != "" {
		if c, known := v.tax.Canonical(skill); known {
			s.Skill = c
		} else {
			v.add(rec.line, "skill", "unknown skill %q (the taxonomy has %s)", skill, strings.Join(v.tax.Skills(), ", "))
		}
	}
	if s.Skill != "" && s.Category != "" {
		if want := v.tax.categoryOf[s.Skill]; want != s.Category {
			v.add(rec.line, "category", "%q, but the taxonomy puts %s in %s", s.Category, s.Skill, want)
		}
	}
	s.ScenarioID = str("scenario_id", true)
	s.Context = str("context", true)
	s.Statement = str("statement", true)
	if style := str("style", true); style != "" {
		if isKnownStyle(Style(style)) {
			s.Style = Style(style)
		} else {
			v.add(rec.line, "style", "unknown style %q (want one of %s)", style, quoteList(Styles))
		}
	}
	b, present, problem := rec.flag("requires_roll")
	switch {
	case problem != "":
		v.add(rec.line, "requires_roll", "%s", problem)
	case !present && !rec.absent["requires_roll"]:
		v.add(rec.line, "requires_roll", "missing")
	default:
		s.RequiresRoll = b
	}
	if gold := str("gold_skill", true); gold != "" {
		if c, known := v.tax.Canonical(gold); known {
			s.GoldSkill = c
		} else {
			v.add(rec.line, "gold_skill", "unknown skill %q (the taxonomy has %s)", gold, strings.Join(v.tax.Skills(), ", "))
		}
	}
	s.Truth = str("truth", false)
	s.ReviewedBy = str("reviewed_by", false)
	s.ReviewStatus = str("review_status", false)
	s.Pushback = str("pushback", false)
	return s, v.errs.Len() == before
}

// sameScenario checks that a scenario's variants agree on the truth of spec section 1.
func (v *datasetValidator) sameScenario(rec datasetRecord, s Sample, scenarios map[string]*scenarioAgreement) {
	first := scenarios[s.ScenarioID]
	if first == nil {
		first = &scenarioAgreement{}
		scenarios[s.ScenarioID] = first
	}
	if rr, present, problem := rec.flag("requires_roll"); present && problem == "" {
		switch {
		case first.rollLine == 0:
			first.requiresRoll, first.rollLine = rr, rec.line
		case first.requiresRoll != rr:
			v.add(rec.line, "requires_roll", "scenario %q has %t on line %d but %t here", s.ScenarioID, first.requiresRoll, first.rollLine, rr)
		}
	}
	if s.Skill != "" {
		switch {
		case first.skillLine == 0:
			first.skill, first.skillLine = s.Skill, rec.line
		case first.skill != s.Skill:
			v.add(rec.line, "skill", "scenario %q has %s on line %d but %s here", s.ScenarioID, first.skill, first.skillLine, s.Skill)
		}
	}
	if s.Setting != "" {
		switch {
		case first.settingLine == 0:
			first.setting, first.settingLine = s.Setting, rec.line
		case first.setting != s.Setting:
			v.add(rec.line, "setting", "scenario %q has %q on line %d but %q here", s.ScenarioID, first.setting, first.settingLine, s.Setting)
		}
	}
}

func isKnownStyle(s Style) bool { return slices.Contains(Styles, s) }

func quoteList[T ~string](xs []T) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(string(x))
	}
	return strings.Join(q, ", ")
}
