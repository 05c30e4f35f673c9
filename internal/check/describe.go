package check

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// FileReading is how one transcript file was read: what a user checks before paying for
// a judge ('arbiter check transcripts').
type FileReading struct {
	File string `json:"file"`
	// Format is the form read ("chat messages JSON", "plain text: full-width colons
	// (Speaker：text)", …), or the file's extension's format when it could not be read.
	Format      string              `json:"format"`
	Transcripts []TranscriptReading `json:"transcripts"`
	// Errors are the file's problems, at most MaxErrors of them then how many more: a file
	// with any is not judged.
	Errors []string `json:"errors,omitempty"`
}

// TranscriptReading is how one transcript was read.
type TranscriptReading struct {
	TrialID TrialID `json:"trial_id"`
	Source  string  `json:"source"`
	// Language is what the judge will be told the transcript is in ("" when it cannot be
	// told).
	Language   string `json:"language"`
	Turns      int    `json:"turns"`
	EmptyTurns int    `json:"empty_turns"`
	// PlayerTurns are the numbers of the turns read as the player's, never shown to the
	// judge (which also withholds the turns of its checklist's player roles, unless
	// --player named another).
	PlayerTurns []int `json:"player_turns"`
	// PlayerRole is the role --player named for a transcript that does not mark its
	// player turns.
	PlayerRole Role             `json:"player_role,omitempty"`
	Speakers   []SpeakerReading `json:"speakers"`
}

// SpeakerReading is one speaker of a transcript: the role its turns got and why.
type SpeakerReading struct {
	Speaker string `json:"speaker"`
	Role    Role   `json:"role"`
	// RoleFrom says why: the turn's role, a --roles entry, a role word.
	RoleFrom    string `json:"role_from"`
	Turns       int    `json:"turns"`
	PlayerTurns int    `json:"player_turns"`
	// PlayerFrom says what decided whether its turns are the player's.
	PlayerFrom string `json:"player_from"`
}

// DescribeTranscripts reads every transcript file of paths as LoadTranscriptsWith does
// and says how each was read, bad files included with all their problems. It asks no
// model. The error is for what stops the reading itself (see readPaths).
func DescribeTranscripts(paths []string, opt ReadOptions) ([]FileReading, error) {
	files, err := readPaths(paths, opt)
	if err != nil {
		return nil, err
	}
	out := make([]FileReading, 0, len(files))
	for _, f := range files {
		fr := FileReading{File: f.file, Format: string(f.format), Transcripts: []TranscriptReading{}}
		if f.err != nil {
			var ve *ValidationError
			if errors.As(f.err, &ve) {
				fr.Errors = strings.Split(ve.Error(), "\n")
			} else {
				fr.Errors = []string{f.err.Error()}
			}
		}
		var forms []string
		for _, t := range f.ts {
			tr := readingOf(t)
			if t.reading != nil && !contains(forms, t.reading.form) {
				forms = append(forms, t.reading.form)
			}
			fr.Transcripts = append(fr.Transcripts, tr)
		}
		if len(forms) > 0 {
			fr.Format = strings.Join(forms, "; ")
		}
		out = append(out, fr)
	}
	return out, nil
}

func readingOf(t *Transcript) TranscriptReading {
	tr := TranscriptReading{TrialID: t.TrialID, Source: t.Source, Language: LanguageOf(t), Turns: len(t.Turns),
		PlayerTurns: []int{}, PlayerRole: t.PlayerRole, Speakers: []SpeakerReading{}}
	index := map[SpeakerReading]int{}
	for i, turn := range t.Turns {
		if turn.Text == "" {
			tr.EmptyTurns++
		}
		var why turnWhy
		if t.reading != nil && i < len(t.reading.why) {
			why = t.reading.why[i]
		}
		key := SpeakerReading{Speaker: turn.Speaker, Role: turn.Role, RoleFrom: why.role, PlayerFrom: why.player}
		k, ok := index[key]
		if !ok {
			k = len(tr.Speakers)
			index[key] = k
			tr.Speakers = append(tr.Speakers, key)
		}
		tr.Speakers[k].Turns++
		if turn.Player {
			tr.Speakers[k].PlayerTurns++
			tr.PlayerTurns = append(tr.PlayerTurns, i+1)
		}
	}
	return tr
}

// WriteReadings writes readings as text or as a JSON list.
func WriteReadings(w io.Writer, rs []FileReading, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rs)
	case "text":
	default:
		return fmt.Errorf("unknown format %q: want text or json", format)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, fr := range rs {
		if len(fr.Errors) > 0 {
			fmt.Fprintf(tw, "%s (%s): not read, %d %s\n", fr.File, fr.Format, len(fr.Errors), plural(len(fr.Errors), "problem line", "problem lines"))
			for _, e := range fr.Errors {
				fmt.Fprintf(tw, "  %s\n", e)
			}
			continue
		}
		fmt.Fprintf(tw, "%s: %s\n", fr.File, fr.Format)
		for _, tr := range fr.Transcripts {
			lang := tr.Language
			if lang == "" {
				lang = "language not told"
			}
			fmt.Fprintf(tw, "  %s: %d turns (%d empty, never shown), %s; player turns: %s\n",
				tr.TrialID, tr.Turns, tr.EmptyTurns, lang, turnList(tr.PlayerTurns))
			for _, sp := range tr.Speakers {
				player := "not the player's"
				if sp.PlayerTurns > 0 {
					player = "the player's"
				}
				fmt.Fprintf(tw, "    %s\t%s\t%d %s\t%s\t%s: %s\n", oneLine(sp.Speaker), sp.Role, sp.Turns,
					plural(sp.Turns, "turn", "turns"), orDash(sp.RoleFrom), player, orDash(sp.PlayerFrom))
			}
		}
	}
	return tw.Flush()
}

func turnList(ns []int) string {
	if len(ns) == 0 {
		return "none"
	}
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprintf("T%d", n)
	}
	return strings.Join(s, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
