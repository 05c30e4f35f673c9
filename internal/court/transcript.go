package court

import (
	"fmt"
	"strings"
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
	}
	if t.verdict != nil {
		o := t.verdict.Outcome
		tr.Outcome = &o
	}
	return tr
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
		fmt.Fprintf(&b, " %s, %s, called by the %s, %s; may testify that %s.", w.Name, w.Occupation, w.CalledBy,
			strings.TrimSuffix(w.Personality, "."), strings.Join(trimDots(w.Knows), "; "))
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
