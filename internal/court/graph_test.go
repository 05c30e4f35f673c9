package court

import (
	"slices"
	"strings"
	"testing"
)

func TestAllowedEveryEdge(t *testing.T) {
	w, v := WitnessSpeaker("tomas"), WitnessSpeaker("nell")
	speakers := []Speaker{Judge, Prosecutor, Defense, w, Verdict}
	want := map[Speaker][]Speaker{
		Judge:      {Prosecutor, Defense, w, Verdict},
		Prosecutor: {Judge, Defense, w},
		Defense:    {Judge, Prosecutor, w},
		w:          {Judge, Prosecutor, Defense},
		Verdict:    nil,
	}
	for _, from := range speakers {
		for _, to := range speakers {
			if got := Allowed(from, to); got != slices.Contains(want[from], to) {
				t.Errorf("Allowed(%s, %s) = %v; want %v", from, to, got, !got)
			}
		}
	}
	if Allowed(w, v) {
		t.Errorf("Allowed(%s, %s) = true: a witness must not hand the floor to another", w, v)
	}
}

func TestGraphInvalid(t *testing.T) {
	g := NewGraph(fixture(t))
	tomas, nell, ghost := WitnessSpeaker("tomas"), WitnessSpeaker("nell"), WitnessSpeaker("ghost")
	tests := []struct {
		name     string
		from, to Speaker
	}{
		{"unknown witness", Prosecutor, ghost},
		{"from unknown witness", ghost, Judge},
		{"witness to witness", tomas, nell},
		{"witness to itself", tomas, tomas},
		{"judge twice", Judge, Judge},
		{"prosecutor twice", Prosecutor, Prosecutor},
		{"defense twice", Defense, Defense},
		{"verdict after prosecutor", Prosecutor, Verdict},
		{"verdict after defense", Defense, Verdict},
		{"verdict after witness", tomas, Verdict},
		{"nobody", Judge, "Bailiff"},
		{"from verdict", Verdict, Judge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if g.Allowed(tt.from, tt.to) {
				t.Errorf("Allowed(%s, %s) = true; want false", tt.from, tt.to)
			}
		})
	}
	if got, want := g.Next(Judge), []Speaker{Prosecutor, Defense, tomas, nell, Verdict}; !slices.Equal(got, want) {
		t.Errorf("Next(Judge) = %v; want %v", got, want)
	}
	if got, want := g.Next(tomas), []Speaker{Judge, Prosecutor, Defense}; !slices.Equal(got, want) {
		t.Errorf("Next(tomas) = %v; want %v", got, want)
	}
	if got := g.Name(nell); got != "Witness (Nell Okafor)" {
		t.Errorf("Name(nell) = %q", got)
	}
	if !slices.Equal(IntroductionOrder, []Speaker{Judge, Prosecutor, Defense}) {
		t.Errorf("IntroductionOrder = %v", IntroductionOrder)
	}
}

func TestParseTag(t *testing.T) {
	tests := []struct {
		in      string
		want    Speaker
		wantErr string
	}{
		{"<NextSpeaker: Judge>", Judge, ""},
		{"<NextSpeaker:Prosecutor>", Prosecutor, ""},
		{"  <nextspeaker :  defense >  ", Defense, ""},
		{"<Next Speaker: Verdict>", Verdict, ""},
		{"<Next_Speaker= Judge>", Judge, ""},
		{"The witness was asked. <NextSpeaker: Witness_tomas>", WitnessSpeaker("tomas"), ""},
		{"<NextSpeaker: witness_Tomas>", WitnessSpeaker("tomas"), ""},
		{"<NextSpeaker: Judge> <NextSpeaker: judge>", Judge, ""},
		{"", "", "no <NextSpeaker"},
		{"Judge", "", "no <NextSpeaker"},
		{"<NextSpeaker Judge>", "", "no <NextSpeaker"},
		{"NextSpeaker: Judge", "", "no <NextSpeaker"},
		{"<NextSpeaker: Judge", "", "no <NextSpeaker"},
		{"<NextSpeaker: The Judge>", "", "not a speaker"},
		{"<NextSpeaker: >", "", "not a speaker"},
		{"<NextSpeaker: Witness_>", "", "not a speaker"},
		{"<NextSpeaker: Witness (Tomas Brandt)>", "", "not a speaker"},
		{"<NextSpeaker: Witness_tomas brandt>", "", "not a speaker"},
		{"<NextSpeaker: Judge><NextSpeaker: Defense>", "", "different speakers"},
	}
	for _, tt := range tests {
		got, err := ParseTag(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseTag(%q) = %v, %v; want an error containing %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseTag(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func FuzzParseTag(f *testing.F) {
	for _, s := range []string{"<NextSpeaker: Judge>", "<nextspeaker:witness_a-1>", "<Next Speaker = Verdict> tail", "<<NextSpeaker: >>", "<NextSpeaker: Judge><NextSpeaker: Defense>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := ParseTag(s)
		if err != nil {
			return
		}
		if classOf(sp) == classNone {
			t.Fatalf("ParseTag(%q) = %q, not a speaker", s, sp)
		}
		// What ParseTag returns, written as a tag, reads back as itself.
		if again, err := ParseTag("<NextSpeaker: " + string(sp) + ">"); err != nil || again != sp {
			t.Fatalf("ParseTag(tag of %q) = %q, %v", sp, again, err)
		}
	})
}
