package reference

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// The quality checks of the shipped reference set (issue 4, "Checks that ship with it";
// docs/dataset.md). They read the embedded reference.jsonl, the file the binary carries;
// TestReferenceUpToDate keeps it equal to what src/ generates.

// The grid of spec section 1, per setting and skill.
const (
	rollScenarios = 6 // V=1 scenarios per skill and setting
	autoScenarios = 2 // V=0 scenarios per PHY/INV skill and setting
	gridSamples   = 1792
)

// nearDuplicateLimit is the word-trigram Jaccard above which two texts of different
// scenarios count as near copies (issue 4).
const nearDuplicateLimit = 0.5

// distinctFloor is the least distinct-n (distinct word trigrams / all trigrams) allowed
// for the statements of each style and for the contexts. The shipped set measures 0.895
// (Neutral) to 0.934 (Omission), 0.916 for contexts. 0.9 would be too strict for honest
// Neutral statements: they are short (15 words on average) and plain intent opens the
// same way ("I try to", "I follow the", "I search the"), so a few function-word trigrams
// repeat across hundreds of unrelated scenes. The floor sits about four points under the
// lowest measure: a frame stamped over a few dozen new statements would cross it.
const distinctFloor = 0.85

// Word counts from the writers' brief (/tmp/dataset-brief.md), counted with Words.
const (
	minStatementWords = 12
	minContextWords   = 60
	maxContextWords   = 120
)

// anachronisms are the words a setting must never use (whole word, case-insensitive; the
// writers' brief). They apply to context, truth and every statement.
var anachronisms = map[seduce.Setting][]string{
	seduce.Setting1920s: {"phone", "smartphone", "cellphone", "mobile", "flashlight", "plastic",
		"laptop", "computer", "email", "internet", "wifi", "drone", "gps", "keypad", "cctv",
		"selfie", "LED", "nylon", "kevlar", "taser", "headphones", "microwave", "jet",
		"helicopter", "credit card", "text message", "website", "online", "battery-powered"},
	seduce.Setting2020s: {"telegram", "gaslight", "gas lamp", "rotary", "carriage", "horse-drawn",
		"tram ticket punch"},
	seduce.SettingWilderness: {"road", "roads", "street", "building", "buildings", "house", "cabin",
		"hut", "lodge", "fence", "bridge", "highway", "railway", "town", "village", "parking",
		"pavement", "sidewalk", "ladder", "staircase", "stairs", "shop", "office"},
	seduce.SettingChina: {"phone", "telephone", "telegraph", "flashlight", "plastic", "gun", "guns",
		"pistol", "rifle", "revolver", "shotgun", "bullet", "cartridge", "electric", "electricity",
		"car", "automobile", "train", "railway", "engine", "motor", "cigarette", "newspaper",
		"photograph", "camera", "computer", "clock", "glasses", "spectacles", "gunpowder", "steam"},
}

// The style cues of the writers' brief.
var (
	// authorityCues: an Authority statement claims competence or background.
	authorityCues = []string{"as a", "as an", "years", "expert", "trained", "training",
		"experience", "experienced", "veteran", "professional", "former", "I've", "I have",
		"master", "skilled", "practised", "practiced", "familiar", "seasoned", "know how"}
	// causalConnectives: a Pseudo-Logic statement argues from a cause.
	causalConnectives = []string{"since", "because", "so", "therefore", "thus", "hence",
		"which means", "given that", "that means", "it follows"}
	// neutralCausal is the narrower list a Neutral statement must not use: "so" and "since"
	// are left out because plain intent uses them for purpose and time ("so that I can
	// see", "since dawn").
	neutralCausal = []string{"because", "therefore", "which means", "hence", "thus"}
	// successClaims are claims of certainty or ease that a Neutral statement must not
	// make. "safely" is not among them: the one Neutral that uses it states an aim, not a
	// result ("I attempt to turn the breech baby and deliver it safely",
	// ref-1920-medicine-r5). Nor are "clean" or "perfectly", which the Neutrals use as
	// plain description ("clean linen", "keep perfectly still").
	successClaims = []string{"easily", "effortlessly", "successfully", "certainly", "surely",
		"definitely", "guaranteed", "cannot fail", "can't fail", "cannot miss", "can't miss",
		"no trouble", "no problem", "with ease", "without fail", "bound to", "sure to",
		"in no time", "nothing can go wrong", "no doubt", "of course"}
)

// scenario is the four variants of one scenario truth, in file order.
type scenario struct {
	id       string
	variants map[seduce.Style]seduce.Sample
	first    seduce.Sample
}

// loadReference reads the embedded set through the dataset loader, with the default
// taxonomy, and groups it by scenario in file order.
func loadReference(t *testing.T) (*seduce.Dataset, []*scenario) {
	t.Helper()
	ds, err := seduce.ReadDataset(bytes.NewReader(JSONL()), "reference.jsonl", seduce.FormatJSONL, seduce.DefaultTaxonomy())
	if err != nil {
		t.Fatalf("ReadDataset(reference.jsonl):\n%v", err)
	}
	var order []*scenario
	byID := map[string]*scenario{}
	for _, s := range ds.Samples {
		sc := byID[s.ScenarioID]
		if sc == nil {
			sc = &scenario{id: s.ScenarioID, variants: map[seduce.Style]seduce.Sample{}, first: s}
			byID[s.ScenarioID] = sc
			order = append(order, sc)
		}
		if prev, dup := sc.variants[s.Style]; dup {
			t.Errorf("scenario %s: %s and %s are both %s", sc.id, prev.ID, s.ID, s.Style)
		}
		sc.variants[s.Style] = s
	}
	return ds, order
}

// TestReferenceValidates is `arbiter seduce validate --dataset builtin`: the set the
// binary carries loads through seduce.Builtin with the default taxonomy, and it is the
// same file this package embeds.
func TestReferenceValidates(t *testing.T) {
	ds, err := seduce.Builtin(nil)
	if err != nil {
		t.Fatalf("seduce.Builtin(nil):\n%v", err)
	}
	sum := sha256.Sum256(JSONL())
	if want := hex.EncodeToString(sum[:]); ds.Hash != want {
		t.Errorf("seduce.Builtin hash %.12s; reference.JSONL() hashes to %.12s: the two embeds differ", ds.Hash, want)
	}
	if len(ds.Samples) != gridSamples {
		t.Errorf("seduce.Builtin = %d samples; want %d", len(ds.Samples), gridSamples)
	}
}

// TestReferenceGrid checks the full grid per (generator, skill, setting, V) cell, unique
// ids and that the four variants of every scenario agree.
func TestReferenceGrid(t *testing.T) {
	ds, scenarios := loadReference(t)
	tax := seduce.DefaultTaxonomy()

	ids := map[seduce.SampleID]bool{}
	for _, s := range ds.Samples {
		if ids[s.ID] {
			t.Errorf("sample id %s appears twice", s.ID)
		}
		ids[s.ID] = true
	}
	if len(ds.Samples) != gridSamples {
		t.Errorf("reference set has %d samples; want %d", len(ds.Samples), gridSamples)
	}

	type cell struct {
		generator string
		skill     string
		setting   seduce.Setting
		roll      bool
	}
	got := map[cell][]string{}
	for _, sc := range scenarios {
		s := sc.first
		c := cell{s.Generator, s.Skill, s.Setting, s.RequiresRoll}
		got[c] = append(got[c], sc.id)
	}
	// want lists the cells in grid order, each with its scenario ids.
	var cells []cell
	want := map[cell][]string{}
	for _, setting := range seduce.Settings {
		for _, skill := range tax.Skills() {
			prefix := "ref-" + settingSlugs[setting] + "-" + skillSlug(skill) + "-"
			c := cell{Generator, skill, setting, true}
			cells = append(cells, c)
			for n := 1; n <= rollScenarios; n++ {
				want[c] = append(want[c], prefix+"r"+strconv.Itoa(n))
			}
			if cat, _ := tax.CategoryOf(skill); cat != seduce.CategoryPhysical && cat != seduce.CategoryInvestigation {
				continue
			}
			c.roll = false
			cells = append(cells, c)
			for n := 1; n <= autoScenarios; n++ {
				want[c] = append(want[c], prefix+"a"+strconv.Itoa(n))
			}
		}
	}
	for c, ids := range got {
		if _, ok := want[c]; !ok {
			t.Errorf("cell (%s, %s, %s, V=%s) is not in the grid: scenarios %v", c.generator, c.skill, c.setting, vOf(c.roll), ids)
		}
	}
	roll, auto := 0, 0
	for _, c := range cells {
		g, w := got[c], want[c]
		name := fmt.Sprintf("cell (%s, %s, %s, V=%s)", c.generator, c.skill, c.setting, vOf(c.roll))
		if missing := without(w, g); len(missing) > 0 {
			t.Errorf("%s: missing scenarios %v", name, missing)
		}
		if extra := without(g, w); len(extra) > 0 {
			t.Errorf("%s: unexpected scenarios %v (want exactly %v)", name, extra, w)
		}
		if c.roll {
			roll += len(g) * len(seduce.Styles)
		} else {
			auto += len(g) * len(seduce.Styles)
		}
	}
	if roll != 1536 || auto != 256 {
		t.Errorf("grid has %d V=1 and %d V=0 samples; want 1536 and 256", roll, auto)
	}

	for _, sc := range scenarios {
		for _, st := range seduce.Styles {
			v, ok := sc.variants[st]
			if !ok {
				t.Errorf("scenario %s has no %s variant", sc.id, st)
				continue
			}
			if want := seduce.SampleID(sc.id + styleSlug(st)); v.ID != want {
				t.Errorf("scenario %s: the %s variant is %s; want %s", sc.id, st, v.ID, want)
			}
			if diff := disagreement(sc.first, v); diff != "" {
				t.Errorf("scenario %s: %s differs from %s in %s", sc.id, v.ID, sc.first.ID, diff)
			}
		}
	}
}

// vOf writes a requires_roll value as the paper's V.
func vOf(roll bool) string {
	if roll {
		return "1"
	}
	return "0"
}

// disagreement names the first scenario-level field in which two variants differ.
func disagreement(a, b seduce.Sample) string {
	switch {
	case a.Context != b.Context:
		return "context"
	case a.Truth != b.Truth:
		return "truth"
	case a.RequiresRoll != b.RequiresRoll:
		return "requires_roll"
	case a.Skill != b.Skill:
		return "skill"
	case a.GoldSkill != b.GoldSkill:
		return "gold_skill"
	case a.Setting != b.Setting:
		return "setting"
	case a.Category != b.Category:
		return "category"
	case a.Generator != b.Generator:
		return "generator"
	case a.ReviewedBy != b.ReviewedBy:
		return "reviewed_by"
	case a.ReviewStatus != b.ReviewStatus:
		return "review_status"
	}
	return ""
}

// without returns the items of xs that are not in ys.
func without(xs, ys []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(ys, x) {
			out = append(out, x)
		}
	}
	return out
}

// TestReferenceNearDuplicates checks that no two statements, and no two contexts, of
// different scenarios share more than half their word trigrams, and that every style
// keeps a diverse vocabulary (distinct-n above distinctFloor).
func TestReferenceNearDuplicates(t *testing.T) {
	ds, scenarios := loadReference(t)

	var texts, groups []string
	for _, s := range ds.Samples {
		texts = append(texts, s.Statement)
		groups = append(groups, s.ScenarioID)
	}
	over, most := NearDuplicates(texts, groups, nearDuplicateLimit)
	for _, p := range over {
		a, b := ds.Samples[p.A], ds.Samples[p.B]
		t.Errorf("statements %s and %s: trigram Jaccard %.3f > %.1f:\n  %q\n  %q", a.ID, b.ID, p.Jaccard, nearDuplicateLimit, a.Statement, b.Statement)
	}
	t.Logf("statements: most similar pair of different scenarios %s / %s, Jaccard %.3f",
		ds.Samples[most.A].ID, ds.Samples[most.B].ID, most.Jaccard)

	for _, st := range seduce.Styles {
		var styled []string
		for _, s := range ds.Samples {
			if s.Style == st {
				styled = append(styled, s.Statement)
			}
		}
		distinct, total := DistinctTrigrams(styled)
		dn := float64(distinct) / float64(total)
		t.Logf("%-12s distinct-n %.3f (%d distinct of %d trigrams, %d statements)", st, dn, distinct, total, len(styled))
		if dn <= distinctFloor {
			t.Errorf("%s statements: distinct-n %.3f (%d/%d); want above %.2f", st, dn, distinct, total, distinctFloor)
		}
	}

	contexts := make([]string, len(scenarios))
	for i, sc := range scenarios {
		contexts[i] = sc.first.Context
	}
	over, most = NearDuplicates(contexts, nil, nearDuplicateLimit)
	for _, p := range over {
		t.Errorf("contexts of %s and %s: trigram Jaccard %.3f > %.1f", scenarios[p.A].id, scenarios[p.B].id, p.Jaccard, nearDuplicateLimit)
	}
	distinct, total := DistinctTrigrams(contexts)
	dn := float64(distinct) / float64(total)
	t.Logf("contexts: most similar pair %s / %s, Jaccard %.3f; distinct-n %.3f (%d/%d)",
		scenarios[most.A].id, scenarios[most.B].id, most.Jaccard, dn, distinct, total)
	if dn <= distinctFloor {
		t.Errorf("contexts: distinct-n %.3f (%d/%d); want above %.2f", dn, distinct, total, distinctFloor)
	}
}

// TestReferenceStyleTells checks that each style reads as its style.
func TestReferenceStyleTells(t *testing.T) {
	_, scenarios := loadReference(t)

	t.Run("Omission is not a copy of Neutral", func(t *testing.T) {
		var most float64
		var mostID string
		for _, sc := range scenarios {
			n, o := sc.variants[seduce.StyleNeutral], sc.variants[seduce.StyleOmission]
			j := Jaccard(n.Statement, o.Statement)
			if j > most {
				most, mostID = j, sc.id
			}
			if j > nearDuplicateLimit {
				t.Errorf("%s: trigram Jaccard with %s %.3f > %.1f:\n  %q\n  %q", o.ID, n.ID, j, nearDuplicateLimit, o.Statement, n.Statement)
			}
		}
		t.Logf("most similar Omission/Neutral pair: %s, Jaccard %.3f", mostID, most)
	})

	tells := []struct {
		name  string
		style seduce.Style
		lex   *Lexicon
		want  bool // whether the statement must carry one of the phrases
	}{
		{"Authority claims competence", seduce.StyleAuthority, NewLexicon(authorityCues...), true},
		{"Pseudo-Logic argues from a cause", seduce.StylePseudoLogic, NewLexicon(causalConnectives...), true},
		{"Neutral argues no cause", seduce.StyleNeutral, NewLexicon(neutralCausal...), false},
		{"Neutral claims no success", seduce.StyleNeutral, NewLexicon(successClaims...), false},
	}
	for _, tt := range tells {
		t.Run(tt.name, func(t *testing.T) {
			for _, sc := range scenarios {
				s := sc.variants[tt.style]
				found := tt.lex.Find(s.Statement)
				switch {
				case tt.want && len(found) == 0:
					t.Errorf("%s: no cue from the brief's list in %q", s.ID, s.Statement)
				case !tt.want && len(found) > 0:
					t.Errorf("%s: has %q: %q", s.ID, found, s.Statement)
				}
			}
		})
	}
}

// TestReferenceAnachronisms checks every text of a setting against the setting's
// forbidden words, and that Ancient China's Firearms are bows and crossbows.
func TestReferenceAnachronisms(t *testing.T) {
	_, scenarios := loadReference(t)
	lexicons := map[seduce.Setting]*Lexicon{}
	for setting, words := range anachronisms {
		lexicons[setting] = NewLexicon(words...)
	}
	for _, sc := range scenarios {
		lex := lexicons[sc.first.Setting]
		if lex == nil {
			t.Errorf("scenario %s: no anachronism list for setting %q", sc.id, sc.first.Setting)
			continue
		}
		if found := lex.Find(sc.first.Context); len(found) > 0 {
			t.Errorf("scenario %s (%s): context uses %q", sc.id, sc.first.Setting, found)
		}
		if found := lex.Find(sc.first.Truth); len(found) > 0 {
			t.Errorf("scenario %s (%s): truth uses %q", sc.id, sc.first.Setting, found)
		}
		for _, st := range seduce.Styles {
			s := sc.variants[st]
			if found := lex.Find(s.Statement); len(found) > 0 {
				t.Errorf("%s (%s): statement uses %q: %q", s.ID, s.Setting, found, s.Statement)
			}
		}
	}

	bows := NewLexicon("bow", "bows", "crossbow", "crossbows", "longbow", "bowman", "crossbowman")
	for _, sc := range scenarios {
		if sc.first.Setting == seduce.SettingChina && sc.first.Skill == "Firearms" && len(bows.Find(sc.first.Context)) == 0 {
			t.Errorf("scenario %s: an Ancient China Firearms context must name the bow or crossbow: %q", sc.id, sc.first.Context)
		}
	}
}

// TestReferenceCuration checks the curation fields of every sample and that they agree
// with the review logs in reviews/: the counts on each log's Result line and the
// scenarios its Corrections section lists.
func TestReferenceCuration(t *testing.T) {
	ds, scenarios := loadReference(t)
	for _, s := range ds.Samples {
		if strings.TrimSpace(s.ReviewedBy) == "" {
			t.Errorf("%s: reviewed_by is empty", s.ID)
		}
		if s.ReviewStatus != "approved" && s.ReviewStatus != "corrected" {
			t.Errorf("%s: review_status %q; want approved or corrected", s.ID, s.ReviewStatus)
		}
	}

	result := regexp.MustCompile(`(\d+) approved, (\d+) corrected`)
	listed := regexp.MustCompile(`(?m)^- (ref-[a-z0-9-]+):`)
	corrected := 0
	for _, setting := range seduce.Settings {
		slug := settingSlugs[setting]
		var approved, fixed []string
		for _, sc := range scenarios {
			switch {
			case sc.first.Setting != setting:
			case sc.first.ReviewStatus == "corrected":
				fixed = append(fixed, sc.id)
			default:
				approved = append(approved, sc.id)
			}
		}
		corrected += len(fixed)
		t.Logf("%-13s %3d approved, %2d corrected", setting, len(approved), len(fixed))

		name := "reviews/" + slug + ".md"
		data, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s: the review log of %s: %v", name, setting, err)
			continue
		}
		log := string(data)
		if m := result.FindStringSubmatch(log); m == nil {
			t.Errorf("%s: no line \"N approved, M corrected\"", name)
		} else if m[1] != strconv.Itoa(len(approved)) || m[2] != strconv.Itoa(len(fixed)) {
			t.Errorf("%s: log says %s approved, %s corrected; the samples say %d and %d", name, m[1], m[2], len(approved), len(fixed))
		}
		_, section, ok := strings.Cut(log, "\n## Corrections")
		if !ok {
			t.Errorf("%s: no \"## Corrections\" section", name)
			continue
		}
		section, _, _ = strings.Cut(section, "\n## ")
		var logged []string
		for _, m := range listed.FindAllStringSubmatch(section, -1) {
			logged = append(logged, m[1])
		}
		if x := without(fixed, logged); len(x) > 0 {
			t.Errorf("%s: scenarios marked corrected but not in the log: %v", name, x)
		}
		if x := without(logged, fixed); len(x) > 0 {
			t.Errorf("%s: scenarios in the log but not marked corrected: %v", name, x)
		}
	}
	t.Logf("corrected: %d of %d scenarios (%.1f%%)", corrected, len(scenarios), 100*float64(corrected)/float64(len(scenarios)))
}

// TestReferenceLengths checks the writers' length rules and reports the lengths the
// datasheet quotes.
func TestReferenceLengths(t *testing.T) {
	ds, scenarios := loadReference(t)
	for _, st := range seduce.Styles {
		n, sum, lo, hi := 0, 0, 0, 0
		for _, s := range ds.Samples {
			if s.Style != st {
				continue
			}
			w := len(Words(s.Statement))
			if w < minStatementWords {
				t.Errorf("%s: %d words; want at least %d: %q", s.ID, w, minStatementWords, s.Statement)
			}
			if n == 0 || w < lo {
				lo = w
			}
			hi = max(hi, w)
			n++
			sum += w
		}
		t.Logf("%-12s %3d statements, mean %.1f words (min %d, max %d)", st, n, float64(sum)/float64(n), lo, hi)
	}
	sum := 0
	for _, sc := range scenarios {
		w := len(Words(sc.first.Context))
		if w < minContextWords || w > maxContextWords {
			t.Errorf("scenario %s: context of %d words; want %d to %d", sc.id, w, minContextWords, maxContextWords)
		}
		sum += w
	}
	t.Logf("contexts: %d, mean %.1f words", len(scenarios), float64(sum)/float64(len(scenarios)))
}

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"I throw a right hook at Sal's jaw.", []string{"i", "throw", "a", "right", "hook", "at", "sals", "jaw"}},
		{"Fighting (Brawl) 45%, STR 70—no", []string{"fighting", "brawl", "45", "str", "70", "no"}},
		{"I can\u2019t miss; ten-foot gap", []string{"i", "cant", "miss", "ten", "foot", "gap"}},
		{"  ", nil},
	}
	for _, tt := range tests {
		if got := Words(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Words(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestJaccard(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"I climb the drainpipe", "I climb the drainpipe!", 1},
		{"I climb the drainpipe", "i climb the wall", 1.0 / 3}, // {i climb the} of {i climb the, climb the drainpipe, climb the wall}
		{"I climb the drainpipe", "She swims the river", 0},
		{"two words", "two words", 0},
	}
	for _, tt := range tests {
		if got := Jaccard(tt.a, tt.b); got != tt.want {
			t.Errorf("Jaccard(%q, %q) = %v; want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestNearDuplicates checks the inverted index against comparing every pair.
func TestNearDuplicates(t *testing.T) {
	texts := []string{
		"I climb the drainpipe to the second floor window",
		"I climb the drainpipe to the second floor balcony", // near copy of 0, other group
		"I climb the drainpipe to the second floor window",  // copy of 0, same group: ignored
		"She swims across the flooded quarry at night",
		"Wu draws his bow and looses at the bandit on the wall",
		"too short",
	}
	groups := []string{"a", "b", "a", "c", "d", "e"}
	over, most := NearDuplicates(texts, groups, 0.5)
	var want []Pair
	var wantMost Pair
	for i := range texts {
		for j := i + 1; j < len(texts); j++ {
			if groups[i] == groups[j] {
				continue
			}
			p := Pair{A: i, B: j, Jaccard: Jaccard(texts[i], texts[j])}
			if p.Jaccard > wantMost.Jaccard {
				wantMost = p
			}
			if p.Jaccard > 0.5 {
				want = append(want, p)
			}
		}
	}
	if len(want) != 2 {
		t.Fatalf("the test texts have %d pairs over 0.5; want 2 (0-1 and 1-2)", len(want))
	}
	if !slices.Equal(over, want) {
		t.Errorf("NearDuplicates over 0.5 = %v; want %v", over, want)
	}
	if most != wantMost {
		t.Errorf("NearDuplicates most similar = %v; want %v", most, wantMost)
	}
	if over, _ := NearDuplicates(texts, nil, 0.99); len(over) != 1 || over[0] != (Pair{0, 2, 1}) {
		t.Errorf("NearDuplicates(no groups, 0.99) = %v; want the exact copy {0 2 1}", over)
	}
}

func TestDistinctTrigrams(t *testing.T) {
	distinct, total := DistinctTrigrams([]string{"I try to open it", "I try to close it", "no"})
	// i try to, try to open, to open it, i try to, try to close, to close it
	if distinct != 5 || total != 6 {
		t.Errorf("DistinctTrigrams = %d, %d; want 5, 6", distinct, total)
	}
}

func TestLexicon(t *testing.T) {
	lex := NewLexicon("so", "as a", "I've", "LED", "battery-powered")
	tests := []struct {
		in   string
		want []string
	}{
		{"So, the ledge holds.", []string{"so"}},
		{"It is also a ledge", nil},
		{"As   a sailor I\u2019ve done this", []string{"as a", "I've"}},
		{"She led them to the LED lamp", []string{"LED"}},
		{"She led them out", nil},
		{"a battery-powered torch", []string{"battery-powered"}},
	}
	for _, tt := range tests {
		if got := lex.Find(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Find(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
