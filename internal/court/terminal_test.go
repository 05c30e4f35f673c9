package court

import (
	"slices"
	"strings"
	"testing"
)

// FuzzParseMove: whatever the player types, ParseMove does not panic, and a move it
// makes addresses only someone the defense may address now.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"plain words", "/to Witness_nell what?", "/to", "/to  ", "/TO judge: hello", "/object leading",
		"/rest", "/quit", "/help", "/x", "/to Witness_ghost hi", "", "   /to\tJudge x", "/to Witness_nell"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, line string, interrogation bool) {
		v := GameView{Phase: PhaseIntroduction, Addressees: []Speaker{}}
		if interrogation {
			v = GameView{Phase: PhaseInterrogation, Addressees: []Speaker{"Judge", "Prosecutor", "Witness_nell"}}
		}
		m, cmd, err := ParseMove(line, v, nil)
		if err != nil || cmd != "" {
			return
		}
		switch m.Kind {
		case MoveSpeak, MoveObject, MoveRest, MovePresent, MovePress:
		default:
			t.Fatalf("ParseMove(%q) = kind %q", line, m.Kind)
		}
		if m.To != "" && !slices.Contains(v.Addressees, m.To) {
			t.Fatalf("ParseMove(%q) addresses %q, not among %v", line, m.To, v.Addressees)
		}
	})
}

func TestParseMove(t *testing.T) {
	v := GameView{Phase: PhaseInterrogation, Addressees: []Speaker{"Judge", "Prosecutor", "Witness_nell"}}
	for _, tt := range []struct {
		line string
		want Move
		cmd  string
		err  string
	}{
		{"  plain words ", Move{Kind: MoveSpeak, Text: "plain words"}, "", ""},
		{"/to witness_NELL  what did you see?", Move{Kind: MoveSpeak, Text: "what did you see?", To: "Witness_nell"}, "", ""},
		{"/to\tJudge: a request", Move{Kind: MoveSpeak, Text: "a request", To: "Judge"}, "", ""},
		{"/object leading the witness", Move{Kind: MoveObject, Text: "leading the witness"}, "", ""},
		{"/rest", Move{Kind: MoveRest}, "", ""},
		{"/QUIT", Move{}, "quit", ""},
		{"/help", Move{}, "help", ""},
		{"/to", Move{}, "", "/to needs a name"},
		{"/to Witness_ghost hi", Move{}, "", `no one called "Witness_ghost"`},
		{"/present e2 look at this", Move{Kind: MovePresent, Evidence: "E2", Text: "look at this"}, "", ""},
		{"/present", Move{}, "", "/present needs an item"},
		{"/press 3", Move{Kind: MovePress, Statement: 3}, "", ""},
		{"/press #2 and then?", Move{Kind: MovePress, Statement: 2, Text: "and then?"}, "", ""},
		{"/press x", Move{}, "", "/press needs a statement's number"},
		{"/hold", Move{}, "hold", ""},
		{"/record", Move{}, "record", ""},
		{"/shout", Move{}, "", "unknown command /shout"},
	} {
		m, cmd, err := ParseMove(tt.line, v, nil)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseMove(%q) error = %v; want %q", tt.line, err, tt.err)
			}
			continue
		}
		if err != nil || m != tt.want || cmd != tt.cmd {
			t.Errorf("ParseMove(%q) = %+v, %q, %v; want %+v, %q", tt.line, m, cmd, err, tt.want, tt.cmd)
		}
	}
}

func TestCleanKeepsNewlinesAndTabs(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a\nb\tc", "a\nb\tc"},
		{"\x1b[31mred\x1b[0m", "[31mred[0m"},
		{"bell\x07 del\x7f c1\u0085\u009b", "bell del c1"},
		{"Zoë — café", "Zoë — café"},
	} {
		if got := Clean(tt.in); got != tt.want {
			t.Errorf("Clean(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

// TestParseMoveNamePrefix: /to takes any unambiguous start of a name, an id or a tag,
// in any case; an ambiguous one lists the matches.
func TestParseMoveNamePrefix(t *testing.T) {
	c := &PublicCase{Witnesses: []PublicWitness{{ID: "mara", Name: "Mara Quell"}, {ID: "marek", Name: "Marek Dunn"}, {ID: "nell", Name: "Nell Okafor"}}}
	v := GameView{Phase: PhaseInterrogation, Addressees: []Speaker{"Judge", "Prosecutor", "Witness_mara", "Witness_marek", "Witness_nell"}}
	for _, tt := range []struct {
		line string
		to   Speaker
		err  string
	}{
		{"/to Mara what?", "Witness_mara", ""},
		{"/to mare what?", "Witness_marek", ""},
		{"/to QUELL what?", "Witness_mara", ""},
		{"/to okafor: what?", "Witness_nell", ""},
		{"/to ju Your Honour", "Judge", ""},
		{"/to pro a point", "Prosecutor", ""},
		{"/to Witness_nell hi", "Witness_nell", ""},
		{"/to mar what?", "", `"mar" could be Mara Quell (Witness_mara) or Marek Dunn (Witness_marek)`},
		{"/to zed what?", "", `no one called "zed" here`},
	} {
		m, _, err := ParseMove(tt.line, v, c)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseMove(%q) error = %v; want %q", tt.line, err, tt.err)
			}
			continue
		}
		if err != nil || m.To != tt.to {
			t.Errorf("ParseMove(%q) = %+v, %v; want to %s", tt.line, m, err, tt.to)
		}
	}
}

// TestWrapperWrapsAtWords: text streamed in pieces wraps at word boundaries, keeps
// indentation, and never breaks a word.
func TestWrapperWrapsAtWords(t *testing.T) {
	var b strings.Builder
	w := &wrapper{w: &b, width: 20}
	for _, piece := range []string{"Judge: The co", "urt will now hear the wit", "ness under oath.\n", "  E1 Key log: a log\n"} {
		w.Write([]byte(piece))
	}
	want := "Judge: The court\nwill now hear the\nwitness under oath.\n  E1 Key log: a log\n"
	if b.String() != want {
		t.Errorf("wrapped:\n%q\nwant\n%q", b.String(), want)
	}
}
