package check

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-eval/arbiter/internal/input"
	"github.com/arbiter-eval/arbiter/internal/store"
)

//go:embed data/transcripts
var builtinTranscriptFS embed.FS

// Role is a transcript turn's role (spec section 1).
type Role string

// The roles of spec section 1.
const (
	RoleJudge      Role = "judge"
	RoleProsecutor Role = "prosecutor"
	RoleWitness    Role = "witness"
	RoleDefense    Role = "defense"
	RoleNarrator   Role = "narrator"
	RoleSystem     Role = "system"
)

// Roles lists the roles in the spec's order.
var Roles = []Role{RoleJudge, RoleProsecutor, RoleWitness, RoleDefense, RoleNarrator, RoleSystem}

func (r Role) valid() bool { return slices.Contains(Roles, r) }

func rolesList() string {
	s := make([]string, len(Roles))
	for i, r := range Roles {
		s[i] = string(r)
	}
	return strings.Join(s, ", ")
}

// Turn is one utterance of a transcript.
type Turn struct {
	Speaker string `json:"speaker"`
	Role    Role   `json:"role"`
	Text    string `json:"text"`
	// Player marks a turn written by the human (or a simulated human): never scored.
	Player bool `json:"player"`
}

// Transcript is one played session (spec section 1).
type Transcript struct {
	TrialID TrialID           `json:"trial_id"`
	CaseID  string            `json:"case_id,omitempty"`
	Seed    *int64            `json:"seed,omitempty"`
	Models  map[string]string `json:"models,omitempty"`
	// Retries is how many restarts the session needed (the paper's R).
	Retries   int    `json:"retries"`
	Completed *bool  `json:"completed,omitempty"`
	Outcome   string `json:"outcome,omitempty"`
	// CaseDescription is the case file the judge is shown. It is an extension of the
	// spec's format; a cases file given to the judge can supply it instead.
	CaseDescription string `json:"case_description,omitempty"`
	Turns           []Turn `json:"turns"`
	// Source says where the transcript came from: a file, and a line for JSONL.
	Source string `json:"-"`
}

// Model names the model under evaluation: the one model behind every character, or the
// distinct models joined with "+" when roles were played by different ones.
func (t *Transcript) Model() string {
	var names []string
	for _, m := range t.Models {
		if m != "" && !slices.Contains(names, m) {
			names = append(names, m)
		}
	}
	if len(names) == 0 {
		return "unknown"
	}
	sort.Strings(names)
	return strings.Join(names, "+")
}

// Hash is the hex SHA-256 of the transcript's content, so that a run records exactly
// what it judged.
func (t *Transcript) Hash() string {
	b, err := json.Marshal(t)
	if err != nil {
		panic(err) // strings, numbers and maps of strings only
	}
	return store.Hash(b)
}

// TranscriptFormat is a transcript file format.
type TranscriptFormat string

// The formats of spec section 1.
const (
	FormatJSON  TranscriptFormat = "json"
	FormatJSONL TranscriptFormat = "jsonl"
	FormatText  TranscriptFormat = "text"
)

// TranscriptFormatOf picks a format from a file name's extension.
func TranscriptFormatOf(name string) (TranscriptFormat, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return FormatJSON, nil
	case ".jsonl", ".ndjson":
		return FormatJSONL, nil
	case ".txt", ".text", ".log":
		return FormatText, nil
	}
	return "", fmt.Errorf("%s: unknown transcript extension %q (want .json, .jsonl or .txt)", name, filepath.Ext(name))
}

// LoadTranscripts reads transcripts from files and directories (every .json, .jsonl and
// .txt file directly inside). "builtin" names the bundled sample trials. Every problem
// in every file comes back in one *ValidationError, and then no transcript is returned:
// nothing is judged from a bad file.
func LoadTranscripts(paths ...string) ([]*Transcript, error) {
	var out []*Transcript
	var errs input.Errors
	for _, p := range paths {
		if p == "builtin" {
			out = append(out, BuiltinTranscripts()...)
			continue
		}
		files, err := transcriptFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			format, err := TranscriptFormatOf(f)
			if err != nil {
				return nil, err
			}
			data, err := input.ReadFile(context.Background(), f)
			if err == nil {
				var ts []*Transcript
				ts, err = ParseTranscripts(data, f, format)
				out = append(out, ts...)
			}
			if err != nil && !errs.Merge(err) {
				return nil, err
			}
		}
	}
	for _, fe := range duplicateTrials(out) {
		errs.Add(fe)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no transcripts in %s", strings.Join(paths, ", "))
	}
	return out, nil
}

func transcriptFiles(p string) ([]string, error) {
	info, err := input.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, input.Problem(p, 0, "", "cannot list the folder: %v", errors.Unwrap(err))
	}
	var files []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if _, err := TranscriptFormatOf(e.Name()); err == nil {
			files = append(files, filepath.Join(p, e.Name()))
		}
	}
	if len(files) == 0 {
		return nil, input.Problem(p, 0, "", "the folder has no .json, .jsonl or .txt files")
	}
	return files, nil
}

func duplicateTrials(ts []*Transcript) []FieldError {
	seen := map[TrialID]*Transcript{}
	var errs []FieldError
	for _, t := range ts {
		if first, ok := seen[t.TrialID]; ok {
			errs = append(errs, FieldError{File: t.Source, Field: "trial_id",
				Msg: fmt.Sprintf("%q is also the trial_id of %s: give every transcript its own", t.TrialID, first.Source)})
			continue
		}
		seen[t.TrialID] = t
	}
	return errs
}

var builtinTranscripts = sync.OnceValue(func() []*Transcript {
	var out []*Transcript
	err := fs.WalkDir(builtinTranscriptFS, "data/transcripts", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		format, err := TranscriptFormatOf(p)
		if err != nil {
			return nil // notes and the like
		}
		data, err := builtinTranscriptFS.ReadFile(p)
		if err != nil {
			return err
		}
		ts, err := ParseTranscripts(data, "builtin/"+path.Base(p), format)
		out = append(out, ts...)
		return err
	})
	if err != nil {
		panic(err) // the embedded files are tested
	}
	return out
})

// BuiltinTranscripts returns the bundled, hand-written sample trials, some deliberately
// flawed (a witness interrogating, a judge opining on guilt, a contradiction). Callers
// must not modify them. They carry no case description: their case_ids are the court's
// bundled cases, whose records are the one source of it (JudgeOptions.Cases, filled by
// the command from court.CaseDescription).
func BuiltinTranscripts() []*Transcript { return builtinTranscripts() }

// ReadTranscripts reads transcripts from r; name labels errors.
func ReadTranscripts(r io.Reader, name string, format TranscriptFormat) ([]*Transcript, error) {
	data, err := input.ReadAll(context.Background(), r, name)
	if err != nil {
		return nil, err
	}
	return ParseTranscripts(data, name, format)
}

// ParseTranscripts parses one transcript file. Every problem is reported naming the file,
// the line and the turn; a file with any problem yields no transcripts.
func ParseTranscripts(data []byte, name string, format TranscriptFormat) ([]*Transcript, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if err := input.CheckUTF8(name, data); err != nil {
		return nil, err
	}
	p := &tparser{file: name, data: data}
	var out []*Transcript
	switch format {
	case FormatJSON:
		out = p.jsonFile()
	case FormatJSONL:
		out = p.jsonlFile()
	case FormatText:
		if t := p.textFile(); t != nil {
			out = []*Transcript{t}
		}
	default:
		return nil, fmt.Errorf("transcripts %s: unknown format %q", name, format)
	}
	if err := p.errs.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, &ValidationError{Errs: []FieldError{{File: name, Msg: "no transcript in the file"}}}
	}
	return out, nil
}

type tparser struct {
	file string
	data []byte
	errs input.Errors
	// lastOff and lastLine remember the last offset lineAt counted to, so that a file
	// with a problem on every line is counted through once, not once per problem.
	lastOff, lastLine int
	// caseParts are the "# case:" lines of a plain text transcript, joined at the end.
	caseParts []string
}

func (p *tparser) add(off int, field, format string, args ...any) {
	p.errs.Addf(p.file, p.lineAt(off), field, format, args...)
}

// lineAt is the 1-based line of the first non-blank byte at or after off.
func (p *tparser) lineAt(off int) int {
	if off < 0 {
		return 0
	}
	off = min(off, len(p.data))
	for off < len(p.data) && (p.data[off] == ' ' || p.data[off] == '\t' || p.data[off] == '\r' || p.data[off] == '\n' || p.data[off] == ',') {
		off++
	}
	if off < p.lastOff || p.lastLine == 0 {
		p.lastOff, p.lastLine = 0, 1
	}
	p.lastLine += bytes.Count(p.data[p.lastOff:off], []byte("\n"))
	p.lastOff = off
	return p.lastLine
}

func stem(name string) string {
	b := path.Base(filepath.ToSlash(name))
	return strings.TrimSuffix(b, path.Ext(b))
}

func (p *tparser) jsonFile() []*Transcript {
	trimmed := bytes.TrimSpace(p.data)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		elems, offs, ok := p.array(p.data, 0, "")
		if !ok {
			return nil
		}
		var out []*Transcript
		for i, e := range elems {
			t := p.transcript(e, offs[i], fmt.Sprintf("%s#%d", stem(p.file), i+1), fmt.Sprintf("transcript %d", i+1))
			if t != nil {
				t.Source = fmt.Sprintf("%s:%d", p.file, p.lineAt(offs[i]))
				out = append(out, t)
			}
		}
		return out
	}
	t := p.transcript(p.data, 0, stem(p.file), "")
	if t == nil {
		return nil
	}
	t.Source = p.file
	return []*Transcript{t}
}

func (p *tparser) jsonlFile() []*Transcript {
	var out []*Transcript
	off := 0
	for n, line := range bytes.SplitAfter(p.data, []byte("\n")) {
		start := off
		off += len(line)
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		t := p.transcript(line, start, fmt.Sprintf("%s#%d", stem(p.file), n+1), "")
		if t != nil {
			t.Source = fmt.Sprintf("%s:%d", p.file, n+1)
			out = append(out, t)
		}
	}
	return out
}

// object splits a JSON object into its raw fields and their offsets in the file.
func (p *tparser) object(data []byte, base int, field string) (map[string]json.RawMessage, map[string]int, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		p.syntax(err, base, field)
		return nil, nil, false
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		p.add(base, field, "want a JSON object, got %s", describeJSONToken(tok))
		return nil, nil, false
	}
	fields, offs := map[string]json.RawMessage{}, map[string]int{}
	for dec.More() {
		ktok, err := dec.Token()
		if err != nil {
			p.syntax(err, base, field)
			return nil, nil, false
		}
		key, _ := ktok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			p.syntax(err, base, field)
			return nil, nil, false
		}
		// The value ends where the decoder stands, so it starts len(raw) earlier.
		fields[key], offs[key] = raw, base+int(dec.InputOffset())-len(raw)
	}
	if _, err := dec.Token(); err != nil {
		p.syntax(err, base, field)
		return nil, nil, false
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		p.add(base+int(dec.InputOffset()), field, "unexpected text after the JSON object (one transcript per .json file; use .jsonl for one per line)")
		return nil, nil, false
	}
	return fields, offs, true
}

// array splits a JSON array into its raw elements and their offsets in the file.
func (p *tparser) array(data []byte, base int, field string) ([]json.RawMessage, []int, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		p.syntax(err, base, field)
		return nil, nil, false
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		p.add(base, field, "want a list, got %s", describeJSONToken(tok))
		return nil, nil, false
	}
	var elems []json.RawMessage
	var offs []int
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			p.syntax(err, base, field)
			return nil, nil, false
		}
		elems, offs = append(elems, raw), append(offs, base+int(dec.InputOffset())-len(raw))
	}
	if _, err := dec.Token(); err != nil {
		p.syntax(err, base, field)
		return nil, nil, false
	}
	return elems, offs, true
}

func (p *tparser) syntax(err error, base int, field string) {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		p.add(base+int(se.Offset)-1, field, "not valid JSON: %v", se)
		return
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		p.add(base+len(p.data), field, "not valid JSON: the text ends early")
		return
	}
	p.add(base, field, "not valid JSON: %v", err)
}

func describeJSONToken(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		if v == '[' {
			return "a list"
		}
		return "an object"
	case string:
		return "text"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%v", tok)
}

// transcript validates one JSON transcript object. where prefixes field names when a
// file holds several.
func (p *tparser) transcript(data []byte, base int, defaultID, where string) *Transcript {
	before := p.errs.Len()
	f, offs, ok := p.object(data, base, where)
	if !ok {
		return nil
	}
	field := func(name string) string {
		if where == "" {
			return name
		}
		return where + ": " + name
	}
	t := &Transcript{TrialID: TrialID(defaultID)}
	str := func(name string, dst *string) {
		raw, ok := f[name]
		if !ok || string(raw) == "null" {
			return
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			p.add(offs[name], field(name), "want text, got %s", input.DescribeJSON(raw))
		}
	}
	var id string
	str("trial_id", &id)
	if id = strings.TrimSpace(id); id != "" {
		t.TrialID = TrialID(id)
	}
	str("case_id", &t.CaseID)
	str("outcome", &t.Outcome)
	str("case_description", &t.CaseDescription)
	if raw, ok := f["seed"]; ok && string(raw) != "null" {
		var s int64
		if err := json.Unmarshal(raw, &s); err != nil {
			p.add(offs["seed"], field("seed"), "want a whole number, got %s", input.DescribeJSON(raw))
		} else {
			t.Seed = &s
		}
	}
	if raw, ok := f["retries"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &t.Retries); err != nil || t.Retries < 0 {
			p.add(offs["retries"], field("retries"), "want a whole number of restarts, 0 or more, got %s", bytes.TrimSpace(raw))
			t.Retries = 0
		}
	}
	if raw, ok := f["completed"]; ok && string(raw) != "null" {
		var c bool
		if err := json.Unmarshal(raw, &c); err != nil {
			p.add(offs["completed"], field("completed"), "want true or false, got %s", input.DescribeJSON(raw))
		} else {
			t.Completed = &c
		}
	}
	if raw, ok := f["models"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &t.Models); err != nil {
			p.add(offs["models"], field("models"), "want an object of role to model name, e.g. {\"judge\": \"ollama/llama3.1:8b\"}")
		}
	}
	raw, ok := f["turns"]
	if !ok || string(raw) == "null" {
		p.add(base, field("turns"), "missing: want a list of {speaker, role, text, player}")
		return nil
	}
	elems, toffs, ok := p.array(raw, offs["turns"], field("turns"))
	if !ok {
		return nil
	}
	if len(elems) == 0 {
		p.add(offs["turns"], field("turns"), "empty: a transcript needs at least one turn")
	}
	for i, e := range elems {
		tw := field(fmt.Sprintf("turn %d", i+1))
		tf, toff, ok := p.object(e, toffs[i], tw)
		if !ok {
			continue
		}
		var turn Turn
		for _, name := range []string{"speaker", "role", "text"} {
			r, ok := tf[name]
			if !ok || string(r) == "null" {
				p.add(toffs[i], tw+": "+name, "missing")
				continue
			}
			var s string
			if err := json.Unmarshal(r, &s); err != nil {
				p.add(toff[name], tw+": "+name, "want text, got %s", input.DescribeJSON(r))
				continue
			}
			switch name {
			case "speaker":
				turn.Speaker = strings.TrimSpace(s)
				if turn.Speaker == "" {
					p.add(toff[name], tw+": speaker", "empty")
				}
			case "role":
				turn.Role = Role(strings.ToLower(strings.TrimSpace(s)))
				if !turn.Role.valid() {
					p.add(toff[name], tw+": role", "%q is not a role (want one of %s)", s, rolesList())
				}
			case "text":
				turn.Text = strings.TrimSpace(s)
				if turn.Text == "" {
					p.add(toff[name], tw+": text", "empty")
				}
			}
		}
		if r, ok := tf["player"]; ok && string(r) != "null" {
			if err := json.Unmarshal(r, &turn.Player); err != nil {
				p.add(toff["player"], tw+": player", "want true or false, got %s", input.DescribeJSON(r))
			}
		}
		t.Turns = append(t.Turns, turn)
	}
	if p.errs.Len() > before {
		return nil
	}
	return t
}

// headerPattern matches a "# key: value" metadata line of a plain text transcript.
var headerPattern = regexp.MustCompile(`^#\s*([A-Za-z_][A-Za-z_.]*)\s*:\s*(.*)$`)

// speakerRoles maps the first word of a plain-text speaker to its role.
var speakerRoles = map[string]Role{
	"judge": RoleJudge, "prosecutor": RoleProsecutor, "prosecution": RoleProsecutor,
	"witness": RoleWitness, "defense": RoleDefense, "defence": RoleDefense, "player": RoleDefense,
	"narrator": RoleNarrator, "keeper": RoleNarrator, "system": RoleSystem,
}

// textFile reads the plain format: one "Speaker: text" line per turn, indented lines
// continuing the turn above, "# key: value" lines for the metadata of spec section 1
// (trial_id, case_id, seed, retries, completed, outcome, case_description, model,
// models.<role>) and other "#" lines as comments.
func (p *tparser) textFile() *Transcript {
	t := &Transcript{TrialID: TrialID(stem(p.file))}
	off := 0
	var turnLine []int
	// parts holds each turn's lines, joined at the end: appending to the text line by
	// line would copy it once per line, quadratic in a long turn.
	var parts [][]string
	for n, raw := range strings.SplitAfter(string(p.data), "\n") {
		lineNo, start := n+1, off
		off += len(raw)
		line := strings.TrimRight(raw, "\r\n")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			if m := headerPattern.FindStringSubmatch(line); m != nil {
				p.header(t, strings.ToLower(m[1]), strings.TrimSpace(m[2]), start)
			}
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(t.Turns) == 0 {
				p.add(start, "", "indented text before the first turn (want \"Speaker: text\")")
				continue
			}
			// A continuation written like a player's turn would put the player's words in
			// the turn above, in front of the judge: refuse it rather than guess.
			if sp, _, ok := strings.Cut(strings.TrimSpace(line), ":"); ok && utf8.RuneCountInString(sp) <= 80 &&
				speakerRoles[strings.ToLower(firstWord(sp))] == RoleDefense && !t.Turns[len(t.Turns)-1].Player {
				p.add(start, fmt.Sprintf("turn %d", len(t.Turns)), "indented line starts like a player's turn (%q): unindent it to make it a turn of its own", strings.TrimSpace(sp))
				continue
			}
			parts[len(parts)-1] = append(parts[len(parts)-1], strings.TrimSpace(line))
			continue
		}
		turnNo := len(t.Turns) + 1
		field := fmt.Sprintf("turn %d", turnNo)
		speaker, text, ok := strings.Cut(line, ":")
		speaker = strings.TrimSpace(speaker)
		if !ok || speaker == "" || utf8.RuneCountInString(speaker) > 80 {
			p.add(start, field, "want \"Speaker: text\" (indent a line to continue the turn above)")
			continue
		}
		role, known := speakerRoles[strings.ToLower(firstWord(speaker))]
		if !known {
			p.add(start, field+": speaker", "%q: unknown role (the first word must be Judge, Prosecutor, Witness, Defense, Player, Narrator or System)", speaker)
			continue
		}
		t.Turns = append(t.Turns, Turn{Speaker: speaker, Role: role, Player: role == RoleDefense})
		parts = append(parts, []string{strings.TrimSpace(text)})
		turnLine = append(turnLine, lineNo)
	}
	for i := range t.Turns {
		t.Turns[i].Text = strings.TrimSpace(strings.Join(parts[i], "\n"))
	}
	t.CaseDescription = strings.TrimSpace(strings.Join(p.caseParts, " "))
	for i, turn := range t.Turns {
		if turn.Text == "" {
			p.errs.Addf(p.file, turnLine[i], fmt.Sprintf("turn %d: text", i+1), "empty")
		}
	}
	if len(t.Turns) == 0 && p.errs.Len() == 0 {
		p.add(0, "", "no turns: want one \"Speaker: text\" line per turn")
	}
	if p.errs.Len() > 0 {
		return nil
	}
	t.Source = p.file
	return t
}

func firstWord(s string) string {
	f := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

func (p *tparser) header(t *Transcript, key, value string, off int) {
	switch {
	case key == "trial_id":
		if value != "" {
			t.TrialID = TrialID(value)
		}
	case key == "case_id":
		t.CaseID = value
	case key == "outcome":
		t.Outcome = value
	case key == "case_description" || key == "case":
		if value != "" {
			p.caseParts = append(p.caseParts, value)
		}
	case key == "seed":
		s, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			p.add(off, key, "want a whole number, got %q", value)
			return
		}
		t.Seed = &s
	case key == "retries":
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			p.add(off, key, "want a whole number of restarts, 0 or more, got %q", value)
			return
		}
		t.Retries = n
	case key == "completed":
		c, err := strconv.ParseBool(value)
		if err != nil {
			p.add(off, key, "want true or false, got %q", value)
			return
		}
		t.Completed = &c
	case key == "model" || strings.HasPrefix(key, "models."):
		if t.Models == nil {
			t.Models = map[string]string{}
		}
		role := strings.TrimPrefix(key, "models.")
		if key == "model" {
			role = "all"
		}
		t.Models[role] = value
	}
}
