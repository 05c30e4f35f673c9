// Package court owns the LLM Court game engine: the case record (the court's immutable
// ground truth), the speakers and the transition graph of a trial, the role prompts, the
// Sentence Analyzer that routes the floor, the verdict pipeline, and the transcript a
// trial leaves behind.
//
// The engine is a synchronous state machine without I/O of its own. Every model call
// goes through an injected Asker under a stable key, and every step is reported to a
// callback as an Event, so the same loop drives a batch simulation, a resumed run over a
// store and a browser game whose player types whenever they like. Given the case, the
// seed, the settings and the defense's moves, a trial replays exactly: the models' replies
// (which a store-backed Asker can give back without asking again) are its only
// nondeterminism.
//
// The fair floor. In the interrogation the defense never waits more than MaxCourtRun (4)
// court turns for the floor: after four court turns without it, the floor returns to
// the defense whatever the analyzer would say (it is not asked). "Hold it!" (Human.Hold,
// while the court speaks) gives the defense the floor at the end of the current line;
// it is recorded among the moves where it was taken, so a game replays. The turn budget
// (Settings.TurnBudget) is the defense's: the introduction's turns and each defense turn
// cost one, and the first court turn after a defense turn (the reply the defense is owed:
// its share) is free, so only the court's own turns beyond that share count against the
// defense. When WarnTurns (5) are left the Judge is given the floor to warn the defense;
// and the budget never closes the hearing straight after a defense turn, so its last
// question is always answered.
//
// The cross-examination. Every witness turn of the interrogation is a numbered
// statement (Turn.Statement) the defense may press (MovePress). The defense presents an
// item of evidence (MovePresent) to the witness on the stand, the witness who spoke
// last; Case.Expose decides a hit from the record alone, the witness is told what was
// exposed and reacts, and the verdict's summary ends with the court's own list of the
// exposed contradictions, which the evaluation weighs. The defense's credibility starts
// at 100: a miss costs 20, an objection the Judge overrules 10 (the Judge rules in a
// structured reply asked of its model before it speaks; a reply it cannot read is asked
// once more, then counts as overruled), a hit gives 10 back. At 0 the Judge ends the
// interrogation. After the verdict, the Debrief names the planted contradictions and
// grades the defense's play.
//
// Which text is trusted. Trusted, and written as instructions: the prompts' own words
// (prompts.go: the role briefs, the rubric, the tasks), the ids the case validator
// checks (case, evidence, witness and contradiction ids, the kind, called_by) and the
// numbers of the trial (the seed, the turns left). Untrusted, and given to a model only
// as data: every other field of a case (a player may save or generate one), every turn a
// player writes, and every model reply that goes back into a prompt (the turns of the
// record, the summary, the evaluation's justification). Data stands inside a block
// between <record> and </record>, each text a quoted JSON string, so its newlines cannot
// start a line (a forged turn) and its brackets cannot close the block; every prompt
// with a block says that the block is data, the summary's that the record's text is
// evidence, never instructions, and the evaluation's that instructions inside the record
// are part of the record. The checklist judge (internal/check) fences transcripts alike.
//
// What a prompt carries is bounded: a role sees the case file and the latest 24 turns
// of the record (the turn budget, 40 by default, bounds a trial; the summary pipeline
// sees every turn); every turn is cut to 4,000 characters in a prompt; and every call of
// a game carries a max_tokens (Games.MaxTokens, 1,024 by default, per agent with
// Games.MaxTokensBy), so no reply can make the next prompts grow without bound.
package court

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/arbiter-eval/arbiter/internal/input"
)

// FieldError is one problem in an input file: file:line: field: what is wrong.
type FieldError = input.FieldError

// ValidationError lists every problem found; a file with any problem is rejected whole.
type ValidationError = input.ValidationError

// Kind is a case's kind of proceedings.
type Kind string

// The kinds of spec section 1.
const (
	Criminal Kind = "criminal"
	Civil    Kind = "civil"
)

// CalledBy is the side that called a witness.
type CalledBy string

// The sides of spec section 1.
const (
	CalledByProsecution CalledBy = "prosecution"
	CalledByDefense     CalledBy = "defense"
	CalledByCourt       CalledBy = "court"
)

// Defendant is the party on trial.
type Defendant struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Evidence is one evidentiary item.
type Evidence struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Witness is one witness profile: who they are and everything they may testify to.
type Witness struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Occupation  string   `json:"occupation"`
	CalledBy    CalledBy `json:"called_by"`
	Personality string   `json:"personality"`
	Knows       []string `json:"knows"`
}

// Contradiction is a false claim a witness makes and holds to until the defense presents
// one of the items of Evidence against it: the game's planted discovery. The hit is
// decided from the record (Case.Expose), never by a model.
type Contradiction struct {
	ID string `json:"id"`
	// Witness is the id of the witness who makes the claim.
	Witness string `json:"witness"`
	Claim   string `json:"claim"`
	// Evidence are the ids of the items that break the claim; any one of them does.
	Evidence    []string `json:"evidence"`
	Explanation string   `json:"explanation"`
	// Side, when set, is the counsel whose to find it is (defense or prosecution);
	// unset, it is the defense's, and also the prosecution's when the witness is called
	// by the defense (see FindableBy).
	Side Side `json:"side,omitempty"`
}

// Case is a case record (spec section 1). Nothing in a trial changes it.
type Case struct {
	ID          string     `json:"case_id"`
	Title       string     `json:"title"`
	Kind        Kind       `json:"kind"`
	Charge      string     `json:"charge"`
	Defendant   Defendant  `json:"defendant"`
	Summary     string     `json:"summary"`
	Evidence    []Evidence `json:"evidence"`
	Witnesses   []Witness  `json:"witnesses"`
	DefenseGoal string     `json:"defense_goal"`
	// ProsecutionGoal, optional, is what the prosecution seeks; unset, it is the
	// charge proven (the defense's goal read the other way): see GoalOf.
	ProsecutionGoal string `json:"prosecution_goal,omitempty"`
	Prior           string `json:"prior,omitempty"`
	// Contradictions are optional in a file; a generated case has at least one. They
	// are secret until the verdict: see Public.
	Contradictions []Contradiction `json:"contradictions,omitempty"`

	// Extra keeps the top-level fields the contract does not define, as they were read;
	// MarshalJSON writes them back. Unknown fields inside the defendant, evidence and
	// witness objects are ignored and not kept.
	Extra map[string]json.RawMessage `json:"-"`
	// Source says where the case came from: a file, and a line for JSONL.
	Source string `json:"-"`
}

// Witness returns the witness with the given id.
func (c *Case) Witness(id string) (Witness, bool) {
	for _, w := range c.Witnesses {
		if w.ID == id {
			return w, true
		}
	}
	return Witness{}, false
}

// Item returns the item of evidence with the given id.
func (c *Case) Item(id string) (Evidence, bool) {
	for _, e := range c.Evidence {
		if e.ID == id {
			return e, true
		}
	}
	return Evidence{}, false
}

// Expose decides, from the record alone, what presenting the item evidence to witness
// (the witness on the stand) exposes: the first of that witness's contradictions, in
// the record's order, that names the item and whose id is not in exposed. ok is false
// for a miss: a wrong item, a witness who made no such claim, or a contradiction
// already exposed. An evidence or witness id the case does not have is an error, not a
// miss: the move was never valid.
func (c *Case) Expose(witness, evidence string, exposed []string) (x Contradiction, ok bool, err error) {
	if _, known := c.Item(evidence); !known {
		return Contradiction{}, false, fmt.Errorf("expose: %q is not an evidence id of case %s", evidence, c.ID)
	}
	if _, known := c.Witness(witness); !known {
		return Contradiction{}, false, fmt.Errorf("expose: %q is not a witness of case %s", witness, c.ID)
	}
	for _, x := range c.Contradictions {
		if x.Witness == witness && slices.Contains(x.Evidence, evidence) && !slices.Contains(exposed, x.ID) {
			return x, true, nil
		}
	}
	return Contradiction{}, false, nil
}

// ExposeFor is Expose for the counsel side: only the contradictions that side may
// find (FindableBy) are exposed; presenting against any other is a miss.
func (c *Case) ExposeFor(side Side, witness, evidence string, exposed []string) (Contradiction, bool, error) {
	var others []string
	for _, x := range c.Contradictions {
		if !c.FindableBy(x, side) {
			others = append(others, x.ID)
		}
	}
	return c.Expose(witness, evidence, append(slices.Clone(exposed), others...))
}

// FindableBy says whether the counsel side may expose x: x.Side when set; otherwise
// the defense always, and the prosecution when the witness is called by the defense.
func (c *Case) FindableBy(x Contradiction, side Side) bool {
	side = side.Or()
	if x.Side != "" {
		return x.Side == side
	}
	if side == SideDefense {
		return true
	}
	w, _ := c.Witness(x.Witness)
	return w.CalledBy == CalledByDefense
}

// GoalOf is what the counsel side seeks: the defense goal, or the prosecution goal
// (given, or the charge proven).
func (c *Case) GoalOf(side Side) string {
	if side.Or() == SideDefense {
		return c.DefenseGoal
	}
	if c.ProsecutionGoal != "" {
		return c.ProsecutionGoal
	}
	what := "the charge"
	if c.Kind == Civil {
		what = "the claim"
	}
	return fmt.Sprintf("%s proven against %s: %s (the defense seeks the opposite: %s)", what, c.Defendant.Name,
		strings.TrimSuffix(c.Charge, "."), strings.TrimSuffix(c.DefenseGoal, "."))
}

// Side is a counsel's bench: the one a person plays (Settings.Side).
type Side string

// The sides.
const (
	SideDefense     Side = "defense"
	SideProsecution Side = "prosecution"
)

// Or is the side, defense when unset.
func (s Side) Or() Side {
	if s == "" {
		return SideDefense
	}
	return s
}

// Speaker is the side's counsel on the floor.
func (s Side) Speaker() Speaker {
	if s.Or() == SideProsecution {
		return Prosecutor
	}
	return Defense
}

// Other is the opposing side.
func (s Side) Other() Side {
	if s.Or() == SideProsecution {
		return SideDefense
	}
	return SideProsecution
}

// ParseSide reads a side: "" or defense, prosecution.
func ParseSide(s string) (Side, error) {
	switch Side(s) {
	case "", SideDefense:
		return SideDefense, nil
	case SideProsecution:
		return SideProsecution, nil
	}
	return "", fmt.Errorf("side %q: want defense or prosecution", s)
}

// contradictionsOf are the contradictions of one witness, in the record's order.
func (c *Case) contradictionsOf(witness string) []Contradiction {
	var out []Contradiction
	for _, x := range c.Contradictions {
		if x.Witness == witness {
			out = append(out, x)
		}
	}
	return out
}

// PublicCase is what the player may see of a case (spec section 6): the record without
// the witnesses' knows, the contradictions and the unknown fields a file may carry
// (another tool's notes could hold anything). Every response to a player's client
// gives a case this way; the whole record appears only in the transcript and the
// debrief after the verdict.
type PublicCase struct {
	ID          string          `json:"case_id"`
	Title       string          `json:"title"`
	Kind        Kind            `json:"kind"`
	Charge      string          `json:"charge"`
	Defendant   Defendant       `json:"defendant"`
	Summary     string          `json:"summary"`
	Evidence    []Evidence      `json:"evidence"`
	Witnesses   []PublicWitness `json:"witnesses"`
	DefenseGoal string          `json:"defense_goal"`
	// ProsecutionGoal is the case's prosecution_goal when it has one.
	ProsecutionGoal string `json:"prosecution_goal,omitempty"`
	Prior           string `json:"prior,omitempty"`
}

// PublicWitness is a witness as the player sees it: who they are, not what they know.
type PublicWitness struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Occupation  string   `json:"occupation"`
	CalledBy    CalledBy `json:"called_by"`
	Personality string   `json:"personality"`
}

// Public returns the public case: a copy that shares nothing with c.
func (c *Case) Public() PublicCase {
	p := PublicCase{
		ID:              c.ID,
		Title:           c.Title,
		Kind:            c.Kind,
		Charge:          c.Charge,
		Defendant:       c.Defendant,
		Summary:         c.Summary,
		Evidence:        slices.Clone(c.Evidence),
		Witnesses:       make([]PublicWitness, len(c.Witnesses)),
		DefenseGoal:     c.DefenseGoal,
		Prior:           c.Prior,
		ProsecutionGoal: c.ProsecutionGoal,
	}
	for i, w := range c.Witnesses {
		p.Witnesses[i] = PublicWitness{ID: w.ID, Name: w.Name, Occupation: w.Occupation, CalledBy: w.CalledBy, Personality: w.Personality}
	}
	return p
}

// MarshalJSON writes the record's fields, then the unknown top-level fields it was read
// with, so a case passed through arbiter keeps what another tool put in it.
func (c Case) MarshalJSON() ([]byte, error) {
	type plain Case
	b, err := json.Marshal(plain(c))
	if err != nil || len(c.Extra) == 0 {
		return b, err
	}
	keys := make([]string, 0, len(c.Extra))
	for k := range c.Extra {
		if !slices.Contains(caseFields, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var buf bytes.Buffer
	buf.Write(b[:len(b)-1])
	for _, k := range keys {
		kb, _ := json.Marshal(k)
		buf.WriteByte(',')
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(c.Extra[k])
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// caseFields are the contract's top-level fields.
var caseFields = []string{"case_id", "title", "kind", "charge", "defendant", "summary", "evidence", "witnesses", "defense_goal", "prosecution_goal", "prior", "contradictions"}

var (
	caseIDPattern    = regexp.MustCompile(`^[a-z0-9-]{1,64}$`)
	witnessIDPattern = regexp.MustCompile(`^[a-z0-9-]+$`)
)

// MaxWitnesses is the most witnesses a case may call.
const MaxWitnesses = 8

// maxProblems bounds how many problems one file reports, so that a file of the wrong
// kind gives a screenful, not thousands of lines.
const maxProblems = 50

// readInput reads one case file whole. It is the one place the loader touches the file
// system, so a size-bounded reader can replace it.
func readInput(name string) ([]byte, error) {
	return input.ReadFile(context.Background(), name)
}

// LoadCases reads case records from a .json file (one object), a .jsonl file (one object
// per line) or a directory of them (the files directly inside). Every problem in every
// file comes back in one *ValidationError, and then no case is returned.
func LoadCases(p string) ([]*Case, error) {
	files, err := caseFiles(p)
	if err != nil {
		return nil, err
	}
	var out []*Case
	var errs []FieldError
	for _, f := range files {
		data, err := readInput(f)
		if err != nil {
			return nil, fmt.Errorf("load cases: %w", err)
		}
		cs, err := ParseCases(data, f)
		var ve *ValidationError
		switch {
		case errors.As(err, &ve):
			errs = append(errs, ve.Errs...)
			continue
		case err != nil:
			return nil, err
		}
		out = append(out, cs...)
	}
	errs = append(errs, duplicateCases(out)...)
	if len(errs) > 0 {
		return nil, &ValidationError{Errs: errs}
	}
	return out, nil
}

func isCaseFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".jsonl":
		return true
	}
	return false
}

func caseFiles(p string) ([]string, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("load cases: %w", err)
	}
	if !info.IsDir() {
		if !isCaseFile(p) {
			return nil, fmt.Errorf("load cases: %s: unknown extension %q (want .json or .jsonl)", p, filepath.Ext(p))
		}
		return []string{p}, nil
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, fmt.Errorf("load cases: %w", err)
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && isCaseFile(e.Name()) {
			files = append(files, filepath.Join(p, e.Name()))
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("load cases: %s has no .json or .jsonl files", p)
	}
	return files, nil
}

// duplicateCases reports a case_id used twice in a set, at the later case.
func duplicateCases(cs []*Case) []FieldError {
	seen := map[string]*Case{}
	var errs []FieldError
	for _, c := range cs {
		if first, ok := seen[c.ID]; ok {
			file, line := splitSource(c.Source)
			errs = append(errs, FieldError{File: file, Line: line, Field: "case_id",
				Msg: fmt.Sprintf("%q is also the case_id of %s: give every case its own", c.ID, first.Source)})
			continue
		}
		seen[c.ID] = c
	}
	return errs
}

func splitSource(src string) (string, int) {
	i := strings.LastIndexByte(src, ':')
	if i < 0 {
		return src, 0
	}
	var n int
	if _, err := fmt.Sscanf(src[i+1:], "%d", &n); err != nil {
		return src, 0
	}
	return src[:i], n
}

// ParseCases parses one case file, JSONL when name ends in .jsonl and one JSON object
// otherwise; name labels errors. A file with any problem yields no cases.
func ParseCases(data []byte, name string) ([]*Case, error) {
	v := &caseValidator{file: name}
	var out []*Case
	if strings.EqualFold(filepath.Ext(name), ".jsonl") {
		for n, line := range bytes.Split(data, []byte("\n")) {
			if n == 0 {
				line = bytes.TrimPrefix(line, []byte("\ufeff"))
			}
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			if c := v.parse(line, n+1); c != nil {
				c.Source = fmt.Sprintf("%s:%d", name, n+1)
				out = append(out, c)
			}
		}
	} else if c := v.parse(bytes.TrimPrefix(data, []byte("\ufeff")), 0); c != nil {
		c.Source = name
		out = append(out, c)
	}
	v.errs = append(v.errs, duplicateCases(out)...)
	if len(v.errs) > 0 {
		return nil, &ValidationError{Errs: v.errs}
	}
	if len(out) == 0 {
		return nil, &ValidationError{Errs: []FieldError{{File: name, Msg: "no case record in the file"}}}
	}
	return out, nil
}

// Validate checks a case record against every rule of spec section 1; name labels the
// errors (a generated case is checked this way before it is offered to the player).
func Validate(c *Case, name string) error {
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("validate case %s: %w", name, err)
	}
	v := &caseValidator{file: name}
	v.parse(b, 0)
	if len(v.errs) > 0 {
		return &ValidationError{Errs: v.errs}
	}
	return nil
}

type caseValidator struct {
	file string
	line int
	errs []FieldError
}

// unique records that item i of list (at the path at) has id, and says so when an
// earlier item has it too.
func (v *caseValidator) unique(seen map[string]int, id string, i int, at, list string) {
	if id == "" {
		return
	}
	if j, dup := seen[id]; dup {
		v.add(at+".id", "%q is also the id of %s[%d]", id, list, j)
		return
	}
	seen[id] = i
}

func (v *caseValidator) add(field, format string, args ...any) {
	if len(v.errs) >= maxProblems {
		return
	}
	v.errs = append(v.errs, FieldError{File: v.file, Line: v.line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// parse decodes and validates one case object; it returns nil when the object has any
// problem.
func (v *caseValidator) parse(data []byte, line int) *Case {
	v.line = line
	before := len(v.errs)
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&obj); err != nil || obj == nil {
		v.add("", "not a JSON object: %s", jsonProblem(err, data))
		return nil
	}
	if dec.More() {
		v.add("", "unexpected text after the case object (one case per .json file; use .jsonl for one per line)")
		return nil
	}
	c := &Case{}
	c.ID = v.text(obj, "case_id", "case_id", true)
	if c.ID != "" && !caseIDPattern.MatchString(c.ID) {
		v.add("case_id", "%q: want 1 to 64 of a-z, 0-9 and -", c.ID)
	}
	c.Title = v.text(obj, "title", "title", true)
	c.Kind = Kind(v.text(obj, "kind", "kind", true))
	if c.Kind != "" && c.Kind != Criminal && c.Kind != Civil {
		v.add("kind", "%q: want criminal or civil", c.Kind)
	}
	c.Charge = v.text(obj, "charge", "charge", true)
	if d, ok := v.object(obj, "defendant", "defendant"); ok {
		c.Defendant.Name = v.text(d, "name", "defendant.name", true)
		c.Defendant.Description = v.text(d, "description", "defendant.description", true)
	}
	c.Summary = v.text(obj, "summary", "summary", true)
	c.DefenseGoal = v.text(obj, "defense_goal", "defense_goal", true)
	if _, ok := obj["prosecution_goal"]; ok {
		if c.ProsecutionGoal = v.text(obj, "prosecution_goal", "prosecution_goal", false); c.ProsecutionGoal == "" {
			v.add("prosecution_goal", "must not be empty when given")
		}
	}
	c.Prior = v.text(obj, "prior", "prior", false)

	items, ok := v.list(obj, "evidence", "evidence")
	if ok && len(items) == 0 {
		v.add("evidence", "must not be empty: a case needs at least one item of evidence")
	}
	ids := map[string]int{}
	for i, raw := range items {
		at := fmt.Sprintf("evidence[%d]", i)
		e, ok := v.objectOf(raw, at)
		if !ok {
			continue
		}
		ev := Evidence{
			ID:          v.text(e, "id", at+".id", true),
			Name:        v.text(e, "name", at+".name", true),
			Description: v.text(e, "description", at+".description", true),
		}
		v.unique(ids, ev.ID, i, at, "evidence")
		c.Evidence = append(c.Evidence, ev)
	}

	items, ok = v.list(obj, "witnesses", "witnesses")
	if ok && (len(items) == 0 || len(items) > MaxWitnesses) {
		v.add("witnesses", "has %d witnesses: want 1 to %d", len(items), MaxWitnesses)
	}
	wids := map[string]int{}
	for i, raw := range items {
		at := fmt.Sprintf("witnesses[%d]", i)
		o, ok := v.objectOf(raw, at)
		if !ok {
			continue
		}
		w := Witness{
			ID:          v.text(o, "id", at+".id", true),
			Name:        v.text(o, "name", at+".name", true),
			Occupation:  v.text(o, "occupation", at+".occupation", true),
			CalledBy:    CalledBy(v.text(o, "called_by", at+".called_by", true)),
			Personality: v.text(o, "personality", at+".personality", true),
		}
		if w.ID != "" && !witnessIDPattern.MatchString(w.ID) {
			v.add(at+".id", "%q: want a-z, 0-9 and - only", w.ID)
		}
		v.unique(wids, w.ID, i, at, "witnesses")
		switch w.CalledBy {
		case "", CalledByProsecution, CalledByDefense, CalledByCourt:
		default:
			v.add(at+".called_by", "%q: want prosecution, defense or court", w.CalledBy)
		}
		knows, ok := v.list(o, "knows", at+".knows")
		if ok && len(knows) == 0 {
			v.add(at+".knows", "must not be empty")
		}
		for k, kr := range knows {
			var s string
			if err := json.Unmarshal(kr, &s); err != nil {
				v.add(fmt.Sprintf("%s.knows[%d]", at, k), "want text, got %s", input.DescribeJSON(kr))
				continue
			}
			if s = strings.TrimSpace(s); s == "" {
				v.add(fmt.Sprintf("%s.knows[%d]", at, k), "must not be empty")
				continue
			}
			w.Knows = append(w.Knows, s)
		}
		c.Witnesses = append(c.Witnesses, w)
	}
	c.Contradictions = v.contradictions(obj, ids, wids)
	for k, raw := range obj {
		if !slices.Contains(caseFields, k) {
			if c.Extra == nil {
				c.Extra = map[string]json.RawMessage{}
			}
			c.Extra[k] = raw
		}
	}
	if len(v.errs) > before {
		return nil
	}
	return c
}

// contradictions reads the optional contradictions list; evidence and witnesses are the
// ids the case defines, which every contradiction must refer to.
func (v *caseValidator) contradictions(obj map[string]json.RawMessage, evidence, witnesses map[string]int) []Contradiction {
	if raw, ok := obj["contradictions"]; !ok || string(bytes.TrimSpace(raw)) == "null" {
		return nil
	}
	items, _ := v.list(obj, "contradictions", "contradictions")
	var out []Contradiction
	cids := map[string]int{}
	for i, raw := range items {
		at := fmt.Sprintf("contradictions[%d]", i)
		o, ok := v.objectOf(raw, at)
		if !ok {
			continue
		}
		x := Contradiction{
			ID:          v.text(o, "id", at+".id", true),
			Witness:     v.text(o, "witness", at+".witness", true),
			Claim:       v.text(o, "claim", at+".claim", true),
			Explanation: v.text(o, "explanation", at+".explanation", true),
		}
		v.unique(cids, x.ID, i, at, "contradictions")
		switch x.Side = Side(v.text(o, "side", at+".side", false)); x.Side {
		case "", SideDefense, SideProsecution:
		default:
			v.add(at+".side", "%q: want defense or prosecution", x.Side)
		}
		if _, known := witnesses[x.Witness]; x.Witness != "" && !known {
			v.add(at+".witness", "%q is not a witness of this case", x.Witness)
		}
		ev, ok := v.list(o, "evidence", at+".evidence")
		if ok && len(ev) == 0 {
			v.add(at+".evidence", "must not be empty: name the item or items that break the claim")
		}
		for k, er := range ev {
			field := fmt.Sprintf("%s.evidence[%d]", at, k)
			var id string
			if err := json.Unmarshal(er, &id); err != nil {
				v.add(field, "want an evidence id, got %s", input.DescribeJSON(er))
				continue
			}
			if _, known := evidence[id]; !known {
				v.add(field, "%q is not an evidence id of this case", id)
				continue
			}
			x.Evidence = append(x.Evidence, id)
		}
		out = append(out, x)
	}
	return out
}

// text reads a string field; a required one must be present and not blank.
func (v *caseValidator) text(obj map[string]json.RawMessage, key, field string, required bool) string {
	raw, ok := obj[key]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		if required {
			v.add(field, "missing")
		}
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		v.add(field, "want text, got %s", input.DescribeJSON(raw))
		return ""
	}
	s = strings.TrimSpace(s)
	if s == "" && required {
		v.add(field, "must not be empty")
	}
	return s
}

func (v *caseValidator) object(obj map[string]json.RawMessage, key, field string) (map[string]json.RawMessage, bool) {
	raw, ok := obj[key]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		v.add(field, "missing")
		return nil, false
	}
	return v.objectOf(raw, field)
}

func (v *caseValidator) objectOf(raw json.RawMessage, field string) (map[string]json.RawMessage, bool) {
	var o map[string]json.RawMessage
	if err := json.Unmarshal(raw, &o); err != nil || o == nil {
		v.add(field, "want an object, got %s", input.DescribeJSON(raw))
		return nil, false
	}
	return o, true
}

func (v *caseValidator) list(obj map[string]json.RawMessage, key, field string) ([]json.RawMessage, bool) {
	raw, ok := obj[key]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		v.add(field, "missing")
		return nil, false
	}
	var l []json.RawMessage
	if err := json.Unmarshal(raw, &l); err != nil {
		v.add(field, "want a list, got %s", input.DescribeJSON(raw))
		return nil, false
	}
	return l, true
}

// jsonProblem words a decoding error without Go type names.
func jsonProblem(err error, data []byte) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return "null"
	case errors.As(err, &se):
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	case errors.As(err, &te):
		return "the text holds " + input.DescribeJSON(data)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return "the file is empty"
	}
	return "the text ends early"
}

//go:embed cases
var builtinFS embed.FS

var builtinCases = sync.OnceValues(func() ([]*Case, error) {
	var out []*Case
	var errs []FieldError
	entries, err := fs.ReadDir(builtinFS, "cases")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() || !isCaseFile(e.Name()) {
			continue // the directory's README and the like
		}
		data, err := builtinFS.ReadFile(path.Join("cases", e.Name()))
		if err != nil {
			return nil, err
		}
		cs, err := ParseCases(data, "builtin/"+e.Name())
		var ve *ValidationError
		if errors.As(err, &ve) {
			errs = append(errs, ve.Errs...)
			continue
		}
		out = append(out, cs...)
	}
	errs = append(errs, duplicateCases(out)...)
	if len(errs) > 0 {
		return nil, &ValidationError{Errs: errs}
	}
	return out, nil
})

// Builtin returns the bundled cases (internal/court/cases/*.json), validated like any
// other. Callers must not modify them.
func Builtin() ([]*Case, error) { return builtinCases() }
