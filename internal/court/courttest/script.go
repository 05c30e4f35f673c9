// Package courttest is the scripted court that the tests of every layer play: the
// engine's, the game API's and the commands'. Each role's reply depends only on the
// request, so a request asked again gets the same answer, and a trial runs from the
// opening to the verdict in a known number of turns.
//
// It speaks in strings (the role, the system prompt, the first user message) so that
// any fake — an llm.Func in process or the llmtest stand-in over a wire format — can
// play it, and it does not import the court package, whose own tests use it.
package courttest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"
)

// Script answers as a small, well-behaved court. The zero value plays the same trial
// every time; see the fields for its variants.
type Script struct {
	// Tagged marks every reply with a tag of the role's system prompt, which holds the
	// case and the seed, so trials of different cases or seeds never send the same
	// request; the verdict then varies with the record (win or loss).
	Tagged bool
	// Aside, when set, is said by the prosecutor in every statement that is not a
	// question: markup a page must show as text.
	Aside string
}

var (
	historyLine = regexp.MustCompile(`(?m)^\[\d+\] `)
	routeLine   = regexp.MustCompile(`(?m)^The turn to route: ([^:]+): (.*)$`)
	beforeLine  = regexp.MustCompile(`(?m)^The turn before \(for context\): ([^:]+):`)
	witnessLine = regexp.MustCompile(`(?m)^- (Witness_[a-z0-9-]+):`)
)

// TurnOf is the number of the turn a role request asks for: one past its history.
func TurnOf(user string) int { return len(historyLine.FindAllString(user, -1)) + 1 }

// Reply is what role (the model's id: judge, prosecutor, defense, witness, analyzer)
// says to a request with this system prompt and first user message.
func (s Script) Reply(role, system, user string) string {
	n := TurnOf(user)
	tag := ""
	if s.Tagged {
		h := fnv.New32a()
		h.Write([]byte(system))
		tag = fmt.Sprintf(", %d", h.Sum32()%10000)
	}
	switch role {
	case "judge":
		return s.judge(system, user, n, tag)
	case "prosecutor", "defense":
		if strings.Contains(user, "Phase: interrogation") && n%4 == 1 {
			if s.Tagged {
				return fmt.Sprintf("Witness, tell the court what you saw. (%s, turn %d%s)", role, n, tag)
			}
			return fmt.Sprintf("Witness, tell the court what you saw that night. (%s, turn %d)", role, n)
		}
		if role == "prosecutor" && s.Aside != "" {
			return fmt.Sprintf("Your Honour, the record speaks for itself: %s (turn %d%s)", s.Aside, n, tag)
		}
		return fmt.Sprintf("Your Honour, the record speaks for itself. (%s, turn %d%s)", role, n, tag)
	case "witness":
		if s.Tagged {
			return fmt.Sprintf("I can only say what I saw myself. (turn %d%s)", n, tag)
		}
		return fmt.Sprintf("I saw a figure in the fog, no face. (turn %d)", n)
	case "analyzer":
		return Route(user)
	}
	return "?"
}

func (s Script) judge(system, user string, n int, tag string) string {
	switch {
	case strings.Contains(system, "Rule on the objection"):
		// The ruling clerk: an objection on the ground of leading is sustained.
		last := user[strings.LastIndex(user, "\n[")+1:]
		if strings.Contains(strings.ToLower(last), "leading") {
			return `{"ruling": "sustained", "reason": "Counsel is right: the question leads."}`
		}
		return `{"ruling": "overruled", "reason": "The question is proper."}`
	case strings.HasPrefix(system, "You are the court reporter"):
		if s.Tagged {
			return fmt.Sprintf("Summary %d: the witnesses saw part of it and no one saw all of it.", hash(user)%1000)
		}
		return "Summary: the watchman saw a figure but no face; the pawnbroker saw a bearded man."
	case strings.HasPrefix(system, "You decide the outcome"):
		if s.Tagged {
			outcome := "win"
			if hash(user)%2 == 0 {
				outcome = "loss"
			}
			return fmt.Sprintf(`{"outcome": %q, "justification": "The record as summarised decides it."}`, outcome)
		}
		return `{"outcome": "win", "justification": "No witness placed the defendant at the theft or the pawn shop."}`
	case strings.Contains(user, "Pronounce the verdict now"):
		if s.Tagged {
			return fmt.Sprintf("The court has reached its verdict. The trial is closed. (%s)", strings.TrimPrefix(tag, ", "))
		}
		return "The court finds the defendant not guilty. The trial is closed."
	case n >= 10:
		return fmt.Sprintf("The court has heard the case and will proceed to closing statements. (turn %d%s)", n, tag)
	}
	return fmt.Sprintf("Counsel, continue. (turn %d%s)", n, tag)
}

// Route is the scripted court's clerk, the analyzer: a question to a witness goes to the
// first witness the court lists (the prosecution's) or, when the defense asks it, the
// last; an address of the bench goes to the Judge; the Judge hands the floor to the side
// that did not speak before it, or to the verdict once it calls for closing statements.
func Route(user string) string {
	m := routeLine.FindStringSubmatch(user)
	if m == nil {
		return "I cannot tell."
	}
	speaker, text := m[1], m[2]
	// The court quotes a turn's text as a JSON string.
	var unq string
	if json.Unmarshal([]byte(text), &unq) == nil {
		text = unq
	}
	switch {
	case speaker == "Judge" && strings.Contains(text, "closing"):
		return "<NextSpeaker: Verdict>"
	case speaker == "Judge":
		if b := beforeLine.FindStringSubmatch(user); b != nil && b[1] == "Prosecutor" {
			return "<NextSpeaker: Defense>"
		}
		return "<NextSpeaker: Prosecutor>"
	case strings.HasPrefix(text, "Witness,"):
		ws := witnessLine.FindAllStringSubmatch(user, -1)
		if len(ws) == 0 {
			return "<NextSpeaker: Judge>"
		}
		if strings.Contains(text, "defense") {
			return "<NextSpeaker: " + ws[len(ws)-1][1] + ">"
		}
		return "<NextSpeaker: " + ws[0][1] + ">"
	}
	return "<NextSpeaker: Judge>"
}

func hash(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}
