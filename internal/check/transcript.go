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
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

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
	// RoleParty is a party to the case who is neither prosecutor nor defense: plaintiff,
	// defendant, juror.
	RoleParty    Role = "party"
	RoleNarrator Role = "narrator"
	RoleSystem   Role = "system"
)

// Roles lists the roles in the spec's order.
var Roles = []Role{RoleJudge, RoleProsecutor, RoleWitness, RoleDefense, RoleParty, RoleNarrator, RoleSystem}

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
	// PlayerRole is the role the human played when the reader was told it (--player)
	// (also when the transcript marks its player turns itself): the judge withholds that
	// role's turns instead of those of the checklist's player roles.
	PlayerRole Role `json:"player_role,omitempty"`
	// Source says where the transcript came from: a file, and a line for JSONL.
	Source string `json:"-"`
	// reading says how the file was read, for DescribeTranscripts.
	reading *reading
}

// reading is how a transcript was read: its form and why each turn has its role.
type reading struct {
	form string
	why  []turnWhy
}

// turnWhy says where a turn's role and player flag came from.
type turnWhy struct{ role, player string }

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

// ParseTranscripts parses one transcript file with the default ReadOptions.
func ParseTranscripts(data []byte, name string, format TranscriptFormat) ([]*Transcript, error) {
	return ParseTranscriptsWith(data, name, format, ReadOptions{})
}

// ParseTranscriptsWith parses one transcript file: the format of spec section 1 or one
// that other tools write (chat messages, plain text with full-width colons or bracketed
// labels), with each speaker's role found as opt says. Every problem is reported naming
// the file, the line and the turn, and a speaker nothing places once, at its first turn;
// a file with any problem yields no transcripts.
func ParseTranscriptsWith(data []byte, name string, format TranscriptFormat, opt ReadOptions) ([]*Transcript, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if err := input.CheckUTF8(name, data); err != nil {
		return nil, err
	}
	p := &tparser{file: name, data: data, opt: &opt}
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
	opt  *ReadOptions
	errs input.Errors
	// lastOff and lastLine remember the last offset lineAt counted to, so that a file
	// with a problem on every line is counted through once, not once per problem.
	lastOff, lastLine int
	// caseParts are the "# case:" lines of a plain text transcript, joined at the end.
	caseParts []string
	// unplaced are the speakers nothing placed, each reported once in the file however
	// many turns and transcripts it has.
	unplaced map[string]bool
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

// The forms a transcript file can take, as DescribeTranscripts names them.
const (
	formTranscript = "transcript JSON"
	formChat       = "chat messages JSON"
)

func (p *tparser) jsonFile() []*Transcript {
	trimmed := bytes.TrimSpace(p.data)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		elems, offs, ok := p.array(p.data, 0, "")
		if !ok {
			return nil
		}
		if messageList(elems) {
			t := &Transcript{TrialID: TrialID(stem(p.file))}
			if !p.chatTurns(t, elems, offs, "") {
				return nil
			}
			t.Source = p.file
			return []*Transcript{t}
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
	var lines []json.RawMessage
	var offs, numbers []int
	off := 0
	for n, line := range bytes.SplitAfter(p.data, []byte("\n")) {
		start := off
		off += len(line)
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		lines, offs, numbers = append(lines, line), append(offs, start), append(numbers, n+1)
	}
	// One chat message a line is one transcript, as chat logs are often written.
	if messageList(lines) {
		t := &Transcript{TrialID: TrialID(stem(p.file))}
		for i, l := range lines {
			if !json.Valid(l) {
				p.add(offs[i], "", "not valid JSON (want one chat message a line)")
			}
		}
		if p.errs.Len() > 0 || !p.chatTurns(t, lines, offs, "") {
			return nil
		}
		t.Source = p.file
		return []*Transcript{t}
	}
	for i, line := range lines {
		t := p.transcript(line, offs[i], fmt.Sprintf("%s#%d", stem(p.file), numbers[i]), "")
		if t != nil {
			t.Source = fmt.Sprintf("%s:%d", p.file, numbers[i])
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
	key := "turns"
	if _, ok := f["turns"]; !ok {
		if _, ok := f["messages"]; ok {
			key = "messages"
		}
	}
	raw, ok := f[key]
	if !ok || string(raw) == "null" {
		p.add(base, field("turns"), "missing: want a list of {speaker, role, text, player} (or chat messages {role, content, name} under messages)")
		return nil
	}
	elems, toffs, ok := p.array(raw, offs[key], field(key))
	if !ok {
		return nil
	}
	if len(elems) == 0 {
		p.add(offs[key], field(key), "empty: a transcript needs at least one turn")
		return nil
	}
	if key == "messages" || messageList(elems) {
		if !p.chatTurns(t, elems, toffs, where) {
			return nil
		}
	} else if !p.jsonTurns(t, elems, toffs, field) {
		return nil
	}
	if p.errs.Len() > before {
		return nil
	}
	return t
}

// jsonTurns reads turns in the form of spec section 1: every turn needs speaker, role
// and text (which may be empty); player is optional.
func (p *tparser) jsonTurns(t *Transcript, elems []json.RawMessage, offs []int, field func(string) string) bool {
	before := p.errs.Len()
	raws := make([]rawTurn, 0, len(elems))
	for i, e := range elems {
		tw := field(fmt.Sprintf("turn %d", i+1))
		turnStart := p.errs.Len()
		tf, toff, ok := p.object(e, offs[i], tw)
		if !ok {
			continue
		}
		rt := rawTurn{line: p.lineAt(offs[i]), field: tw}
		for _, name := range []string{"speaker", "role", "text"} {
			r, ok := tf[name]
			if !ok || string(r) == "null" {
				p.add(offs[i], tw+": "+name, "missing")
				continue
			}
			var s string
			if err := json.Unmarshal(r, &s); err != nil {
				p.add(toff[name], tw+": "+name, "want text, got %s", input.DescribeJSON(r))
				continue
			}
			switch name {
			case "speaker":
				rt.speaker = strings.TrimSpace(s)
				if rt.speaker == "" {
					p.add(toff[name], tw+": speaker", "empty")
				}
			case "role":
				rt.role = s
			case "text":
				rt.text = strings.TrimSpace(s)
			}
		}
		if r, ok := tf["player"]; ok && string(r) != "null" {
			var b bool
			if err := json.Unmarshal(r, &b); err != nil {
				p.add(toff["player"], tw+": player", "want true or false, got %s", input.DescribeJSON(r))
			}
			rt.player = &b
		}
		// A turn with a problem of its own has no speaker to place; the others still
		// have theirs placed, so that every problem of the file is listed at once.
		if p.errs.Len() == turnStart {
			raws = append(raws, rt)
		}
	}
	whole := p.errs.Len() == before
	return p.placeTurns(t, raws, formTranscript, whole) && whole
}

// rawTurn is a turn as its file wrote it, before its role is found.
type rawTurn struct {
	speaker string
	// role is the turn's own role as written ("" when it has none): a role of spec
	// section 1 or anything else, such as a chat message's "user".
	role string
	text string
	// player is the file's own mark, nil when the turn carries none.
	player *bool
	line   int
	field  string // "turn 3", or "transcript 2: turn 3"
}

// placeTurns finds each turn's role and player flag (spec section 1) and sets t's turns.
// A speaker nothing places is one problem, at its first turn in the file, however many
// turns (and transcripts, in a JSONL file) it has.
// A transcript that marks any turn's player flag marks them all (a turn without the mark
// is not the player's); otherwise a --roles entry or a player word decides, and else
// whether the turn's role is the player's (--player, default defense).
//
// whole says raws are all the transcript's turns: else a turn with a problem of its own
// was left out, and only the speakers are placed.
func (p *tparser) placeTurns(t *Transcript, raws []rawTurn, form string, whole bool) bool {
	marks := slices.ContainsFunc(raws, func(r rawTurn) bool { return r.player != nil })
	t.Turns = make([]Turn, 0, len(raws))
	rd := &reading{form: form, why: make([]turnWhy, 0, len(raws))}
	if p.unplaced == nil {
		p.unplaced = map[string]bool{}
	}
	lost := false
	texts := 0
	for _, r := range raws {
		if r.text != "" {
			texts++
		}
		pl, ok := p.opt.place(r.speaker, r.role)
		if !ok {
			lost = true
			if !p.unplaced[r.speaker] {
				p.unplaced[r.speaker] = true
				p.errs.Addf(p.file, r.line, r.field+": speaker", "%s", p.opt.unplaced(r.speaker, r.role))
			}
			continue
		}
		turn := Turn{Speaker: r.speaker, Role: pl.role, Text: r.text}
		why := turnWhy{role: pl.roleFrom}
		switch {
		case marks:
			turn.Player = r.player != nil && *r.player
			why.player = "the file's player marks"
		case pl.player != nil:
			turn.Player, why.player = *pl.player, pl.playerFrom
		default:
			turn.Player = pl.role == p.opt.playerRole()
			why.player = "--player " + string(p.opt.playerRole())
			if p.opt.Player == "" {
				why.player += " (the default)"
			}
		}
		t.Turns = append(t.Turns, turn)
		rd.why = append(rd.why, why)
	}
	if lost || !whole {
		return false
	}
	if texts == 0 {
		line := 0
		if len(raws) > 0 {
			line = raws[0].line
		}
		p.errs.Addf(p.file, line, "turns", "every turn is empty: a transcript needs at least one turn with text")
		return false
	}
	// --player names the human's role also for a file that marks its player turns
	// (a court game played as the prosecution): the judge's prompt then names that
	// player, and withholds that role's turns rather than the domain's default role's.
	if p.opt.Player != "" {
		t.PlayerRole = p.opt.Player
	}
	t.reading = rd
	return true
}
