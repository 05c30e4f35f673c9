package seduce

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDefaultTaxonomy(t *testing.T) {
	tax := DefaultTaxonomy()
	want := map[Category][]string{
		CategoryCombat:        {"Fighting", "Firearms", "Throw", "Dodge"},
		CategoryPhysical:      {"Climb", "Jump", "Swim", "Stealth"},
		CategoryProfessional:  {"First Aid", "Medicine", "Locksmith", "Mechanical Repair"},
		CategoryInvestigation: {"Spot Hidden", "Listen", "Library Use", "Track"},
	}
	if got := tax.Categories(); !slices.Equal(got, Categories) {
		t.Errorf("Categories() = %v; want %v", got, Categories)
	}
	if got := tax.Settings(); !slices.Equal(got, Settings) {
		t.Errorf("Settings() = %v; want %v", got, Settings)
	}
	for c, skills := range want {
		if got := tax.SkillsIn(c); !slices.Equal(got, skills) {
			t.Errorf("SkillsIn(%s) = %v; want %v", c, got, skills)
		}
	}
	if n := len(tax.Skills()); n != 16 {
		t.Errorf("len(Skills()) = %d; want 16", n)
	}
	if got := tax.CategoryName(CategoryInvestigation); got != "Investigation" {
		t.Errorf("CategoryName(INV) = %q; want Investigation", got)
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"Climb", "Climb", true},
		{"climb", "Climb", true},
		{"  SPOT   hidden ", "Spot Hidden", true},
		{"spot_hidden", "Spot Hidden", true},
		{"first-aid", "First Aid", true},
		{"Fighting (Brawl)", "Fighting", true},
		{"Fighting (Sword)", "Fighting", true},
		{"fighting(axe)", "Fighting", true},
		{"Brawl", "Fighting", true},
		{"Firearms (Handgun)", "Firearms", true},
		{"Firearms (Rifle/Shotgun)", "Firearms", true},
		{"Firearms (Bow)", "Firearms", true},
		{"Rifle / Shotgun", "Firearms", true},
		{"Handgun", "Firearms", true},
		{"Rifle", "Firearms", true},
		{"Shotgun", "Firearms", true},
		{"Bow", "Firearms", true},
		{"Crossbow", "Firearms", true},
		{"Spot", "Spot Hidden", true},
		{"Library", "Library Use", true},
		{"Mech Repair", "Mechanical Repair", true},
		{"Locksmithing", "Locksmith", true},
		{"Tracking", "Track", true},
		{"Swimming", "Swim", true},
		{"Climbing", "Climb", true},
		{"Jumping", "Jump", true},
		{"Listening", "Listen", true},
		{"Dodging", "Dodge", true},
		{"Throwing", "Throw", true},
		{"Climb (Hard)", "Climb", true},
		{"Persuade", "", false},
		{"Fast Talk (Lies)", "", false},
		{"", "", false},
		{"()", "", false},
	}
	tax := DefaultTaxonomy()
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := tax.Canonical(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Canonical(%q) = %q, %t; want %q, %t", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestCategoryOf(t *testing.T) {
	tax := DefaultTaxonomy()
	for in, want := range map[string]Category{"Handgun": CategoryCombat, "stealth": CategoryPhysical,
		"Mech Repair": CategoryProfessional, "Spot": CategoryInvestigation} {
		if got, ok := tax.CategoryOf(in); got != want || !ok {
			t.Errorf("CategoryOf(%q) = %q, %t; want %q, true", in, got, ok, want)
		}
	}
	if got, ok := tax.CategoryOf("Persuade"); ok {
		t.Errorf("CategoryOf(Persuade) = %q, true; want false", got)
	}
}

func TestLoadTaxonomy(t *testing.T) {
	const custom = `settings: [Dreamlands]
categories:
  - id: SOC
    name: Social
    skills: [Persuade, Fast Talk]
aliases:
  Fasttalk: Fast Talk
`
	path := filepath.Join(t.TempDir(), "tax.yaml")
	if err := os.WriteFile(path, []byte(custom), 0o644); err != nil {
		t.Fatal(err)
	}
	tax, err := LoadTaxonomy(path)
	if err != nil {
		t.Fatalf("LoadTaxonomy: %v", err)
	}
	if c, ok := tax.Canonical("fasttalk"); c != "Fast Talk" || !ok {
		t.Errorf("Canonical(fasttalk) = %q, %t; want Fast Talk, true", c, ok)
	}
	if _, ok := tax.Canonical("Climb"); ok {
		t.Errorf("Canonical(Climb) is known to a taxonomy without it")
	}
	if _, err := LoadTaxonomy(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Errorf("LoadTaxonomy(missing file) = nil error")
	}
}

func TestParseTaxonomyErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"no settings", "categories: [{id: A, skills: [X]}]", "settings: none listed"},
		{"no categories", "settings: [S]", "categories: none listed"},
		{"duplicate skill", "settings: [S]\ncategories: [{id: A, skills: [X]}, {id: B, skills: [x]}]", `skill "x" listed twice (also in A)`},
		{"alias to nothing", "settings: [S]\ncategories: [{id: A, skills: [X]}]\naliases: {Y: Z}", `"Y" points to "Z", which is not a skill`},
		{"alias repeats skill", "settings: [S]\ncategories: [{id: A, skills: [X]}]\naliases: {x: X}", `"x" is already a skill name`},
		{"parenthesised skill", "settings: [S]\ncategories: [{id: A, skills: [X (y)]}]", "may not hold parentheses"},
		{"unknown key", "settings: [S]\ncategories: [{id: A, skills: [X]}]\nskils: []", "skils"},
		{"not yaml", "settings: [", "taxonomy t.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseTaxonomy([]byte(tt.yaml), "t.yaml")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseTaxonomy(%q) error = %v; want it to contain %q", tt.yaml, err, tt.want)
			}
		})
	}
}

// TestNormASCII: the one-pass key of an ASCII name is normUnicode's, on names built from
// the bytes that matter (spaces of every kind, dashes, underscores, slashes, capitals).
func TestNormASCII(t *testing.T) {
	names := append([]string{"", " ", "Spot Hidden", "spot hidden", "  Library--Use ", "Fighting (Brawl)", "a / b", "a / / b", "/ a", "a /", "-", "Drive_Auto"},
		randomStrings(29, "aZ /-_\t\v\n(x)", 12)...)
	for _, n := range names {
		got, ok := normASCII(n)
		if want := normUnicode(n); !ok || got != want {
			t.Fatalf("normASCII(%q) = %q, %v; normUnicode gives %q", n, got, ok, want)
		}
	}
	if _, ok := normASCII("Médecine"); ok {
		t.Error("normASCII took a name with a non-ASCII letter")
	}
	if got := normSkill("MÉDECINE  légale"); got != "médecine légale" {
		t.Errorf("normSkill(non-ASCII) = %q", got)
	}
}

// TestFamilyMatchesRegexp: family splits a key as the specialisation pattern does.
func TestFamilyMatchesRegexp(t *testing.T) {
	keys := append([]string{"firearms (handgun)", "firearms(handgun)", "(x)", "a(x)", "((x))", "a ((b)", "fighting (axe) (two)", "()", "a ()"},
		randomStrings(26, "ab ()", 9)...)
	for _, k := range keys {
		got, ok := family(k)
		m := specialisation.FindStringSubmatch(k)
		if ok != (m != nil) || ok && got != m[1] {
			t.Fatalf("family(%q) = %q, %v; the pattern gives %q", k, got, ok, m)
		}
	}
}

// randomStrings is 20,000 strings of fewer than maxLen bytes of alphabet, the same for a
// seed every time.
func randomStrings(seed uint64, alphabet string, maxLen int) []string {
	rng := rand.New(rand.NewPCG(seed, seed))
	out := make([]string, 20000)
	for n := range out {
		b := make([]byte, rng.IntN(maxLen))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		out[n] = string(b)
	}
	return out
}
