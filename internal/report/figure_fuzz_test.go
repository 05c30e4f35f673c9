package report

import (
	"strings"
	"testing"
)

// FuzzParseSize: any --figure-size either is refused or is a size Render accepts, which
// reads back from its String.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"3.5in,2.4in", "10cm, 50mm", "", "7in", "1e309in,2in", "-0in,1in", "0x10in,2in", "3.5in,2.4in,1in"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		s, err := ParseSize(v)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "--figure-size ") {
				t.Errorf("ParseSize(%q) error %q does not name the flag", v, err)
			}
			return
		}
		if err := s.check(); err != nil {
			t.Errorf("ParseSize(%q) = %v, which Render refuses: %v", v, s, err)
		}
		back, err := ParseSize(s.String())
		if err != nil || back != s {
			t.Errorf("ParseSize(%q) = %v; its String %q reads back as %v, %v", v, s, s.String(), back, err)
		}
	})
}

// FuzzParseFormats: any --figure-format value is refused or gives distinct valid formats.
func FuzzParseFormats(f *testing.F) {
	for _, s := range []string{"svg", "PDF,png", "svg,", "eps", " png , svg "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		fs, err := ParseFormats([]string{v})
		if err != nil {
			return
		}
		seen := map[Format]bool{}
		for _, g := range fs {
			if !g.valid() || seen[g] {
				t.Errorf("ParseFormats(%q) = %v", v, fs)
			}
			seen[g] = true
		}
	})
}
