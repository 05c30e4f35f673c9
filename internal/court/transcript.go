package court

import (
	"fmt"
	"maps"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/check"
)

// Transcript is a finished or abandoned trial as check.md section 1 and court.md
// section 4 fix it; check's loader reads it (it ignores verdict, restarts and phase).
type Transcript struct {
	TrialID         string            `json:"trial_id"`
	CaseID          string            `json:"case_id"`
	Seed            int64             `json:"seed"`
	Models          map[string]string `json:"models"`
	Retries         int               `json:"retries"`
	Completed       bool              `json:"completed"`
	Outcome         *string           `json:"outcome"`
	CaseDescription string            `json:"case_description"`
	Turns           []Turn            `json:"turns"`
	Verdict         *VerdictRecord    `json:"verdict,omitempty"`
	Restarts        []Restart         `json:"restarts"`
	// Debrief is how the defense played, after the verdict (an added field: readers
	// ignore it).
	Debrief *Debrief `json:"debrief,omitempty"`
	// Side is the counsel the player (or the model standing in for them) held, when
	// it was the prosecution: then the outcome is the prosecution's (win: the charge
	// proven) and the player's turns are the Prosecutor's.
	Side Side `json:"side,omitempty"`
}

// Debrief is how the defense played a trial, shown after the verdict: the planted
// contradictions (named only now) and which were found, the credibility left, the
// objections' rulings, the turns used, and a grade.
type Debrief struct {
	// Side is the counsel played; Planted and Contradictions count those it could find.
	Side           Side             `json:"side"`
	Outcome        string           `json:"outcome"`
	Planted        int              `json:"planted"`
	Found          int              `json:"found"`
	Contradictions []DebriefFinding `json:"contradictions"`
	Credibility    int              `json:"credibility"`
	Presented      int              `json:"presented"`
	Misses         int              `json:"misses"`
	Sustained      int              `json:"objections_sustained"`
	Overruled      int              `json:"objections_overruled"`
	Holds          int              `json:"holds"`
	DefenseTurns   int              `json:"defense_turns"`
	TurnsUsed      int              `json:"turns_used"`
	TurnBudget     int              `json:"turn_budget"`
	// Score (0 to 100) and Grade (A to E) sum it up: see Grade.
	Score int    `json:"score"`
	Grade string `json:"grade"`
}

// DebriefFinding is one planted contradiction, whole, and whether the defense
// exposed it (and with which item).
type DebriefFinding struct {
	Contradiction
	Found bool   `json:"found"`
	By    string `json:"by,omitempty"`
}

// Grade scores a debrief: half for the contradictions found (all of it when none was
// planted and the defense won), 30 for the credibility kept, 20 for the win. A is 85
// and over, B 70, C 55, D 40, E below.
func Grade(d *Debrief) (score int, grade string) {
	found := 0.0
	switch {
	case d.Planted > 0:
		found = float64(d.Found) / float64(d.Planted)
	case d.Outcome == OutcomeWin:
		found = 1
	}
	s := 50*found + 30*float64(d.Credibility)/100
	if d.Outcome == OutcomeWin {
		s += 20
	}
	score = int(s + 0.5)
	for _, g := range []struct {
		min   int
		grade string
	}{{85, "A"}, {70, "B"}, {55, "C"}, {40, "D"}} {
		if score >= g.min {
			return score, g.grade
		}
	}
	return score, "E"
}

// Debrief is how the defense played, nil before the verdict.
func (t *Trial) Debrief() *Debrief { return t.debrief }

// makeDebrief is the debrief of the counsel sp played by a person.
func (t *Trial) makeDebrief(sp Speaker) *Debrief {
	a := t.cur
	tl := t.tallyOf(sp)
	d := &Debrief{Side: t.sideOf(sp), Contradictions: []DebriefFinding{}, Credibility: *t.credOf(sp),
		Presented: tl.presented, Misses: tl.misses, Sustained: tl.sustained, Overruled: tl.overruled,
		Holds: tl.holds, DefenseTurns: a.defenseTurns, TurnsUsed: a.used, TurnBudget: t.s.TurnBudget}
	if sp != t.seat {
		d.DefenseTurns = a.turns2
	}
	if t.verdict != nil {
		d.Outcome = t.verdict.Outcome
		if sp != t.seat {
			d.Outcome = map[string]string{OutcomeWin: OutcomeLoss, OutcomeLoss: OutcomeWin}[d.Outcome]
		}
	}
	for _, x := range t.c.Contradictions {
		if !t.c.FindableBy(x, d.Side) {
			continue
		}
		d.Planted++
		f := DebriefFinding{Contradiction: x}
		for _, e := range a.exposed {
			if e.Contradiction == x.ID && (e.Side == "" || e.Side == d.Side) {
				f.Found, f.By = true, e.Evidence
				d.Found++
			}
		}
		d.Contradictions = append(d.Contradictions, f)
	}
	d.Score, d.Grade = Grade(d)
	return d
}

// Standing is the defense's standing in the trial as the player may see it: no secret
// of the case (the exposures are ids).
type Standing struct {
	TurnsLeft   int        `json:"turns_left"`
	TurnBudget  int        `json:"turn_budget"`
	Credibility int        `json:"credibility"`
	Exposed     []Exposure `json:"exposed"`
	// Stand is the witness on the stand, whom present shows an item; "" before any.
	Stand Speaker `json:"stand,omitempty"`
}

// Standing is the defense's standing now.
func (t *Trial) Standing() Standing {
	a := t.cur
	return Standing{TurnsLeft: t.TurnsLeft(), TurnBudget: t.s.TurnBudget, Credibility: a.cred,
		Exposed: append([]Exposure{}, a.exposed...), Stand: a.stand}
}

// Transcript is the trial as it stands. Its turns are the last attempt's; for a trial
// abandoned at the first turn of its last attempt, those of the latest attempt that had
// any. Retries counts every failure (len(Restarts)): a trial abandoned after the default
// three restarts has retries 4.
func (t *Trial) Transcript() *Transcript {
	m := t.s.Models
	models := map[string]string{"judge": string(m.Judge), "prosecutor": string(m.Prosecutor),
		"witness": string(m.Witness), "analyzer": string(m.Analyzer)}
	if m.Defense != "" {
		models["defense"] = string(m.Defense)
	}
	turns := t.cur.turns
	if len(turns) == 0 {
		turns = t.last
	}
	tr := &Transcript{
		TrialID:         t.s.TrialID,
		CaseID:          t.c.ID,
		Seed:            t.seed,
		Models:          models,
		Retries:         len(t.restarts),
		Completed:       t.done && t.verdict != nil,
		CaseDescription: CaseDescription(t.c),
		Turns:           append([]Turn{}, turns...),
		Verdict:         t.verdict,
		Restarts:        append([]Restart{}, t.restarts...),
		Debrief:         t.debrief,
	}
	if t.s.Side.Or() == SideProsecution {
		tr.Side = SideProsecution
		if m.Prosecutor == "" {
			delete(tr.Models, "prosecutor")
		}
	}
	if t.verdict != nil {
		o := t.verdict.Outcome
		tr.Outcome = &o
	}
	return tr
}

// Public is the transcript as the player may see it before the verdict: the case
// described without the witnesses' knowledge and the planted contradictions, and no
// debrief.
func (t *Transcript) Public(c *Case) *Transcript {
	p := *t
	pc := *c
	pc.Contradictions = nil
	pc.Witnesses = make([]Witness, len(c.Witnesses))
	for i, w := range c.Witnesses {
		w.Knows = nil
		pc.Witnesses[i] = w
	}
	p.CaseDescription = CaseDescription(&pc)
	p.Debrief = nil
	return &p
}

// CaseDescription renders a case record as the paragraph the checklist judge is shown:
// everything the court knew, witnesses' knowledge and planted contradictions included,
// so the judge can tell testimony that keeps to the record from invention.
func CaseDescription(c *Case) string {
	var b strings.Builder
	what := "charged with"
	if c.Kind == Civil {
		what = "facing the claim of"
	}
	fmt.Fprintf(&b, "%s: a %s case. %s (%s) is %s %s. %s", c.Title, c.Kind, c.Defendant.Name,
		strings.TrimSuffix(c.Defendant.Description, "."), what, strings.TrimSuffix(c.Charge, "."), c.Summary)
	b.WriteString(" Evidence:")
	for i, e := range c.Evidence {
		sep := ";"
		if i == len(c.Evidence)-1 {
			sep = "."
		}
		fmt.Fprintf(&b, " %s %s (%s)%s", e.ID, e.Name, strings.TrimSuffix(e.Description, "."), sep)
	}
	b.WriteString(" Witnesses:")
	for _, w := range c.Witnesses {
		fmt.Fprintf(&b, " %s, %s, called by the %s, %s", w.Name, w.Occupation, w.CalledBy, strings.TrimSuffix(w.Personality, "."))
		if len(w.Knows) > 0 {
			fmt.Fprintf(&b, "; may testify that %s", strings.Join(trimDots(w.Knows), "; "))
		}
		b.WriteString(".")
	}
	if len(c.Contradictions) > 0 {
		b.WriteString(" Planted contradictions (false claims a witness holds to until the defense presents an item that breaks them):")
	}
	for _, x := range c.Contradictions {
		name := x.Witness
		if w, ok := c.Witness(x.Witness); ok {
			name = w.Name
		}
		fmt.Fprintf(&b, " %s, %s claims: %s; broken by %s: %s.", x.ID, name,
			strings.TrimSuffix(x.Claim, "."), strings.Join(x.Evidence, " or "), strings.TrimSuffix(x.Explanation, "."))
	}
	fmt.Fprintf(&b, " The defense seeks %s.", strings.TrimSuffix(c.DefenseGoal, "."))
	return b.String()
}

func trimDots(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.TrimSuffix(s, ".")
	}
	return out
}

// ForCheck is the transcript as the checklist judge reads it, with no round trip through
// JSON: a court turn is a check turn with its phase, and the roles are check's.
func (t *Transcript) ForCheck() *check.Transcript {
	turns := make([]check.Turn, len(t.Turns))
	for i, tu := range t.Turns {
		turns[i] = tu.Turn
	}
	seed, completed := t.Seed, t.Completed
	out := &check.Transcript{TrialID: check.TrialID(t.TrialID), CaseID: t.CaseID, Seed: &seed, Models: maps.Clone(t.Models),
		Retries: t.Retries, Completed: &completed, CaseDescription: t.CaseDescription, Turns: turns, Source: t.TrialID + ".json"}
	if t.Outcome != nil {
		out.Outcome = *t.Outcome
	}
	return out
}
