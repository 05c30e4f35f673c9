package seduce

import (
	"slices"
	"strings"
)

// Rulings in the lexicons' languages read as grammar, not phrasings (issue 29, sixth
// round):
//   - answers: "of course not" in each language is a no, also where its first words
//     alone would be a yes ("claro que no", "natürlich nicht", "bien sûr que non"); a
//     question that names a roll in a lexicon's words ("Faut-il un jet pour …?") asks
//     whether the roll is needed, and the reply's own answer to it rules; a skill named
//     in a lexicon's words after a yes is the roll's ("¿Necesita tirada? Sí: Esquivar").

// answerNoMore are the lexicons' other ways of answering no: a yes word of certainty
// that a negation follows ("claro que no", "natürlich nicht", "certo che no", "bien sûr
// que non", "claro que não"), and the set phrases of a firm no ("pas du tout", "auf
// keinen Fall", "para nada", "per niente", "de jeito nenhum").
const answerNoMore = `|^\s*(?:bien\s+sûr|évidemment|certainement|absolument|sûrement|natürlich|klar|sicher|selbstverständlich|gewiss|claro|por\s+supuesto|desde\s+luego|evidentemente|obviamente|certo|ovviamente|naturalmente|sicuramente|certamente|natuurlijk|uiteraard|oczywiście|jasne)\s*(?:que|che|dass|,)?\s*(?:non|não|nao|no|nicht|pas|niet|nie)(?:[\s,.!:;]|$)` +
	`|^\s*(?:pas\s+du\s+tout|aucunement|keineswegs|auf\s+keinen\s+fall|gar\s+nicht|para\s+nada|de\s+ninguna\s+manera|de\s+ningún\s+modo|per\s+niente|niente\s+affatto|per\s+nulla|de\s+jeito\s+nenhum|de\s+modo\s+nenhum|nem\s+pensar|helemaal\s+niet|geenszins|wcale\s+nie|absolutnie\s+nie)(?:[\s,.!:;]|$)`

// askedRoll adds to q the roll a question clause (folded) asks about when it names one
// only by a ruling's word of the lexicon that a roll phrase holds ("Faut-il un jet pour
// monter ?", "Precisa de teste para abrir?"): a yes or no question that names a roll
// asks whether the roll is needed. Words of an automatic success, which no roll phrase
// holds, are left to the phrases that read them.
func (l *Lexicon) askedRoll(clause string, at int, q *cueTally) {
	for from := 0; from < len(clause); {
		i, head := l.headIdx.first(clause[from:])
		if i < 0 {
			return
		}
		i += from
		if l.rollWord(head) {
			q.add(cue{decision: DecisionRoll, from: at + i, to: at + i + len(head)})
			return
		}
		from = i + len(head)
	}
}

// rollWord says whether a roll phrase of the lexicon holds w as one of its words.
func (l *Lexicon) rollWord(w string) bool {
	return slices.ContainsFunc(l.roll, func(p string) bool {
		return slices.Contains(strings.Fields(p), w)
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
