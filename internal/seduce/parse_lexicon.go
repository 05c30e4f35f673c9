package seduce

import (
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Lexicons: the words the parser reads in languages other than English, and the
// refusal, self-correction and "cannot tell" phrases of every language, kept as data.
// Each embedded file lexicon/<language>.json has the fields below, every one a list of
// lowercase phrases matched as whole words, except skills, which maps a skill's name in
// that language to the taxonomy's name. A user adds a language or more phrases by
// writing a file of the same shape and passing it to `arbiter seduce parse --lexicon
// FILE`; its phrases are added to the built-in ones.
//
//	roll          phrases that call for a roll ("faites un jet", "probe auf")
//	pass          phrases that rule an automatic success or deny a roll ("pas besoin de jet")
//	negation      words that, within three words before a roll phrase, deny it ("kein")
//	without       the negation words that mean "without" ("sans", "ohne") and the verbs of
//	              skipping ("sauter", "verzichten"): a roll denied by one, or a pass
//	              phrase holding one, is a roll when another negation stands in the
//	              clause ("ohne Probe kommst du nicht rüber", "keinen Grund, auf die
//	              Probe zu verzichten")
//	ignore        phrases that are no part of a ruling and are set aside before a clause
//	              is read, such as a courtesy holding a condition word ("s'il te plaît")
//	condition     words that leave a clause's ruling open ("si", "falls")
//	hedge         words that make a clause unsure ("peut-être")
//	correction    words of a self-correction ("en fait"): a reply that rules both ways
//	              and holds one is a contradiction, not a roll for part of the action
//	refusal       phrases that decline the task, looked for at the start of a reply
//	undetermined  phrases that say the ruling cannot be told: the reply is unparsed
//	decline       first-person phrases of declining or abstaining ("i won't", "je
//	              refuse de", "prefiero no"): with a task or choice word after them in
//	              the clause (or a task word just before), a reply that rules nothing
//	              is refused ("I'd rather not adjudicate this scene")
//	unable        first-person phrases of being unable ("i can't"): likewise, but only
//	              with a task word, since "I can't decide" is indecision, not a refusal
//	task          what a refusal declines: the ruling, adjudicating, the role, the
//	              scene, the request ("adjudicate", "the keeper", "arbitrer")
//	choice        the ruling as a choice ("decide", "the call"), declined only by a
//	              decline phrase
//	contrast      roll phrases that grant a roll against a pass just denied ("pero sí",
//	              "aber schon"): the pass before is about another part of the action,
//	              and no negation before the phrase denies it
//	but           words that set what follows against what comes before ("aber", "mais"):
//	              a pass before one is about another part than a roll after it
//	neither       "neither nor" as two words ("weder noch"): two skills named in it are
//	              a pass ("Weder Klettern noch Springen")
//	rollverb      verbs of rolling that are a roll only with a skill's name right after
//	              them ("lanza Medicina", "role Furtividade"): alone they are other words
//	heads         the words a ruling is made of ("jet", "Probe", "tirada", "automatique"):
//	              a clause that holds one and that no rule read leaves a prose ruling
//	              beside it unexplained, and the reply unparsed (the precision gate)
//	stall         phrases that make a decline wait on something ("until", "without
//	              knowing"): asking for more is not a refusal
//	open          phrases that leave the whole reply's ruling open ("either way", "your
//	              call", "I'd lean"): a reply that rules and says one is unparsed
//	quantifier    negative quantifiers ("ninguna", "nessuna", "geen"): one that opens a
//	              clause as its subject denies the roll the clause calls for, however
//	              many words its subject holds ("Ninguna parte de esto requiere dados")
//	player        the player or the investigator as a subject ("le joueur", "el jugador")
//	reported      verbs of saying or wanting ("dit", "quiere", "meint"): a ruling after
//	              the player and one of them, with no comma between, is the player's
//	              claim or wish, not the reply's ruling ("El jugador quiere pasar sin tirar")
//	wrong         predicates that judge the ruling before them wrong ("ne serait pas
//	              juste", "sería excesivo", "wäre übertrieben"): the ruling so judged is
//	              denied ("Une réussite automatique ne serait pas juste" rules a roll)
//	compound      roll words that end a compound noun whose first part is a skill's
//	              stem ("probe", "wurf"): "Kletterprobe" is a Climb roll
//	succeed       verbs of passing or failing a roll ("réussis", "gelingt", "superas"): a
//	              condition whose body passes a roll ("si tu réussis un jet de Discrétion")
//	              calls for that roll rather than leaving the ruling open
//	otherwise     words that open the other branch of a condition ("otherwise", "sinon",
//	              "sonst"): after a ruling left open on a condition, the ruling of the
//	              clause they open is open too
//	narration     phrases that tell the player's action done with no roll ("swings open",
//	              "waves you through", "up you go"): a reply that holds one and no word
//	              of a ruling, a question, a negation, a condition, a hedge, a failure
//	              or a roll's result is a pass (parse_narration.go)
//	others        other tables as a subject ("manche Spielleiter", "algunos guardianes",
//	              "certains gardiens"): a ruling after one in its clause, with no comma
//	              between, is what another table would rule, not the reply's ruling
//	conclusion    words that open a reply's conclusion ("also:", "donc", "en resumen",
//	              "kortom"): in a long reply whose rulings disagree, the words from one
//	              that opens a sentence to the end, ruling firmly alone, are its verdict
//	              (parse_verdict.go)
//	defer         frames that hand the ruling to someone else, with {} where that one
//	              stands ("ask {}", "for {} to decide", "sache {}", "c'est à {} de"):
//	              with a deferee in its place, a reply that rules nothing is refused
//	              (parse_refusal9.go)
//	deferee       whom a ruling is handed to, as a frame's place holds it: the Keeper,
//	              the table, the group ("your keeper", "eurer spielleitung", "ton gardien")
//	grant         predicates that grant a ruling as acceptable too ("wouldn't be crazy
//	              either", "wäre auch vertretbar", "serait aussi défendable"): a clause
//	              that grants the other ruling after the reply's ruling leaves the reply
//	              unparsed (parse_precision9.go)
//	grantopen     words that open a grant's clause in its sentence ("but", "aber",
//	              "bien que"): the words before them are the ruling it concedes against
//	grantturn     words that, after a grant in its sentence, turn back from it ("still",
//	              "trotzdem", "quand même")
//	additive      words that grant a ruling as one more choice ("also", "ebenso", "aussi")
//	otherway      words for the other ruling, unnamed ("otherwise", "anders", "l'inverse")
//	skip          words that lean to no roll: the roll skipped, waived or let through
//	              ("waive", "durchwinken", "laisser passer")
//	concessive    conjunctions that concede ("although", "obwohl", "aunque"), read with
//	              the but list
//	branch        words that open a branch on the state of the world ("if", "when",
//	              "without", "wenn", "sinon"): two heads of a list or table opening with
//	              them, a roll under one and no roll under the other, leave it open
//	oroffer       an "or" offering another ruling after one ("or maybe", "oder doch",
//	              "ou plutôt"): with nothing firm after it, a flip-flop
//	doubt         words that unsettle what follows an or-offer ("maybe", "eher", "plutôt")
//	implicative   stems of verbs whose negation affirms ("hesit", "zöger", "dud"): "I won't
//	              hesitate to ask for a roll" asks for one
//	whether       words that open an indirect question ("whether", "ob", "si"): "ask your
//	              Keeper whether …" hands over the question itself
//	depend        words that make a ruling depend on something ("depend", "hängt von",
//	              "dipende"): a reply saying so hands nothing over
//	rolljoin      a roll's word and the preposition before its skill's name ("jet de",
//	              "probe auf", "tiro di")
//	diceverb      skill names that are also the language's verb of throwing dice
//	              ("lancer", "werfen"): in lowercase, and not after a rolljoin, they
//	              name no skill

//go:embed lexicon/*.json
var lexiconFiles embed.FS

// Lexicon is the merged phrase lists of one or more lexicon files.
type Lexicon struct {
	Languages    []string
	roll, pass   []string
	negation     []string
	without      []string
	ignore       []string
	condition    []string
	hedge        []string
	correction   []string
	refusal      []string
	undetermined []string
	open         []string
	decline      []string
	unable       []string
	task         []string
	choice       []string
	stall        []string
	contrast     []string
	but          []string
	neither      []string
	rollVerb     []string
	otherwise    []string
	quantifier   []string
	player       []string
	reported     []string
	wrong        []string
	compound     []string
	succeed      []string
	heads        []string
	narration    []string
	conclusion   []string
	others       []string
	deferTo      []string
	deferee      []string
	grant        []string
	grantOpen    []string
	grantTurn    []string
	additive     []string
	otherWay     []string
	skip         []string
	concessive   []string
	branch       []string
	orOffer      []string
	doubt        []string
	implicative  []string
	whether      []string
	depend       []string
	rollJoin     []string
	diceVerb     map[string]bool
	skills       []string          // skill phrases, longest first
	skillOf      map[string]string // phrase → skill name as written in the file
	// anchors are the distinct longest words of the roll and pass phrases, and
	// anchorOf a phrase's: a clause without a phrase's anchor cannot hold the phrase, so
	// one look for each anchor spares looking for every phrase.
	anchors  []string
	anchorOf map[string]int
	// extra are the texts of the files added to the built-in lexicons, which a run
	// records so that every machine reads its replies with them.
	extra [][]byte
	// openIdx, refusalIdx, undeterminedIdx and correctionIdx index the lists that are
	// searched in a whole reply.
	openIdx, refusalIdx, undeterminedIdx, correctionIdx *phraseIndex
	// headIdx indexes heads, looked for in the clauses no rule read.
	headIdx *phraseIndex
	// defereeIdx indexes deferees, looked for in a reply that rules nothing.
	defereeIdx *phraseIndex
	// grantIdx indexes grant, with each apostrophe also written curly.
	grantIdx *phraseIndex
	// orOfferIdx indexes oroffer, searched in whole replies.
	orOfferIdx *phraseIndex
	// phraseWords are the words of the roll, pass, negation, but and heads lists, which
	// say nothing of what a ruling is about.
	phraseWords map[string]bool
	// anchorWord maps an anchor made of letters only to its index; oddAnchors are the
	// other anchors ("-probe", "d'incertain").
	anchorWord map[string]int
	oddAnchors []int
}

type lexiconFile struct {
	Language     string            `json:"language"`
	Comment      string            `json:"comment"`
	Roll         []string          `json:"roll"`
	Pass         []string          `json:"pass"`
	Negation     []string          `json:"negation"`
	Without      []string          `json:"without"`
	Ignore       []string          `json:"ignore"`
	Condition    []string          `json:"condition"`
	Hedge        []string          `json:"hedge"`
	Correction   []string          `json:"correction"`
	Refusal      []string          `json:"refusal"`
	Undetermined []string          `json:"undetermined"`
	Open         []string          `json:"open"`
	Decline      []string          `json:"decline"`
	Unable       []string          `json:"unable"`
	Task         []string          `json:"task"`
	Choice       []string          `json:"choice"`
	Stall        []string          `json:"stall"`
	Contrast     []string          `json:"contrast"`
	But          []string          `json:"but"`
	Neither      []string          `json:"neither"`
	RollVerb     []string          `json:"rollverb"`
	Otherwise    []string          `json:"otherwise"`
	Quantifier   []string          `json:"quantifier"`
	Player       []string          `json:"player"`
	Reported     []string          `json:"reported"`
	Wrong        []string          `json:"wrong"`
	Compound     []string          `json:"compound"`
	Succeed      []string          `json:"succeed"`
	Heads        []string          `json:"heads"`
	Narration    []string          `json:"narration"`
	Conclusion   []string          `json:"conclusion"`
	Others       []string          `json:"others"`
	Defer        []string          `json:"defer"`
	Deferee      []string          `json:"deferee"`
	Grant        []string          `json:"grant"`
	GrantOpen    []string          `json:"grantopen"`
	GrantTurn    []string          `json:"grantturn"`
	Additive     []string          `json:"additive"`
	OtherWay     []string          `json:"otherway"`
	Skip         []string          `json:"skip"`
	Concessive   []string          `json:"concessive"`
	Branch       []string          `json:"branch"`
	OrOffer      []string          `json:"oroffer"`
	Doubt        []string          `json:"doubt"`
	Implicative  []string          `json:"implicative"`
	Whether      []string          `json:"whether"`
	Depend       []string          `json:"depend"`
	RollJoin     []string          `json:"rolljoin"`
	DiceVerb     []string          `json:"diceverb"`
	Skills       map[string]string `json:"skills"`
}

var defaultLexicon = sync.OnceValue(func() *Lexicon {
	lex := &Lexicon{skillOf: map[string]string{}}
	entries, err := lexiconFiles.ReadDir("lexicon")
	if err != nil {
		panic(err) // the embedded files are tested; a failure here is a build defect
	}
	for _, e := range entries {
		data, err := lexiconFiles.ReadFile(path.Join("lexicon", e.Name()))
		if err == nil {
			err = lex.add(data, e.Name())
		}
		if err != nil {
			panic(err)
		}
	}
	return lex
})

// DefaultLexicon is the built-in lexicons: English refusals and corrections, French,
// German, Spanish, Italian and Portuguese rulings.
func DefaultLexicon() *Lexicon { return defaultLexicon() }

// LoadLexicons returns the built-in lexicon extended by the files at paths.
func LoadLexicons(paths []string) (*Lexicon, error) {
	texts := make([][]byte, len(paths))
	for i, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("lexicon: %w", err)
		}
		texts[i] = data
	}
	return ParseLexicons(texts, paths)
}

// ParseLexicons returns the built-in lexicon extended by texts, named by names in
// errors.
func ParseLexicons(texts [][]byte, names []string) (*Lexicon, error) {
	lex := DefaultLexicon().clone()
	for i, data := range texts {
		if err := lex.add(data, names[i]); err != nil {
			return nil, err
		}
		lex.extra = append(lex.extra, data)
	}
	return lex, nil
}

// Extensions are the texts of the lexicon files added to the built-in ones, in order.
func (l *Lexicon) Extensions() [][]byte { return l.extra }

func (l *Lexicon) clone() *Lexicon {
	c := *l
	c.Languages = slices.Clone(l.Languages)
	for _, s := range []*[]string{&c.roll, &c.pass, &c.negation, &c.without, &c.ignore, &c.condition, &c.hedge, &c.correction, &c.refusal, &c.undetermined, &c.open, &c.decline, &c.unable, &c.task, &c.choice, &c.stall, &c.contrast, &c.but, &c.neither, &c.rollVerb, &c.otherwise, &c.heads, &c.narration, &c.conclusion, &c.others, &c.skills, &c.quantifier, &c.player, &c.reported, &c.wrong, &c.compound, &c.succeed, &c.deferTo, &c.deferee, &c.grant, &c.grantOpen, &c.grantTurn, &c.additive, &c.otherWay, &c.skip, &c.concessive, &c.branch, &c.orOffer, &c.doubt, &c.implicative, &c.whether, &c.depend, &c.rollJoin} {
		*s = slices.Clone(*s)
	}
	c.anchors = slices.Clone(l.anchors)
	c.extra = slices.Clone(l.extra)
	c.anchorOf = make(map[string]int, len(l.anchorOf))
	for k, v := range l.anchorOf {
		c.anchorOf[k] = v
	}
	c.skillOf = make(map[string]string, len(l.skillOf))
	for k, v := range l.skillOf {
		c.skillOf[k] = v
	}
	c.diceVerb = maps.Clone(l.diceVerb)
	return &c
}

func (l *Lexicon) add(data []byte, name string) error {
	var f lexiconFile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return fmt.Errorf("lexicon %s: %s", name, jsonProblem(err))
	}
	if f.Language == "" {
		return fmt.Errorf("lexicon %s: language: missing", name)
	}
	l.Languages = append(l.Languages, f.Language)
	for _, list := range []struct {
		field string
		from  []string
		to    *[]string
	}{
		{"roll", f.Roll, &l.roll}, {"pass", f.Pass, &l.pass}, {"negation", f.Negation, &l.negation},
		{"without", f.Without, &l.without}, {"ignore", f.Ignore, &l.ignore},
		{"condition", f.Condition, &l.condition}, {"hedge", f.Hedge, &l.hedge},
		{"correction", f.Correction, &l.correction}, {"refusal", f.Refusal, &l.refusal},
		{"undetermined", f.Undetermined, &l.undetermined}, {"open", f.Open, &l.open},
		{"decline", f.Decline, &l.decline}, {"unable", f.Unable, &l.unable}, {"task", f.Task, &l.task},
		{"choice", f.Choice, &l.choice}, {"stall", f.Stall, &l.stall}, {"contrast", f.Contrast, &l.contrast},
		{"but", f.But, &l.but}, {"neither", f.Neither, &l.neither}, {"rollverb", f.RollVerb, &l.rollVerb},
		{"otherwise", f.Otherwise, &l.otherwise}, {"heads", f.Heads, &l.heads},
		{"narration", f.Narration, &l.narration}, {"conclusion", f.Conclusion, &l.conclusion},
		{"others", f.Others, &l.others}, {"grant", f.Grant, &l.grant},
		{"quantifier", f.Quantifier, &l.quantifier}, {"player", f.Player, &l.player},
		{"reported", f.Reported, &l.reported}, {"wrong", f.Wrong, &l.wrong}, {"compound", f.Compound, &l.compound},
		{"succeed", f.Succeed, &l.succeed},
		{"defer", f.Defer, &l.deferTo}, {"deferee", f.Deferee, &l.deferee},
		{"grantopen", f.GrantOpen, &l.grantOpen}, {"grantturn", f.GrantTurn, &l.grantTurn},
		{"additive", f.Additive, &l.additive}, {"otherway", f.OtherWay, &l.otherWay}, {"skip", f.Skip, &l.skip},
		{"concessive", f.Concessive, &l.concessive}, {"branch", f.Branch, &l.branch}, {"oroffer", f.OrOffer, &l.orOffer},
		{"doubt", f.Doubt, &l.doubt}, {"implicative", f.Implicative, &l.implicative}, {"whether", f.Whether, &l.whether},
		{"depend", f.Depend, &l.depend}, {"rolljoin", f.RollJoin, &l.rollJoin},
	} {
		for i, p := range list.from {
			p = strings.Join(strings.Fields(foldLower(p)), " ")
			if p == "" {
				return fmt.Errorf("lexicon %s: %s[%d]: empty phrase", name, list.field, i)
			}
			*list.to = append(*list.to, p)
		}
	}
	for i, w := range f.DiceVerb {
		w = strings.Join(strings.Fields(foldLower(w)), " ")
		if w == "" {
			return fmt.Errorf("lexicon %s: diceverb[%d]: empty phrase", name, i)
		}
		if l.diceVerb == nil {
			l.diceVerb = map[string]bool{}
		}
		l.diceVerb[w] = true
	}
	for k, v := range f.Skills {
		k = strings.Join(strings.Fields(foldLower(k)), " ")
		if k == "" || strings.TrimSpace(v) == "" {
			return fmt.Errorf("lexicon %s: skills: empty name", name)
		}
		if _, dup := l.skillOf[k]; !dup {
			l.skills = append(l.skills, k)
		}
		l.skillOf[k] = strings.TrimSpace(v)
	}
	l.anchorOf = map[string]int{}
	l.anchors = nil
	index := map[string]int{}
	for _, p := range slices.Concat(l.roll, l.pass, l.contrast) {
		a := ""
		for _, w := range strings.Fields(p) {
			if len(w) > len(a) {
				a = w
			}
		}
		i, ok := index[a]
		if !ok {
			i = len(l.anchors)
			index[a] = i
			l.anchors = append(l.anchors, a)
		}
		l.anchorOf[p] = i
	}
	// Longer phrases first, so "armes à feu" wins over a shorter name inside it.
	slices.SortStableFunc(l.skills, func(a, b string) int { return len(b) - len(a) })
	l.openIdx, l.refusalIdx = newPhraseIndex(l.open), newPhraseIndex(l.refusal)
	l.undeterminedIdx, l.correctionIdx = newPhraseIndex(l.undetermined), newPhraseIndex(l.correction)
	l.headIdx = newPhraseIndex(l.heads)
	l.defereeIdx = newPhraseIndex(l.deferee)
	l.grantIdx = newPhraseIndex(withCurlyApostrophes(l.grant))
	l.orOfferIdx = newPhraseIndex(l.orOffer)
	l.phraseWords = l.wordsOfPhrases()
	l.indexAnchors()
	return nil
}

// foldLower lowercases every letter whose lowercase form has the same UTF-8 length, so
// that byte offsets in the result are offsets in s.
func foldLower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return asciiLower(s)
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		lr := unicode.ToLower(r)
		if utf8.RuneLen(lr) != utf8.RuneLen(r) || r == utf8.RuneError {
			lr = r
		}
		b = utf8.AppendRune(b, lr)
	}
	if len(b) != len(s) {
		return asciiLower(s) // invalid UTF-8 came back longer: keep offsets
	}
	return string(b)
}

func isLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= utf8.RuneSelf
}

// phraseAt finds phrase p in s at or after from as whole words: a letter may not touch
// either end where p itself ends in a letter. It returns -1 when there is none.
func phraseAt(s, p string, from int) int {
	for from <= len(s) {
		i := strings.Index(s[from:], p)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(p)
		okLeft := i == 0 || !isLetter(p[0]) || !isLetter(s[i-1])
		okRight := end == len(s) || !isLetter(p[len(p)-1]) || !isLetter(s[end])
		if okLeft && okRight {
			return i
		}
		from = i + 1
	}
	return -1
}

// anyPhrase reports where the first of phrases occurs in s, or -1.
func anyPhrase(s string, phrases []string) (at int, phrase string) {
	at = -1
	for _, p := range phrases {
		if i := phraseAt(s, p, 0); i >= 0 && (at < 0 || i < at) {
			at, phrase = i, p
		}
	}
	return at, phrase
}

// lexSkill is the first skill of the lexicon or the taxonomy named in s (folded) at or
// after from.
func (l *Lexicon) lexSkill(s, orig string, from int, tax *Taxonomy) string {
	best, skill := -1, ""
	for _, p := range l.skills {
		if i := l.skillWordAt(s, orig, p, from); i >= 0 && (best < 0 || i < best) {
			best, skill = i, l.skillOf[p]
		}
	}
	if c := firstSkill(orig[from:], tax, false); c != "" {
		// Prefer whichever is named first; the taxonomy's own names are English.
		if i := strings.Index(s[from:], foldLower(c)); best < 0 || i >= 0 && from+i < best {
			return c
		}
	}
	if skill == "" {
		return ""
	}
	if c, ok := tax.Canonical(skill); ok {
		return c
	}
	return skill
}

// lexCues adds the rulings the lexicon's phrases find in one clause (folded, and the
// reply's own spelling in orig) to t. at is the clause's offset in the reply.
func (l *Lexicon) lexCues(clause, orig string, at int, tax *Taxonomy, t *cueTally, part func() bool) {
	if len(l.roll) == 0 && len(l.pass) == 0 {
		return
	}
	if l.neitherSkills(clause, orig, at, tax, t) || l.rollVerbSkill(clause, orig, at, tax, t) {
		return
	}
	present := make([]bool, len(l.anchors))
	if !l.markAnchors(clause, present) {
		return
	}
	var ignored []byte
	for _, p := range l.ignore {
		for i := phraseAt(clause, p, 0); i >= 0; i = phraseAt(clause, p, i+len(p)) {
			if ignored == nil {
				ignored = []byte(clause)
			}
			copy(ignored[i:i+len(p)], blankOut(p))
		}
	}
	if ignored != nil {
		clause = string(ignored)
	}
	if i, _ := anyPhrase(clause, l.hedge); i >= 0 {
		return
	}
	if i, _ := anyPhrase(clause, l.condition); i >= 0 {
		if from, to, ok := l.passedRoll(clause, i); ok {
			// "Personne ne te voit si tu réussis un jet de Discrétion": the condition is
			// making the roll.
			t.add(cue{decision: DecisionRoll, skill: l.lexSkill(clause[:min(len(clause), to+60)], orig[:min(len(orig), to+60)], from, tax), from: at + from, to: at + to})
			return
		}
		t.conditional = true
		return
	}
	l.compoundRoll(clause, at, tax, t) // "Mach eine Kletterprobe."
	masked := []byte(clause)
	snapshot, dirty := clause, false
	contrastAt, _ := anyPhrase(clause, l.contrast)
	butAt := -1
	for _, b := range l.but {
		if i := phraseAt(clause, b, 0); i >= 0 && i > butAt {
			butAt = i // the last, so that a pass before any of them is a part
		}
	}
	add := func(d Decision, from, skillFrom, to int, negated bool, head string) {
		c := cue{decision: d, from: at + from, to: at + to, negated: negated}
		if d == DecisionPass {
			// "no hace falta tirada para la puerta, pero sí Sigilo": the pass is about
			// another part than the roll granted against it.
			c.part = contrastAt > from || butAt > from || part()
		}
		if !t.matters(c) && !t.mattersWithSkill(c) {
			return
		}
		// The skill is looked for near the phrase, then near the clause's start: never
		// over the whole of a long clause for every phrase.
		c.skill = head
		if c.skill == "" {
			c.skill = l.lexSkill(clause[:min(len(clause), to+80)], orig[:min(len(orig), to+80)], skillFrom, tax)
		}
		if c.skill == "" && from > 0 && skillFrom == from {
			c.skill = l.lexSkill(clause[:min(len(clause), 400)], orig[:min(len(orig), 400)], 0, tax)
		}
		c.topic = l.cueTopic(clause, from, to, d, t)
		t.add(c)
	}
	var negs negationWords
	var predicates [][2]int // the pass phrases that are a predicate: "n'est pas nécessaire"
	var aside clauseAside
	search := func(phrases []string, d Decision, contrast bool) {
		for _, p := range phrases {
			if !present[l.anchorOf[p]] {
				continue
			}
			if dirty {
				snapshot, dirty = string(masked), false
			}
			for i := phraseAt(snapshot, p, 0); i >= 0; i = phraseAt(snapshot, p, i+len(p)) {
				copy(masked[i:i+len(p)], blankOut(p))
				dirty = true
				if d == DecisionPass && !l.holdsHead(p) {
					predicates = append(predicates, [2]int{i, i + len(p)})
				} else if d == DecisionRoll && !contrast && l.subjectOf(clause, i, i+len(p), predicates) {
					continue // "Eine Track-Probe ist nicht erforderlich": the roll is what is not needed
				}
				if aside.reported(clause, l, i) {
					continue // "El jugador quiere pasar sin tirar": the player's wish
				}
				if contrast && l.lexSkill(clause[:min(len(clause), i+len(p)+40)], orig[:min(len(orig), i+len(p)+40)], i+len(p), tax) == "" {
					continue // "no es difícil, pero sí largo": granted against no roll, but no skill
				}
				cd, neg := d, d == DecisionPass
				from := i // where the words that deny the ruling start
				// "sin tirada", and a verb of skipping anywhere in the phrase: "auf die Probe
				// zu verzichten"
				without := d == DecisionPass && slices.ContainsFunc(strings.Fields(p), func(w string) bool { return slices.Contains(l.without, w) })
				if d == DecisionPass && !without && l.deniedPass(clause, i, p) {
					cd = DecisionRoll // "ce n'est pas une réussite automatique"
				}
				if d == DecisionRoll && !contrast {
					at := lastWordsStart(clause[:i], 3)
					for _, w := range wordsAt(clause[at:i]) {
						t := strings.Trim(w.text, "-,'’")
						if strings.HasSuffix(w.text, ",") {
							// "Non, un jet de Grimper": an answer, not a negation of the roll; and
							// a comma ends the scope of a negation before it ("Pas de souci, jet
							// de Discrétion").
							cd, neg, without, from = d, false, false, i
							continue
						}
						if slices.Contains(l.negation, t) && !l.butOpens(clause, at+w.at) {
							cd, neg = DecisionPass, true
							without = slices.Contains(l.without, t)
							from = at + w.at
						}
					}
				}
				raised := d == DecisionRoll && !contrast && !neg && (negRaised(clause[:i]) || l.negatedRequest(clause[:i])) && !l.skippedBefore(clause[:i])
				if raised {
					cd, neg = DecisionPass, true // "no creo que haga falta tirar"
				}
				if neg && !without && !raised && l.outerNegations(clause, from)%2 == 1 {
					cd = other(cd) // "no es que no haga falta tirar": a denial denied
				}
				if aside.judgedWrong(clause, l, i+len(p)) {
					cd, neg = other(cd), true // "Une réussite automatique ne serait pas juste"
				}
				if d == DecisionRoll && !contrast && !neg && l.quantifiedSubject(clause, i) {
					cd, neg = DecisionPass, true // "Nessuna parte di questa azione richiede dadi"
				}
				if without && (negs.outside(clause, l, from, i+len(p)) && l.negatedInClause(clause, from, i+len(p)) || nobodyWithout.MatchString(clause[:from])) {
					cd = DecisionRoll // "sin una tirada de Trepar no llegas arriba"
				}
				skillFrom := i
				if first := strings.Fields(p)[0]; slices.Contains(l.without, first) && !slices.Contains(l.negation, first) {
					skillFrom += len(first) // "sauter le jet": the verb of skipping names no skill
				}
				head := ""
				if p[0] == '-' {
					head = compoundHead(orig[:i], tax) // "Locksmith-Probe"
				}
				add(cd, i, skillFrom, i+len(p), neg, head)
			}
		}
	}
	search(l.pass, DecisionPass, false)
	search(l.contrast, DecisionRoll, true)
	search(l.roll, DecisionRoll, false)
	if butAt >= 0 && t.n == 1 && t.hasPass && t.passCue.from >= at && t.passCue.to <= at+butAt {
		// "no requiere tirada, pero forzar la cerradura sí: Locksmith": after a but, a
		// yes that ends the clause grants a roll for that part, as a contrast phrase
		// does; its skill is the one named after it.
		if m := ellipticYes.FindStringIndex(clause[butAt:]); m != nil {
			t.passCue.part, t.allPassPart = true, true
			add(DecisionRoll, butAt+m[0], butAt+m[1], butAt+m[1], false, "")
		}
	}
}

// ellipticYes is a yes that ends a clause and stands for a ruling granted ("pero abrir
// la caja sí: Locksmith").
var ellipticYes = regexp.MustCompile(`\s(?:sì|sí|si|oui|ja|doch|schon|sim|tak|wel|yes)\s*[:—–-]?\s*$`)

// bareSkill is the skill a clause names in the lexicon's words and nothing else
// ("Nager", "Rastrear"), or "".
func (l *Lexicon) bareSkill(clause string, tax *Taxonomy) string {
	name := strings.Trim(clause, " \t\n.!*_")
	if name == "" || len(name) > 40 {
		return ""
	}
	sk, ok := l.skillOf[name]
	if !ok {
		return ""
	}
	if c, known := tax.Canonical(sk); known {
		return c
	}
	return sk
}

// compoundHead is the skill named by the words that end s, joined to a roll word by a
// hyphen ("Locksmith-Probe", "Spot-Hidden-Wurf"), or "".
func compoundHead(s string, tax *Taxonomy) string {
	words := strings.Fields(strings.ReplaceAll(s[lastWordsStart(s, 3):], "-", " "))
	for k := range words {
		name := strings.Trim(strings.Join(words[k:], " "), "\"'“„(")
		if c, ok := tax.Canonical(name); ok {
			return c
		}
	}
	return ""
}

// negationWords are where a clause's negation words stand, found once per clause.
type negationWords struct {
	found bool
	at    []int
}

// outside reports whether a negation word of l stands in clause outside [from, to).
func (n *negationWords) outside(clause string, l *Lexicon, from, to int) bool {
	if !n.found {
		n.found = true
		start := -1
		for i := 0; i <= len(clause); i++ {
			letter := i < len(clause) && (isLetter(clause[i]) || clause[i] == '\'' && start >= 0)
			if letter && start < 0 {
				start = i
			}
			if !letter && start >= 0 {
				if slices.Contains(l.negation, strings.Trim(clause[start:i], "'")) {
					n.at = append(n.at, start)
				}
				start = -1
			}
		}
	}
	lo, _ := slices.BinarySearch(n.at, from)
	hi, _ := slices.BinarySearch(n.at, to)
	return len(n.at)-(hi-lo) > 0
}

// word is one space-separated word and its offset.
type word struct {
	at   int
	text string
}

// wordsAt is the space-separated words of s, in order, with their offsets.
func wordsAt(s string) []word {
	var out []word
	start := -1
	for i := 0; i <= len(s); i++ {
		space := i == len(s) || isRESpace(s[i])
		if !space && start < 0 {
			start = i
		}
		if space && start >= 0 {
			out = append(out, word{start, s[start:i]})
			start = -1
		}
	}
	return out
}

// declines reports whether folded (a reply that rules nothing, lowercased) declines the
// task in the grammar of a refusal: a first-person phrase of declining whose object, in
// the same clause, is the ruling, the adjudication, the role or the request ("I'd rather
// not act as the Keeper here", "I must refrain from adjudicating this scene", "judging
// this isn't something I'll do"). A question, or a sentence that makes the decline wait
// on something ("I won't rule until I know the height"), is not a refusal.
func (l *Lexicon) declines(folded string) bool {
	folded = declineManner.Replace(strings.ReplaceAll(folded, "’", "'"))
	for _, lists := range []struct {
		verbs   []string
		objects [][]string
	}{{l.decline, [][]string{l.task, l.choice}}, {l.unable, [][]string{l.task}}} {
		for _, v := range lists.verbs {
			for at := phraseAt(folded, v, 0); at >= 0; at = phraseAt(folded, v, at+1) {
				start, end := sentenceAround(folded, at, at+len(v))
				sentence := folded[start:end]
				if strings.HasSuffix(strings.TrimSpace(folded[start:min(len(folded), end+1)]), "?") || hasPhrase(sentence, l.stall) {
					continue
				}
				after := folded[at+len(v) : min(end, at+len(v)+60)]
				if i := strings.IndexAny(after, ",;:—–"); i >= 0 {
					after = after[:i] // the clause of the decline, not the next
				}
				before := folded[max(start, clauseStart(folded, at), at-40):at]
				for _, objs := range lists.objects {
					if hasPhrase(after, objs) {
						return true
					}
				}
				if at, p := anyPhrase(before, lists.objects[0]); at >= 0 && !strings.Contains(p, " ") && !deictic[p] {
					return true // "judging this isn't something I'll do"; not "this one is easy and I don't want to …"
				}
			}
		}
	}
	return false
}

// deictic task words point at the matter without naming the task: before a decline
// they are what the sentence is about, not what is declined.
var deictic = map[string]bool{"help": true, "answer": true, "continue": true, "follow": true, "provide": true, "respond": true}

// sentenceAround is the sentence of s that holds s[from:to]: from the end of the one
// before to its own end mark, which it leaves out.
func sentenceAround(s string, from, to int) (start, end int) {
	start = strings.LastIndexAny(s[:from], ".!?\n") + 1
	end = len(s)
	if i := strings.IndexAny(s[to:], ".!?\n"); i >= 0 {
		end = to + i
	}
	return start, end
}

// clauseStart is where the clause of s that holds s[at] begins: after a comma, a colon,
// a semicolon or a dash.
func clauseStart(s string, at int) int {
	i := strings.LastIndexAny(s[:at], ",;:—–")
	if i < 0 {
		return 0
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	return i + size
}

// neitherSkills adds a pass for a clause that holds "neither A nor B" in a
// lexicon's words, where A and B are skills ("Weder Klettern noch Springen", "Ni Trepar
// ni Saltar"). It reports whether it added one.
func (l *Lexicon) neitherSkills(clause, orig string, at int, tax *Taxonomy, t *cueTally) bool {
	for _, pair := range l.neither {
		first, second, ok := strings.Cut(pair, " ")
		if !ok {
			continue
		}
		// "Ni Trepar ni Saltar", and after its verb: "No requiere ni Saltar ni Trepar".
		i := phraseAt(clause, first, 0)
		if i < 0 {
			continue
		}
		j := phraseAt(clause, second, i+len(first))
		if j < 0 || j-i > 60 {
			continue
		}
		end := min(len(clause), j+len(second)+40)
		a := l.lexSkill(clause[:j], orig[:j], i+len(first), tax)
		b := l.lexSkill(clause[:end], orig[:end], j+len(second), tax)
		if a != "" && b == "" && l.namesRoll(clause[j+len(second):end]) {
			b = "any" // "weder Schwimmen noch sonst irgendeine Probe": a skill nor any roll
		}
		if a == "" || b == "" {
			continue
		}
		if l.butAfter(clause, j+len(second)) {
			// "Ni Grimper ni Sauter, mais un jet de Nager": the skills denied are parts,
			// and the clause goes on to rule on another.
			t.add(cue{decision: DecisionPass, from: at + i, to: at + j + len(second), negated: true, part: true})
			return false
		}
		t.add(cue{decision: DecisionPass, from: at + i, to: at + j + len(second), negated: true})
		return true
	}
	return false
}

// rollVerbSkill adds a roll for a clause that opens with a verb of rolling and a skill's
// name right after it ("Lanza Medicina (Medicine).", "Role Furtividade."). It reports
// whether it added one.
func (l *Lexicon) rollVerbSkill(clause, orig string, at int, tax *Taxonomy, t *cueTally) bool {
	i := len(clause) - len(strings.TrimLeft(clause, " \t\n*_>-"))
	for _, v := range l.rollVerb {
		if !strings.HasPrefix(clause[i:], v) || i+len(v) < len(clause) && isLetter(clause[i+len(v)]) {
			continue
		}
		from := i + len(v)
		for from < len(clause) && clause[from] == ' ' {
			from++
		}
		end := min(len(clause), from+40)
		skill := l.lexSkill(clause[:end], orig[:end], from, tax)
		if skill == "" {
			continue
		}
		// The skill's name must stand right after the verb.
		if j := strings.Index(clause[from:end], foldLower(skill)); j != 0 {
			if _, ok := l.skillOf[firstWords(clause[from:end], skill)]; !ok && !l.opensWithSkill(clause[from:end]) {
				// "Tiro io per te su Arrampicarsi": the verb reaches its skill past a
				// pronoun, a beneficiary and a preposition.
				if _, _, skill = l.pastFunctionWords(clause, orig, from, tax); skill == "" {
					continue
				}
			}
		}
		t.add(cue{decision: DecisionRoll, skill: skill, from: at + i, to: at + from})
		return true
	}
	return false
}

// firstWords is as many words of s as skill has.
func firstWords(s, skill string) string {
	n := len(strings.Fields(skill))
	words := strings.Fields(s)
	if len(words) < n {
		return ""
	}
	return strings.Trim(strings.Join(words[:n], " "), ".,;:()")
}

// phraseIndex finds the first of a list of phrases in a text in one pass over its words,
// as anyPhrase does with one search of the whole text per phrase: the refusal and open
// lists hold hundreds of phrases, and searching a long reply once for each was a tenth of
// a reply's cost.
type phraseIndex struct {
	phrases []string
	// byWord maps the first word of a phrase (its first run of letters) to the phrases
	// that open with it, in list order.
	byWord map[string][]int
	// odd are the phrases that open with no letter ("[response withheld]"), searched
	// as anyPhrase searches.
	odd []int
}

func newPhraseIndex(phrases []string) *phraseIndex {
	x := &phraseIndex{phrases: phrases, byWord: map[string][]int{}}
	for k, p := range phrases {
		if p == "" || !isLetter(p[0]) {
			x.odd = append(x.odd, k)
			continue
		}
		j := 0
		for j < len(p) && isLetter(p[j]) {
			j++
		}
		x.byWord[p[:j]] = append(x.byWord[p[:j]], k)
	}
	return x
}

// first is anyPhrase(s, x.phrases): where the first phrase occurs as whole words, and
// which; at is -1 when none does. Of phrases at the same place, the first listed wins.
func (x *phraseIndex) first(s string) (at int, phrase string) {
	at, best := -1, -1
	for _, k := range x.odd {
		if i := phraseAt(s, x.phrases[k], 0); i >= 0 && (at < 0 || i < at || i == at && k < best) {
			at, best = i, k
		}
	}
	for i := 0; i < len(s) && (at < 0 || i <= at); {
		if !isLetter(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isLetter(s[j]) {
			j++
		}
		for _, k := range x.byWord[s[i:j]] {
			p := x.phrases[k]
			end := i + len(p)
			if !strings.HasPrefix(s[i:], p) || end < len(s) && isLetter(p[len(p)-1]) && isLetter(s[end]) {
				continue
			}
			if at < 0 || i < at || k < best {
				at, best = i, k
			}
			break
		}
		i = j
	}
	if at < 0 {
		return -1, ""
	}
	return at, x.phrases[best]
}

func (x *phraseIndex) has(s string) bool {
	at, _ := x.first(s)
	return at >= 0
}
