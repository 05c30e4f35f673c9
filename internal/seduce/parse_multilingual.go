package seduce

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Rulings in the lexicons' languages read as grammar, not phrasings (issue 29, sixth
// round). Each rule is stated once here and is data in lexicon/*.json:
//   - answers: "of course not" in each language is a no, also where its first words
//     alone would be a yes ("claro que no", "natürlich nicht", "bien sûr que non"); a
//     question that names a roll by a roll word of the lexicon ("Faut-il un jet pour
//     …?") asks whether the roll is needed, and the reply's own answer to it rules; a
//     skill named in a lexicon's words after a yes is the roll's ("Sí: Esquivar"); a
//     label of need answered by a bare yes or no ("Probe nötig: nein") is that answer,
//     and one answered by a hedge alone ("Jet requis : peut-être") is open.
//   - polarity: a roll named as the subject of a negated predicate of need ("Un jet de
//     Discrétion n'est pas nécessaire") is denied by it; a negative quantifier that opens
//     a clause as its subject denies the roll its verb calls for ("Ninguna parte de esta
//     acción requiere dados"), unless a complementizer or a verb of preventing stands
//     between; an automatic success that a negation governs is a roll ("ce n'est pas
//     une réussite automatique"); a ruling judged wrong by the predicate after it ("ne
//     serait pas juste") is its opposite; a comma ends a negation's scope ("Pas de
//     souci, jet de Discrétion"); "without doubt", "not only", "neither more nor less"
//     and the negation of a but phrase ("sin embargo") deny nothing.
//   - parts: a pass and a roll that name different things (content words, with the
//     lexicons' phrase words and function words set aside) are about two parts of the
//     action ("Entrer dans le bureau ne demande aucun jet. En revanche, ouvrir le
//     coffre-fort exige un jet de Serrurerie.").
//   - no ruling of the reply's: the player's claim or wish reported ("El jugador quiere
//     pasar sin tirar"); the player's wish as a condition ("si tu veux") leaves the
//     ruling firm; a condition whose body passes a roll ("si tu réussis un jet de
//     Discrétion") calls for the roll.
//   - names: a skill's name in a lexicon's words resolves in JSON and label values too
//     ({"skill": "Sigilo"}); a compound roll noun names its skill ("Kletterprobe").

// answerNoMore are the lexicons' other ways of answering no: a yes word of certainty
// that a negation follows ("claro que no", "natürlich nicht", "certo che no", "bien sûr
// que non", "claro que não"), and the set phrases of a firm no ("pas du tout", "auf
// keinen Fall", "para nada", "per niente", "de jeito nenhum", "pas besoin", "braucht es
// nicht").
const answerNoMore = `|^\s*(?:bien\s+sûr|évidemment|certainement|absolument|sûrement|natürlich|klar|sicher|selbstverständlich|gewiss|claro|por\s+supuesto|desde\s+luego|evidentemente|obviamente|certo|ovviamente|naturalmente|sicuramente|certamente|natuurlijk|uiteraard|oczywiście|jasne)\s*(?:que|che|dass|,)?\s*(?:non|não|nao|no|nicht|pas|niet|nie)(?:[\s,.!:;]|$)` +
	`|^\s*(?:pas\s+besoin|pas\s+la\s+peine|(?:braucht|muss)\s+(?:es|er|sie|man)\s+nicht|hoeft\s+niet|pas\s+du\s+tout|aucunement|keineswegs|auf\s+keinen\s+fall|gar\s+nicht|para\s+nada|de\s+ninguna\s+manera|de\s+ningún\s+modo|per\s+niente|niente\s+affatto|per\s+nulla|de\s+jeito\s+nenhum|de\s+modo\s+nenhum|nem\s+pensar|helemaal\s+niet|geenszins|wcale\s+nie|absolutnie\s+nie)(?:[\s,.!:;]|$)`

// askedRoll adds to q the roll a question clause (folded) asks about when it names one
// only by a ruling's word of the lexicon that a roll phrase holds ("Faut-il un jet pour
// monter ?", "Precisa de teste para abrir?"): a yes or no question that names a roll
// asks whether the roll is needed. Words of an automatic success, which no roll phrase
// holds, are left to the phrases that read them.
func (l *Lexicon) askedRoll(clause string, at int, q *cueTally) {
	if i, n := l.rollNoun(clause); i >= 0 {
		q.add(cue{decision: DecisionRoll, from: at + i, to: at + i + n})
	}
}

// rollNoun is where s first names a roll by a ruling's word that a roll phrase of the
// lexicon holds, and the word's length; -1 when it names none.
func (l *Lexicon) rollNoun(s string) (at, n int) {
	for from := 0; from < len(s); {
		i, head := l.headIdx.first(s[from:])
		if i < 0 {
			return -1, 0
		}
		i += from
		if l.rollWord(head) {
			return i, len(head)
		}
		from = i + len(head)
	}
	return -1, 0
}

// rollWord says whether a roll phrase of the lexicon holds w as one of its words; a
// phrase that holds a negation ("pas automatique") denies what w names.
func (l *Lexicon) rollWord(w string) bool {
	return slices.ContainsFunc(l.roll, func(p string) bool {
		words := strings.Fields(p)
		return slices.Contains(words, w) && !slices.ContainsFunc(words, func(x string) bool { return slices.Contains(l.negation, x) })
	})
}

// holdsHead says whether phrase p holds one of the lexicon's ruling words (heads).
func (l *Lexicon) holdsHead(p string) bool {
	return slices.ContainsFunc(strings.Fields(p), func(w string) bool { return slices.Contains(l.heads, w) })
}

// conjunctions join two statements: a roll before one is no subject of what follows it.
var conjunctions = wordSet(`and und et y e ed en i oder ou o of or lub albo ma mais aber pero maar ale mas però sondern`)

// subjectOf says whether the roll phrase at clause[from:to] is the subject of a pass
// phrase that is a predicate of need, after it in the clause ("Un jet de Discrétion
// n'est pas nécessaire", "Eine Track-Probe ist nicht erforderlich", "Una tirada de
// Sigilo no es necesaria"): the predicate denies the roll, which rules nothing itself.
// The roll opens its clause (a few words at most before it) and only its own words and a
// verb stand between it and the predicate: no comma, no conjunction.
func (l *Lexicon) subjectOf(clause string, from, to int, predicates [][2]int) bool {
	if len(predicates) == 0 || len(wordsAt(clause[:from])) > 3 {
		return false
	}
	for _, p := range predicates {
		if p[0] < to {
			continue
		}
		gap := clause[to:p[0]]
		words := wordsAt(gap)
		if strings.ContainsAny(gap, ",;:—–()") || len(words) > 5 {
			continue
		}
		if !slices.ContainsFunc(words, func(w word) bool { return conjunctions[w.text] || slices.Contains(l.but, w.text) }) {
			return true
		}
	}
	return false
}

// quantifiedSubject says whether the clause opens with a negative quantifier of the
// lexicon as its subject and the roll phrase at clause[at:] is in its scope: no comma,
// colon, dash or but word stands between ("Ninguna parte de esta acción requiere
// dados", "Geen enkel deel hiervan vraagt om een worp"). A quantifier after other words
// ("Tira Sigilo: nadie …") is no subject of the roll.
func (l *Lexicon) quantifiedSubject(clause string, at int) bool {
	if len(l.quantifier) == 0 {
		return false
	}
	words := wordsAt(clause[:at])
	if len(words) == 0 || !slices.Contains(l.quantifier, strings.Trim(words[0].text, "¿¡*_\"'“„«")) {
		return false
	}
	if strings.ContainsAny(clause[:at], ",;:—–()") {
		return false
	}
	return !slices.ContainsFunc(words[1:], func(w word) bool {
		return slices.Contains(l.but, w.text) || complementizers[w.text] || preventing[afterElision(w.text)] || strings.HasPrefix(w.text, "qu'") || strings.HasPrefix(w.text, "qu’")
	})
}

// preventing are verbs of preventing: "nothing prevents a roll" denies no roll ("Rien ne
// t'empêche de faire un jet").
var preventing = wordSet(`empêche empêchent impide impiden hindert verhindert impedisce impediscono impede impedem belet weerhoudt przeszkadza`)

// complementizers open a clause of its own inside another ("Rien ne dit qu'un jet soit
// nécessaire"): a quantifier before one is no subject of what follows it.
var complementizers = wordSet(`que qu dass daß ob che dat of że czy si se if whether`)

// cueTopic is what a lexicon's ruling at clause[from:to] is about, for telling a pass and
// a roll about two parts of the action apart ("Entrer dans le bureau ne demande aucun
// jet. En revanche, ouvrir le coffre-fort exige un jet de Serrurerie."): for the first
// pass, the content words before it in its clause (or after it: "aucun jet pour la
// porte"); for the first roll, the words before it. Words of the lexicon's phrases and
// function words say nothing of the topic: two rulings that share a content word are
// about one thing.
func (l *Lexicon) cueTopic(clause string, from, to int, d Decision, t *cueTally) []string {
	var words []string
	switch {
	case d == DecisionPass && !t.hasPass:
		words = topicWords(clause[max(0, from-80):from])
		if len(words) == 0 {
			after := clause[to:min(len(clause), to+80)]
			if k := strings.IndexAny(after, ",;"); k >= 0 {
				after = after[:k]
			}
			words = topicWords(after)
		}
	case d == DecisionRoll && !t.hasRoll:
		words = topicWords(clause[max(0, from-80):from])
	}
	return slices.DeleteFunc(words, func(w string) bool { return l.phraseWord(w) || functionWords[w] })
}

// functionWords are the articles, pronouns, prepositions and other words of the
// lexicons' languages that say nothing of what a ruling is about.
var functionWords = wordSet(`les des une dans pour par sur avec sans que qui est sont ces cette son ses leur aux elle pas plus tout toute
	das der die den dem des ein eine einen einem einer eines und ist sind mit für auf von bei aus sich hier nicht sie
	los las una uno del con por para sin esta este esto ese esa aquí muy más
	gli della dei delle degli questa questo sul sulla nel nella alla allo
	uma dos das com isso isto não ele ela nos nas
	het een van voor met die dat niet hij zij
	się jest nie jak`)

// opensWithSkill says whether s opens with a skill's name in the lexicon's words, of up
// to three words ("Encontrar para você").
func (l *Lexicon) opensWithSkill(s string) bool {
	words := strings.Fields(s)
	for n := min(3, len(words)); n > 0; n-- {
		if _, ok := l.skillOf[strings.Trim(strings.Join(words[:n], " "), ".,;:()!?")]; ok {
			return true
		}
	}
	return false
}

// phraseWord says whether w is a word of one of the lexicon's ruling, negation or but
// phrases.
func (l *Lexicon) phraseWord(w string) bool { return l.phraseWords[w] }

// wordsOfPhrases is the set of the words of the roll, pass, negation, but and heads
// lists.
func (l *Lexicon) wordsOfPhrases() map[string]bool {
	set := map[string]bool{}
	for _, list := range [][]string{l.roll, l.pass, l.negation, l.but, l.heads} {
		for _, p := range list {
			for _, w := range strings.FieldsFunc(p, func(r rune) bool { return r == ' ' || r == '-' || r == '\'' || r == '’' }) {
				set[w] = true
			}
		}
	}
	return set
}

// namesRoll says whether s names a roll by a ruling's word that a roll phrase of the
// lexicon holds ("irgendeine Probe", "otra tirada").
func (l *Lexicon) namesRoll(s string) bool {
	i, _ := l.rollNoun(s)
	return i >= 0
}

// deniedPass says whether the pass phrase p at clause[at:], which holds no negation of
// its own ("réussite automatique", "éxito automático"), is denied by a negation of the
// lexicon that governs it: at most three words (no conjunction, no punctuation) stand
// between them ("ce n'est pas une réussite automatique", "no le daría un éxito
// automático", "kein automatischer Erfolg"). What is denied is the automatic success: a roll.
func (l *Lexicon) deniedPass(clause string, at int, p string) bool {
	if slices.ContainsFunc(strings.Fields(p), func(w string) bool { return slices.Contains(l.negation, w) }) {
		return false
	}
	words := wordsAt(clause[lastWordsStart(clause[:at], 4):at])
	for k := len(words) - 1; k >= 0; k-- {
		w := words[k].text
		if strings.ContainsAny(w, ",;:—–()\"«»“”") || conjunctions[w] || slices.Contains(l.but, w) {
			return false
		}
		if slices.Contains(l.negation, strings.Trim(w, "'’")) {
			return true
		}
	}
	return false
}

// labelAnswer says whether a label, a clause of no comma that ends in a colon (sep), is
// answered by a bare yes or no in any language (next): "Jet nécessaire : non",
// "Tirada necesaria: sí — Sigilo", "Probe nötig: ja (Schwimmen)". A no that opens a
// sentence ("Tirada de Medicina, Difícil: no hay laboratorio") answers nothing.
func labelAnswer(clause, sep, next string) bool {
	w, ok := labelWord(clause, sep, next)
	return ok && (answerNo.MatchString(w) || answerNoLex.MatchString(w) || answerYes.MatchString(w) || answerYesLex.MatchString(w))
}

// labelWord is the bare answer of a label: the clause is short, holds no comma and ends
// in a colon, and the next clause is one or two words and then nothing, a comma, a dash
// or a parenthesis.
func labelWord(clause, sep, next string) (string, bool) {
	if len(clause) > 60 || !strings.Contains(sep, ":") || strings.Contains(sep, "?") || strings.Contains(clause, ",") {
		return "", false
	}
	next = strings.TrimLeft(next, " \t\n")
	end := len(next)
	for i, r := range next {
		if r == ',' || r == '(' || r == '—' || r == '–' || r == '-' && i+1 < len(next) && next[i+1] == ' ' {
			end = i
			break
		}
	}
	w := strings.TrimSpace(next[:end])
	if w == "" || len(strings.Fields(w)) > 2 {
		return "", false
	}
	return w, true
}

// cognate is the taxonomy's skill that a skill name of the lexicon names, when the
// taxonomy does not know name itself ({"skill": "Sigilo"}, "Trouver Objet Caché",
// "Klettern (Climb)"); otherwise name.
func (l *Lexicon) cognate(name string, tax *Taxonomy) string {
	if name == "" {
		return name
	}
	if _, ok := tax.Canonical(name); ok {
		return name
	}
	folded := strings.Join(strings.Fields(foldLower(name)), " ")
	try := []string{folded}
	if open := strings.IndexByte(folded, '('); open > 0 && strings.HasSuffix(folded, ")") {
		try = append(try, strings.TrimSpace(folded[:open]), strings.TrimSpace(folded[open+1:len(folded)-1]))
	}
	for _, n := range try {
		if sk, ok := l.skillOf[n]; ok {
			if c, known := tax.Canonical(sk); known {
				return c
			}
		}
		if c, ok := tax.Canonical(n); ok {
			return c
		}
	}
	return name
}

// namedSkill is the taxonomy's skill that s names first in a lexicon's words ("jet de
// Discrétion"), or "".
func (l *Lexicon) namedSkill(s string, tax *Taxonomy) string {
	folded, best, skill := foldLower(s), -1, ""
	for _, p := range l.skills {
		if i := phraseAt(folded, p, 0); i >= 0 && (best < 0 || i < best) {
			best, skill = i, l.skillOf[p]
		}
	}
	if c, ok := tax.Canonical(skill); ok {
		return c
	}
	return skill
}

// clauseAside finds, once per clause, where the player's reported words end and where
// predicates that judge a ruling wrong stand.
type clauseAside struct {
	found      bool
	reportedAt int      // the end of the first "player + verb of saying", or -1
	othersAt   int      // the end of the first other tables as a subject, or -1
	wrongAt    [][2]int // the "wrong" predicates
}

func (a *clauseAside) find(clause string, l *Lexicon) {
	if a.found {
		return
	}
	a.found, a.reportedAt, a.othersAt = true, -1, -1
	for _, p := range l.others {
		if i := phraseAt(clause, p, 0); i >= 0 && (a.othersAt < 0 || i+len(p) < a.othersAt) {
			a.othersAt = i + len(p)
		}
	}
	for _, p := range l.player {
		for i := phraseAt(clause, p, 0); i >= 0 && a.reportedAt < 0; i = phraseAt(clause, p, i+len(p)) {
			after := clause[i+len(p):]
			words := wordsAt(after)
			for k := 0; k < len(words) && k < 3; k++ {
				if slices.Contains(l.reported, strings.Trim(words[k].text, ",.;:")) {
					a.reportedAt = i + len(p) + words[k].at + len(words[k].text)
					break
				}
			}
		}
	}
	for _, p := range l.wrong {
		for i := phraseAt(clause, p, 0); i >= 0; i = phraseAt(clause, p, i+len(p)) {
			a.wrongAt = append(a.wrongAt, [2]int{i, i + len(p)})
		}
	}
}

// reported says whether the ruling at clause[at:] stands after the player and a verb of
// saying or wanting, with no comma between: the player's claim or wish ("El jugador
// quiere pasar junto al guardia sin tirar", "Le joueur dit qu'il réussit
// automatiquement"); or after other tables as its subject, what another table would
// rule ("Manche Spielleiter würden hier würfeln lassen").
func (a *clauseAside) reported(clause string, l *Lexicon, at int) bool {
	if len(l.player) == 0 && len(l.others) == 0 {
		return false
	}
	a.find(clause, l)
	if a.othersAt >= 0 && a.othersAt <= at && !strings.ContainsAny(clause[a.othersAt:at], ",;:") {
		return true
	}
	return a.reportedAt >= 0 && a.reportedAt <= at && !strings.ContainsAny(clause[a.reportedAt:at], ";:") && asideCommas(clause[a.reportedAt:at], l)
}

// asideCommas says whether the commas of s, between a verb of saying and the ruling it
// reports, set off no more than an aside: none, or a pair around a few words ("Le joueur
// affirme qu'Hélène, étant alpiniste, n'a pas besoin de …"), with no word that turns
// from the claim to the reply's own words ("Le joueur dit qu'il grimpe, mais il pleut,
// donc pas de jet").
func asideCommas(s string, l *Lexicon) bool {
	switch strings.Count(s, ",") {
	case 0:
		return true
	case 2:
		i, j := strings.Index(s, ","), strings.LastIndex(s, ",")
		return len(strings.Fields(s[i:j])) <= 5 && !hasPhrase(s, l.but) && !hasPhrase(s, l.conclusion)
	}
	return false
}

// judgedWrong says whether a predicate that judges a ruling wrong follows the ruling
// that ends at clause[end], a few words on and with no comma between ("Une réussite
// automatique ne serait pas juste", "Una tirada aquí sería excesiva").
func (a *clauseAside) judgedWrong(clause string, l *Lexicon, end int) bool {
	if len(l.wrong) == 0 {
		return false
	}
	a.find(clause, l)
	for _, w := range a.wrongAt {
		if w[0] >= end && len(wordsAt(clause[end:w[0]])) <= 4 && !strings.ContainsAny(clause[end:w[0]], ",;:") {
			return true
		}
	}
	return false
}

// compoundRoll adds the roll a compound noun names, a roll word of the lexicon's
// "compound" list joined to a skill's stem ("Kletterprobe", "Schwimmwurf", "Klimworp"):
// a roll of the skill whose name in the lexicon's words begins with the stem (four
// letters at least). A negation of the lexicon among the three words before it denies
// it ("keine Kletterprobe").
func (l *Lexicon) compoundRoll(clause string, at int, tax *Taxonomy, t *cueTally) {
	for _, suffix := range l.compound {
		for from := 0; ; {
			k := strings.Index(clause[from:], suffix)
			if k < 0 {
				break
			}
			end := from + k + len(suffix)
			start := from + k
			from = end
			if end < len(clause) && isLetter(clause[end]) && !strings.HasPrefix(clause[end:], "n") {
				continue // inside a longer word; "Kletterproben" is a plural
			}
			for start > 0 && isLetter(clause[start-1]) {
				start--
			}
			stem := clause[start : end-len(suffix)]
			if len(stem) < 4 {
				continue
			}
			skill := ""
			for _, p := range l.skills {
				if strings.HasPrefix(p, stem) && !strings.Contains(p, " ") {
					skill = l.skillOf[p]
					break
				}
			}
			if skill == "" {
				continue
			}
			if c, ok := tax.Canonical(skill); ok {
				skill = c
			}
			c := cue{decision: DecisionRoll, skill: skill, from: at + start, to: at + end}
			for _, w := range wordsAt(clause[lastWordsStart(clause[:start], 3):start]) {
				if slices.Contains(l.negation, strings.Trim(w.text, ",.;:")) {
					c.decision, c.negated, c.skill = DecisionPass, true, ""
				}
			}
			t.add(c)
			return
		}
	}
}

// labelHedged says whether a label that names a ruling (a roll or pass phrase of the
// lexicon) is answered by a hedge alone ("Jet requis : peut-être", "Probe nötig:
// vielleicht"): the ruling is left open.
func (l *Lexicon) labelHedged(clause, sep, next string) bool {
	w, ok := labelWord(clause, sep, next)
	if !ok {
		return false
	}
	w = strings.TrimRight(w, ".!")
	if !slices.Contains(l.hedge, w) && !englishHedge[w] {
		return false
	}
	if at, _ := anyPhrase(clause, l.roll); at >= 0 {
		return true
	}
	at, _ := anyPhrase(clause, l.pass)
	return at >= 0
}

// englishHedge are the English words of a hedge that answer a label alone.
var englishHedge = wordSet(`maybe perhaps possibly probably unsure unclear`)

// passedRoll finds, in a clause whose condition word stands at cond, a condition whose
// body is passing or failing a roll: a verb of the lexicon's "succeed" list within four
// words after the condition word and a roll phrase right after it ("si tu réussis un jet
// de Discrétion", "wenn dir eine Probe auf Horchen gelingt", "si no superas una tirada
// de Nadar"). It returns the roll phrase's place. Every condition of the clause must be
// of that kind: another leaves the ruling open.
func (l *Lexicon) passedRoll(clause string, cond int) (from, to int, ok bool) {
	if len(l.succeed) == 0 {
		return 0, 0, false
	}
	body := clause[cond:]
	if i := strings.IndexAny(body, ",;"); i >= 0 {
		body = body[:i]
	}
	words := wordsAt(body)
	verb := -1
	for k := 1; k < len(words) && k <= 6; k++ {
		if slices.Contains(l.succeed, strings.Trim(words[k].text, ".,;:")) {
			verb = k
			break
		}
	}
	if verb < 0 {
		return 0, 0, false
	}
	best := -1
	var phrase string
	for _, p := range l.roll {
		if i := phraseAt(body, p, 0); i >= 0 && (best < 0 || i < best) {
			best, phrase = i, p
		}
	}
	if best < 0 || len(wordsAt(body[min(best, words[verb].at):max(best, words[verb].at)])) > 5 {
		return 0, 0, false
	}
	// no second condition in the clause
	if j, _ := anyPhrase(clause[cond+len(body):], l.condition); j >= 0 {
		return 0, 0, false
	}
	return cond + best, cond + best + len(phrase), true
}

// butOpens says whether a but phrase of the lexicon opens at clause[at:]: its negation
// word ("sin embargo", "no obstante") denies nothing.
func (l *Lexicon) butOpens(clause string, at int) bool {
	return slices.ContainsFunc(l.but, func(b string) bool { return strings.Contains(b, " ") && phraseAt(clause[at:], b, 0) == 0 })
}

// afterElision is a word without the elided pronoun or article before its apostrophe
// ("t'empêche" is "empêche").
func afterElision(w string) string {
	if i := strings.LastIndexAny(w, "'’"); i >= 0 {
		_, size := utf8.DecodeRuneInString(w[i:])
		return w[i+size:]
	}
	return w
}

// indexAnchors sorts the anchors into those made of letters only, found by looking up
// each run of letters of a clause, and the others, searched for as substrings.
func (l *Lexicon) indexAnchors() {
	l.anchorWord, l.oddAnchors = map[string]int{}, nil
	for i, a := range l.anchors {
		letters := a != ""
		for j := 0; j < len(a); j++ {
			letters = letters && isLetter(a[j])
		}
		if letters {
			l.anchorWord[a] = i
		} else {
			l.oddAnchors = append(l.oddAnchors, i)
		}
	}
}

// markAnchors sets present[i] for each anchor a clause holds and says whether it holds
// any. An anchor of letters only is a whole word of its phrase, so a phrase matched as
// whole words leaves it a whole run of letters of the clause: one look-up per run finds
// it. A word that ends in a compound's roll word ("Kletterprobe") holds a ruling too.
func (l *Lexicon) markAnchors(clause string, present []bool) bool {
	any := false
	for i := 0; i < len(clause); {
		if !isLetter(clause[i]) {
			i++
			continue
		}
		j := i
		for j < len(clause) && isLetter(clause[j]) {
			j++
		}
		if k, ok := l.anchorWord[clause[i:j]]; ok {
			present[k], any = true, true
		}
		for _, c := range l.compound {
			any = any || j-i > len(c) && strings.HasSuffix(clause[i:j], c) // "Kletterprobe"
		}
		i = j
	}
	for _, k := range l.oddAnchors {
		if strings.Contains(clause, l.anchors[k]) {
			present[k], any = true, true
		}
	}
	return any
}

// butAfter says whether a but word of the lexicon stands in clause after from.
func (l *Lexicon) butAfter(clause string, from int) bool {
	return slices.ContainsFunc(l.but, func(b string) bool { return phraseAt(clause, b, from) >= 0 })
}
