package court

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// AgentGenerator is the agent of a case generation's calls.
const AgentGenerator Agent = "generator"

// The shape a generated case must have, beyond what every case record needs: enough
// evidence and witnesses for a trial to test, few enough for a prompt to hold.
const (
	GenMinEvidence  = 3
	GenMaxEvidence  = 6
	GenMinWitnesses = 2
	GenMaxWitnesses = 5
)

// generatedName labels the problems of a generated case.
const generatedName = "generated case"

// GenerateOptions say what case to write and how to ask for it.
type GenerateOptions struct {
	// Prior is what the user asked for: a short description such as "theft case".
	Prior string
	// Model writes the case.
	Model llm.ModelName
	// Seed varies the case written for the same prior (the paper's source of variety):
	// it is stated in the prompt, so another seed is another request.
	Seed int64
	// Reasks is how many more times an invalid case is asked for, in the same
	// conversation with its problems listed; 0 means 2, negative means none.
	Reasks int
	// Key prefixes the call keys, so that a store-backed Asker resumes a generation;
	// default GenerateKey(Prior, Model, Seed). The first ask is Key, the n-th re-ask
	// Key+"/r<n>".
	Key string
	// MaxTokens bounds each reply when set.
	MaxTokens int
	// Taken, when set, says whether a case id is already used by another case (a stored
	// one, say): record is the generated case's record with that id, so a caller can
	// tell its own earlier copy of this very case (not a clash) from another case. The
	// bundled cases' ids are always taken.
	Taken func(id string, record json.RawMessage) bool
}

// Generated is a case a model wrote and Validate accepted.
type Generated struct {
	Case *Case
	// Record is the case record as it is stored and written to a file (spec section 1).
	Record json.RawMessage
	Prior  string
	Model  llm.ModelName
	// Asks is how many replies it took, 1 when the first was valid.
	Asks int
}

// GenerateError is a generation whose every reply was invalid: nothing was made.
type GenerateError struct {
	Model llm.ModelName
	Asks  int
	// Errs are the problems of the last reply.
	Errs []FieldError
}

func (e *GenerateError) Error() string {
	lines := []string{fmt.Sprintf("the case %s wrote is still invalid after %d %s:", e.Model, e.Asks, plural(e.Asks, "ask", "asks"))}
	for _, fe := range e.Errs {
		lines = append(lines, fe.Error())
	}
	return strings.Join(lines, "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// GenerateCase writes one case for prior with model, with the default re-asks and call
// keys. It is Generate for callers, such as the web server, that need no options; the
// caller stores the result (store.PutCourtCase with Origin store.CaseGenerated).
func GenerateCase(ctx context.Context, ask Asker, prior string, model llm.ModelName) (*Generated, error) {
	return Generate(ctx, ask, GenerateOptions{Prior: prior, Model: model})
}

// Generate asks opt.Model for one case record fitting opt.Prior (paper section 4.2),
// under CaseSchema where the provider supports structured output. The reply may be
// fenced as Markdown; it is validated as every case record is (ParseCases), and must
// hold GenMinEvidence to GenMaxEvidence items of evidence, GenMinWitnesses to
// GenMaxWitnesses witnesses and at least one contradiction (which a hand-written file
// may leave out). An invalid reply is asked again in the same conversation
// with its problems listed, at most opt.Reasks more times; then the error is a
// *GenerateError with the last reply's problems.
//
// Generate fixes what the model need not get right: a case_id that is missing or not a
// slug becomes the slug of the title (or of the id given), and one that is taken gets
// "-2", "-3"… added; prior is set to opt.Prior.
func Generate(ctx context.Context, ask Asker, opt GenerateOptions) (*Generated, error) {
	if strings.TrimSpace(opt.Prior) == "" {
		return nil, fmt.Errorf("generate case: the prior is empty: say what kind of case to write, e.g. \"theft case\"")
	}
	if opt.Model == "" {
		return nil, fmt.Errorf("generate case: no model")
	}
	reasks := opt.Reasks
	switch {
	case reasks == 0:
		reasks = DefaultReasks
	case reasks < 0:
		reasks = 0
	}
	key := opt.Key
	if key == "" {
		key = GenerateKey(opt.Prior, opt.Model, opt.Seed)
	}
	req := generateRequest(opt)
	var errs []FieldError
	for try := 0; try <= reasks; try++ {
		call := Call{Key: key, Agent: AgentGenerator, Model: opt.Model, Try: try}
		if try > 0 {
			call.Key = fmt.Sprintf("%s/r%d", key, try)
		}
		reply, err := ask.Ask(ctx, call, req)
		if err != nil {
			return nil, fmt.Errorf("generate case: %w", err)
		}
		var c *Case
		c, errs = parseGenerated(reply, opt)
		if c != nil {
			rec, err := json.Marshal(c)
			if err != nil {
				return nil, fmt.Errorf("generate case: %w", err)
			}
			return &Generated{Case: c, Record: rec, Prior: opt.Prior, Model: opt.Model, Asks: try + 1}, nil
		}
		if try < reasks {
			req = reaskRequest(req, reply.Text, errs)
		}
	}
	return nil, &GenerateError{Model: opt.Model, Asks: reasks + 1, Errs: errs}
}

// GenerateKey is the default call-key prefix of a generation: "gen/" and a hash of the
// prior, the model, the seed and the prompt's wording and schema, so that a changed
// prompt is a new generation, not a replay of an old one.
func GenerateKey(prior string, model llm.ModelName, seed int64) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00%s\x00", prior, model, seed, generateSystem)
	h.Write(CaseSchema())
	return "gen/" + hex.EncodeToString(h.Sum(nil))[:16]
}

// generateSystem is the generator's system prompt, written for this project.
const generateSystem = `You write case records for a courtroom game. In the game, language models play the judge, the prosecutor and the witnesses, and a person plays the defense. You are given a prior: a few words saying what kind of case is wanted. Invent one case that fits it, with names, places and facts of your own, consistent with each other, and with enough doubt in it that the defense can hope to win and the prosecution can hope to convict.

The record is one JSON object with these fields:
- case_id: a short slug of lowercase letters, digits and hyphens, such as "harbour-warehouse-fire".
- title: the name the case is known by.
- kind: "criminal" when the state prosecutes a crime, "civil" when one party sues another.
- charge: the criminal charge, or for a civil case the claim.
- defendant: an object with the defendant's name and a description of who they are.
- summary: one paragraph of the facts both sides accept; leave the disputed points open.
- evidence: 3 to 6 items, with ids E1, E2 and so on, each with a name and a description of what it shows and what it leaves unclear.
- witnesses: 2 to 5 people, each with an id (lowercase letters, digits and hyphens, such as "night-guard"), name, occupation, called_by ("prosecution", "defense" or "court"), personality, and knows: a list of the specific things this witness can testify to. Make every item concrete (a time, a place, what was seen or heard), and let some items of different witnesses disagree with each other or with the evidence, so that questioning has something to find.
- defense_goal: what the defense is trying to achieve, such as "an acquittal on the charge of theft".
- contradictions: at least one, better two on different witnesses for the prosecution (or the claimant), with ids C1, C2 and so on. Each is a false claim that a witness makes in good faith or to protect themselves, and holds to until the defense presents an item of evidence that breaks it: witness is the id of that witness, claim is what the witness says (a plausible statement, in the witness's words), evidence is the list of ids of the items that break it, and explanation says why each of those items shows the claim false. Write the evidence descriptions so that a careful reader of the record can find the break, and do not put the truth that breaks the claim into the witness's knows list: the witness must not volunteer it.

Answer with the JSON object only: no words before or after it and no Markdown.`

func generateRequest(opt GenerateOptions) *llm.Request {
	user := fmt.Sprintf("Prior: %s\nVariation number: %d (let it change the names, the places and the details).\nWrite the case record.", strings.TrimSpace(opt.Prior), opt.Seed)
	req := llm.UserText(generateSystem, user)
	req.JSONSchema = CaseSchema()
	req.SchemaName = "case_record"
	req.MaxTokens = opt.MaxTokens
	return req
}

// reaskRequest is prev followed by the model's reply and a user turn listing the reply's
// problems. prev, already handed to the Asker, is not changed.
func reaskRequest(prev *llm.Request, reply string, errs []FieldError) *llm.Request {
	var b strings.Builder
	b.WriteString("That record cannot be used. Its problems:\n")
	for _, fe := range errs {
		b.WriteString("- ")
		if fe.Field != "" {
			b.WriteString(fe.Field)
			b.WriteString(": ")
		}
		b.WriteString(fe.Msg)
		b.WriteByte('\n')
	}
	b.WriteString("Answer again with the whole corrected record, as one JSON object and nothing else.")
	next := *prev
	next.Messages = append(slices.Clone(prev.Messages),
		llm.Message{Role: llm.RoleAssistant, Text: reply},
		llm.Message{Role: llm.RoleUser, Text: b.String()})
	return &next
}

// parseGenerated turns a generator's reply into a valid case, or lists its problems.
func parseGenerated(reply *llm.Reply, opt GenerateOptions) (*Case, []FieldError) {
	problem := func(field, msg string) []FieldError {
		return []FieldError{{File: generatedName, Field: field, Msg: msg}}
	}
	if reply.Finish == llm.FinishRefusal || reply.Finish == llm.FinishContentFilter {
		why := reply.Refusal
		if why == "" {
			why = string(reply.Finish)
		}
		return nil, problem("", "the model did not write a case: "+why)
	}
	c, errs := ParseGenerated([]byte(reply.Text), opt.Prior, opt.Taken)
	if len(errs) > 0 && reply.Finish == llm.FinishLength {
		errs = append(errs, FieldError{File: generatedName, Msg: "the reply was cut off at the token limit: write it shorter"})
	}
	return c, errs
}

// ParseGenerated reads a case record a model wrote: the JSON object alone, fenced as
// Markdown, or with words around it. It sets prior, fixes the case_id as Generate says
// (taken may be nil), and checks the record as ParseCases does, and its size and its
// contradictions as a generated case's. It returns the case, or every problem found.
func ParseGenerated(text []byte, prior string, taken func(id string, record json.RawMessage) bool) (*Case, []FieldError) {
	data := extractJSON(text)
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err == nil && obj != nil {
		if id, ok := provisionalID(obj); ok {
			obj["case_id"], _ = json.Marshal(id)
		}
		if prior = strings.TrimSpace(prior); prior != "" {
			obj["prior"], _ = json.Marshal(prior)
		}
		data, _ = json.Marshal(obj)
	}
	cs, err := ParseCases(data, generatedName)
	if err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) {
			return nil, ve.Errs
		}
		return nil, []FieldError{{File: generatedName, Msg: err.Error()}}
	}
	c := cs[0]
	var errs []FieldError
	if n := len(c.Evidence); n < GenMinEvidence || n > GenMaxEvidence {
		errs = append(errs, FieldError{File: generatedName, Field: "evidence",
			Msg: fmt.Sprintf("has %d items: want %d to %d", n, GenMinEvidence, GenMaxEvidence)})
	}
	if n := len(c.Witnesses); n < GenMinWitnesses || n > GenMaxWitnesses {
		errs = append(errs, FieldError{File: generatedName, Field: "witnesses",
			Msg: fmt.Sprintf("has %d witnesses: want %d to %d", n, GenMinWitnesses, GenMaxWitnesses)})
	}
	if len(c.Contradictions) == 0 {
		errs = append(errs, FieldError{File: generatedName, Field: "contradictions",
			Msg: "has none: want at least one false claim of a witness that an item of evidence breaks"})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	c.Source = ""
	if err := freeID(c, taken); err != nil {
		return nil, []FieldError{{File: generatedName, Field: "case_id", Msg: err.Error()}}
	}
	return c, nil
}

// extractJSON finds the JSON object in a model's reply: inside a ```json fence when
// there is one, and there or in the whole reply from the first '{' to the last '}'.
func extractJSON(text []byte) []byte {
	t := bytes.TrimSpace(bytes.TrimPrefix(text, []byte("\ufeff")))
	if i := bytes.Index(t, []byte("```")); i >= 0 {
		rest := t[i+3:]
		if j := bytes.Index(rest, []byte("```")); j >= 0 {
			rest = rest[:j]
		}
		t = bytes.TrimSpace(rest) // the language tag, if any, goes with the braces below
	}
	if len(t) > 0 && t[0] == '{' {
		return t
	}
	i, j := bytes.IndexByte(t, '{'), bytes.LastIndexByte(t, '}')
	if i >= 0 && j > i {
		return t[i : j+1]
	}
	return t
}

// provisionalID is the case_id to validate with when the model's is missing or not a
// slug: the slug of its id, else of its title, else "generated-case". ok is false when
// the model's id will do.
func provisionalID(obj map[string]json.RawMessage) (string, bool) {
	var id, title string
	_ = json.Unmarshal(obj["case_id"], &id)
	if caseIDPattern.MatchString(id) {
		return "", false
	}
	_ = json.Unmarshal(obj["title"], &title)
	for _, s := range []string{id, title} {
		if slug := Slug(s); slug != "" {
			return slug, true
		}
	}
	return "generated-case", true
}

// Slug is s in lowercase letters, digits and single hyphens, at most 48 characters, as
// a case_id: "The Museum Theft!" is "the-museum-theft".
func Slug(s string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
		default:
			hyphen = true
		}
		if b.Len() >= 48 {
			break
		}
	}
	return strings.TrimRight(b.String(), "-")
}

// freeID gives c an id no other case has: its own, or its own with "-2", "-3"… added.
func freeID(c *Case, taken func(string, json.RawMessage) bool) error {
	builtin, _ := Builtin()
	base := c.ID
	for n := 1; n <= 100; n++ {
		if n > 1 {
			suffix := fmt.Sprintf("-%d", n)
			c.ID = base[:min(len(base), 64-len(suffix))] + suffix
		}
		if builtinHas(builtin, c.ID) {
			continue
		}
		if taken == nil {
			return nil
		}
		rec, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if !taken(c.ID, rec) {
			return nil
		}
	}
	c.ID = base
	return fmt.Errorf("%q and 99 variants of it are taken", base)
}

func builtinHas(cs []*Case, id string) bool {
	for _, c := range cs {
		if c.ID == id {
			return true
		}
	}
	return false
}
