package check

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// headerPattern matches a "# key: value" metadata line of a plain text transcript.
var headerPattern = regexp.MustCompile(`^#\s*([A-Za-z_][A-Za-z_.]*)\s*:\s*(.*)$`)

// The speaker separators of the plain format, as DescribeTranscripts names them.
const (
	sepColon     = "Speaker: text"
	sepFullWidth = "full-width colons (Speaker：text)"
	sepBracket   = "bracketed labels ([Speaker]: text)"
)

// maxSpeaker is the longest speaker label read, in characters: a longer "label" is a
// sentence with a colon in it.
const maxSpeaker = 80

// splitTurn splits a plain-text line into its speaker and text: "Speaker: text",
// "Speaker：text" (a full-width colon), "[Speaker]: text", "[Speaker] text" or
// "【Speaker】：text". sep says which of these it was.
func splitTurn(line string) (speaker, text, sep string, ok bool) {
	for _, br := range [][2]string{{"[", "]"}, {"【", "】"}} {
		rest, found := strings.CutPrefix(line, br[0])
		if !found {
			continue
		}
		label, after, closed := strings.Cut(rest, br[1])
		if !closed {
			break
		}
		after = strings.TrimLeft(after, " \t")
		for _, colon := range []string{":", "："} {
			if t, cut := strings.CutPrefix(after, colon); cut {
				after = t
				break
			}
		}
		return strings.TrimSpace(label), after, sepBracket, true
	}
	i, j := strings.Index(line, ":"), strings.Index(line, "：")
	switch {
	case i >= 0 && (j < 0 || i < j):
		return strings.TrimSpace(line[:i]), line[i+1:], sepColon, true
	case j >= 0:
		return strings.TrimSpace(line[:j]), line[j+len("："):], sepFullWidth, true
	}
	return "", "", "", false
}

// textFile reads the plain format: one "Speaker: text" line per turn (or a full-width
// colon, or a bracketed label), indented lines continuing the turn above, "# key: value"
// lines for the metadata of spec section 1 (trial_id, case_id, seed, retries, completed,
// outcome, case_description, model, models.<role>) and other "#" lines as comments.
func (p *tparser) textFile() *Transcript {
	t := &Transcript{TrialID: TrialID(stem(p.file))}
	off := 0
	var raws []rawTurn
	// parts holds each turn's lines, joined at the end: appending to the text line by
	// line would copy it once per line, quadratic in a long turn.
	var parts [][]string
	var seps []string
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
		if line[0] == ' ' || line[0] == '\t' || strings.HasPrefix(line, "\u3000") {
			if len(raws) == 0 {
				p.add(start, "", "indented text before the first turn (want \"Speaker: text\")")
				continue
			}
			// A continuation written like a player's turn would put the player's words in
			// the turn above, in front of the judge: refuse it rather than guess.
			if sp, ok := p.playerLabel(strings.TrimSpace(line)); ok && !p.playerTurn(raws[len(raws)-1]) {
				p.add(start, fmt.Sprintf("turn %d", len(raws)), "indented line starts like a player's turn (%q): unindent it to make it a turn of its own", sp)
				continue
			}
			parts[len(parts)-1] = append(parts[len(parts)-1], strings.TrimSpace(line))
			continue
		}
		field := fmt.Sprintf("turn %d", len(raws)+1)
		speaker, text, sep, ok := splitTurn(line)
		if !ok || speaker == "" || utf8.RuneCountInString(speaker) > maxSpeaker {
			p.add(start, field, "want \"Speaker: text\" (indent a line to continue the turn above)")
			continue
		}
		if !slices.Contains(seps, sep) {
			seps = append(seps, sep)
		}
		raws = append(raws, rawTurn{speaker: speaker, line: lineNo, field: field})
		parts = append(parts, []string{strings.TrimSpace(text)})
	}
	for i := range raws {
		raws[i].text = strings.TrimSpace(strings.Join(parts[i], "\n"))
	}
	t.CaseDescription = strings.TrimSpace(strings.Join(p.caseParts, " "))
	if len(raws) == 0 {
		if p.errs.Len() == 0 {
			p.add(0, "", "no turns: want one \"Speaker: text\" line per turn")
		}
		return nil
	}
	if !p.placeTurns(t, raws, "plain text: "+strings.Join(seps, ", "), true) || p.errs.Len() > 0 {
		return nil
	}
	t.Source = p.file
	return t
}

// playerLabel reports whether an indented line starts with the label of a player's turn.
func (p *tparser) playerLabel(line string) (string, bool) {
	sp, _, _, ok := splitTurn(line)
	if !ok || sp == "" || utf8.RuneCountInString(sp) > maxSpeaker {
		return "", false
	}
	return sp, p.playerTurn(rawTurn{speaker: sp})
}

// playerTurn reports whether a turn of the plain format, which never marks its player
// turns, is the player's.
func (p *tparser) playerTurn(r rawTurn) bool {
	pl, ok := p.opt.place(r.speaker, r.role)
	if !ok {
		return false
	}
	if pl.player != nil {
		return *pl.player
	}
	return pl.role == p.opt.playerRole()
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
