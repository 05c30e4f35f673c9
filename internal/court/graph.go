package court

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Speaker names who has the floor, as routing tags spell it: Judge, Prosecutor, Defense,
// Witness_<id>, or Verdict (not a person: the court moves to closing).
type Speaker string

// The fixed speakers.
const (
	Judge      Speaker = "Judge"
	Prosecutor Speaker = "Prosecutor"
	Defense    Speaker = "Defense"
	Verdict    Speaker = "Verdict"
)

const witnessPrefix = "Witness_"

// WitnessSpeaker is the speaker of the witness with this id.
func WitnessSpeaker(id string) Speaker { return Speaker(witnessPrefix + id) }

// IsWitness says whether s is a witness.
func (s Speaker) IsWitness() bool { return strings.HasPrefix(string(s), witnessPrefix) }

// WitnessID is the witness's id, or "" for a speaker that is not a witness.
func (s Speaker) WitnessID() string {
	if !s.IsWitness() {
		return ""
	}
	return string(s[len(witnessPrefix):])
}

// Phase is a stage of a trial.
type Phase string

// The phases of spec section 2, in order.
const (
	PhaseIntroduction  Phase = "introduction"
	PhaseInterrogation Phase = "interrogation"
	PhaseClosing       Phase = "closing"
	PhaseVerdict       Phase = "verdict"
)

// IntroductionOrder is the fixed order of the opening statements.
var IntroductionOrder = []Speaker{Judge, Prosecutor, Defense}

// ClosingOrder is the fixed order of the closing statements.
var ClosingOrder = []Speaker{Prosecutor, Defense}

// class is a speaker's place in the graph: a witness stands for every witness.
type class int

const (
	classNone class = iota
	classJudge
	classProsecutor
	classDefense
	classWitness
	classVerdict
)

func classOf(s Speaker) class {
	switch {
	case s == Judge:
		return classJudge
	case s == Prosecutor:
		return classProsecutor
	case s == Defense:
		return classDefense
	case s == Verdict:
		return classVerdict
	case s.IsWitness() && witnessIDPattern.MatchString(s.WitnessID()):
		return classWitness
	}
	return classNone
}

// edges is the interrogation graph of spec section 2.2, the one place it is written
// down: who may take the floor after whom. A witness only ever hands the floor back to
// the speaker who addressed it; the trial loop does that without asking the analyzer,
// so the witness row lists who could have addressed one. No row has an edge to its own
// class but the witness row's absence of classWitness: no speaker speaks twice in a
// row, and no witness passes the floor to another.
var edges = map[class][]class{
	classJudge:      {classProsecutor, classDefense, classWitness, classVerdict},
	classProsecutor: {classJudge, classDefense, classWitness},
	classDefense:    {classJudge, classProsecutor, classWitness},
	classWitness:    {classJudge, classProsecutor, classDefense},
}

// Allowed says whether the graph has an edge from one speaker to another, whatever the
// case. Graph.Allowed also checks that a witness belongs to the case.
func Allowed(from, to Speaker) bool {
	for _, c := range edges[classOf(from)] {
		if c == classOf(to) {
			return true
		}
	}
	return false
}

// Graph is the transition graph of one case: the speakers it has.
type Graph struct {
	witnesses []Speaker
	names     map[Speaker]string
}

// NewGraph builds the graph of c's speakers.
func NewGraph(c *Case) *Graph {
	g := &Graph{names: map[Speaker]string{}}
	for _, w := range c.Witnesses {
		s := WitnessSpeaker(w.ID)
		g.witnesses = append(g.witnesses, s)
		g.names[s] = w.Name
	}
	return g
}

// Has says whether s is a speaker of this case (Verdict counts).
func (g *Graph) Has(s Speaker) bool {
	if s.IsWitness() {
		_, ok := g.names[s]
		return ok
	}
	return classOf(s) != classNone
}

// Allowed says whether the floor may pass from one speaker of this case to another.
func (g *Graph) Allowed(from, to Speaker) bool {
	return g.Has(from) && g.Has(to) && Allowed(from, to)
}

// Next lists, in a fixed order, every speaker the floor may pass to after from.
func (g *Graph) Next(from Speaker) []Speaker {
	var out []Speaker
	for _, s := range append([]Speaker{Judge, Prosecutor, Defense}, g.witnesses...) {
		if g.Allowed(from, s) {
			out = append(out, s)
		}
	}
	if g.Allowed(from, Verdict) {
		out = append(out, Verdict)
	}
	return out
}

// Name is how a speaker is named in a transcript: "Witness (<name>)" for a witness.
func (g *Graph) Name(s Speaker) string {
	if n, ok := g.names[s]; ok {
		return "Witness (" + n + ")"
	}
	return string(s)
}

// ErrNoTag is returned by ParseTag for a reply with no <NextSpeaker: …> tag.
var ErrNoTag = errors.New("no <NextSpeaker: X> tag")

// tagPattern finds routing tags. It is lenient about what a model gets wrong without
// changing the meaning: letter case, spaces (also "Next Speaker"), and "=" for ":".
var tagPattern = regexp.MustCompile(`(?i)<\s*next\s*_?\s*speaker\s*[:=]\s*([^<>\n]*?)\s*>`)

// ParseTag reads the routing tag of an analyzer reply: <NextSpeaker: X>, with X one of
// Judge, Prosecutor, Defense, Verdict or Witness_<id>. Case and spacing are forgiven
// ("<nextspeaker:judge>" is Judge, "witness_Mara" is Witness_mara since ids are lower
// case); any other text around the tag is ignored. A reply with no tag, a tag that names
// no speaker, or several tags naming different speakers is an error. ParseTag does not
// know the case: Graph.Has checks that a witness exists.
func ParseTag(text string) (Speaker, error) {
	ms := tagPattern.FindAllStringSubmatch(text, -1)
	if len(ms) == 0 {
		return "", ErrNoTag
	}
	var got Speaker
	for _, m := range ms {
		s, err := speakerOf(m[1])
		if err != nil {
			return "", err
		}
		if got != "" && s != got {
			return "", fmt.Errorf("several tags name different speakers (%s and %s): want exactly one", got, s)
		}
		got = s
	}
	return got, nil
}

func speakerOf(x string) (Speaker, error) {
	x = strings.TrimSpace(x)
	for _, s := range []Speaker{Judge, Prosecutor, Defense, Verdict} {
		if strings.EqualFold(x, string(s)) {
			return s, nil
		}
	}
	if len(x) > len(witnessPrefix) && strings.EqualFold(x[:len(witnessPrefix)], witnessPrefix) {
		id := strings.ToLower(strings.TrimSpace(x[len(witnessPrefix):]))
		if witnessIDPattern.MatchString(id) {
			return WitnessSpeaker(id), nil
		}
	}
	return "", fmt.Errorf("%q is not a speaker: want Judge, Prosecutor, Defense, Verdict or Witness_<id>", x)
}
