// Package check is RPA-Check: the checklist pipeline and LLM judge for role-playing
// agents (../shared/papers/rpa-check-llm-court.txt, sections 3 and 5), with the file and
// output formats of ../shared/spec/check.md.
//
// The pipeline has four stages, each a plain function over data:
//
//  1. Dimensions (dimensions.go): qualitative criteria with definitions and seed
//     questions, read from YAML so a user adds a domain by writing a file.
//  2. Augment (augment.go): a generator model diversifies and elaborates the seeds into a
//     pool of yes/no questions, as validated JSON.
//  3. Filter (filter.go): a deterministic pre-pass drops exact and near duplicates, then a
//     filter model keeps or removes each question with a reason. The result is a
//     Checklist (checklist.go), a hand-editable YAML file with a canonical content hash.
//  4. Judge (judge.go): a judge model answers the checklist about each transcript
//     several questions per call, with the player's turns withheld (evidence.go);
//     replies are parsed by ParseAnswers (answers.go) and unanswered questions are asked
//     again, never counted as "no".
//
// Transcripts (transcript.go) are read in the format of spec section 1 and as other
// tools write them: chat messages (transcript_chat.go) and plain text with ASCII or
// full-width colons or bracketed labels (transcript_text.go). Each speaker's role comes
// from the turn, a --roles file or the English and Chinese role words of
// data/roles.yaml (roles*.go); transcript_load.go reads folders, refusing or skipping bad
// files, and describe.go says how every file was read.
//
// Scores (scores.go) turn the answers into Quality Scores per dimension, sub-dimension,
// model, case and transcript, the Retry Rate, per-question yes-rates and judge agreement;
// tables.go lays them out as report.Tables. Every model call goes through the runner and
// the store (exec.go), so each stage resumes where it stopped and never pays twice for
// the same request.
package check

import (
	"strings"
	"unicode"
)

// QuestionID identifies a checklist question, e.g. "BRF-RA-03".
type QuestionID string

// TrialID identifies a transcript (its trial_id).
type TrialID string

// Domain says what the transcripts are and who is out of scope. It is carried by
// dimension files and checklists, and every prompt is written from it.
type Domain struct {
	// Name is the benchmark's name, e.g. "LLM Court".
	Name string `json:"name"`
	// Description says what the transcripts show.
	Description string `json:"description"`
	// Player says who the human player is, e.g. "the defense attorney".
	Player string `json:"player"`
	// PlayerRoles are transcript roles whose turns are always the player's, whatever
	// their player flag says (e.g. defense in LLM Court).
	PlayerRoles []Role `json:"player_roles,omitempty"`
	// Guidance is extra instruction for the judge, e.g. what counts as breaking role.
	Guidance string `json:"guidance,omitempty"`
}

// Dimension is a high-level criterion (the paper's d_i) with its sub-dimensions.
type Dimension struct {
	Name string `json:"name"`
	// Short is a short code used in question ids and job keys, e.g. "BRF".
	Short      string `json:"short"`
	Definition string `json:"definition"`
	// Subs has at least one entry. A dimension written without sub-dimensions has one
	// whose Name is empty: the dimension itself.
	Subs []SubDimension `json:"subdimensions"`
}

// SubDimension is one criterion of a dimension: seed questions in a dimension file,
// questions in a checklist.
type SubDimension struct {
	Name       string     `json:"name,omitempty"`
	Short      string     `json:"short,omitempty"`
	Definition string     `json:"definition,omitempty"`
	Seeds      []string   `json:"seeds,omitempty"`
	Questions  []Question `json:"questions,omitempty"`
}

// Label is the sub-dimension's name, or the dimension's when it stands for the whole.
func (s *SubDimension) Label(d *Dimension) string {
	if s.Name == "" {
		return d.Name
	}
	return s.Name
}

// Question is one yes/no question where "yes" means better.
type Question struct {
	ID   QuestionID `json:"id"`
	Text string     `json:"text"`
	// Origin says how the question was made: seed, diversification, elaboration or
	// hand. It is informational and not part of the checklist hash.
	Origin string `json:"origin,omitempty"`
}

// shortOf makes a code from a name's initials: "Role Adherence" → "RA".
func shortOf(name string) string {
	var b strings.Builder
	for _, w := range strings.Fields(name) {
		for _, r := range w {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(unicode.ToUpper(r))
				break
			}
		}
	}
	if b.Len() == 0 {
		return "X"
	}
	return b.String()
}

// oneLine collapses runs of white space, so hashes and prompts ignore line wrapping.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
