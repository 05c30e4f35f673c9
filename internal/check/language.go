package check

import (
	"strings"
	"unicode"
)

// English is what LanguageOf says of an English transcript.
const English = "English"

// scripts name the language of a transcript written mostly in a script other than Latin;
// a script several languages share is named as such.
var scripts = []struct {
	table *unicode.RangeTable
	name  string
}{
	{unicode.Han, "Chinese"},
	{unicode.Hangul, "Korean"},
	{unicode.Cyrillic, "a language written in Cyrillic"},
	{unicode.Arabic, "a language written in Arabic script"},
	{unicode.Greek, "Greek"},
	{unicode.Hebrew, "Hebrew"},
	{unicode.Devanagari, "a language written in Devanagari"},
	{unicode.Thai, "Thai"},
}

// languageWords tell the languages written in Latin letters apart: a transcript's language
// is the one whose common words it uses most.
var languageWords = []struct {
	name  string
	words []string
}{
	{English, strings.Fields("the and of to is was you that it not have your with this")},
	{"French", strings.Fields("le les et des est vous une pas je du nous il qui")},
	{"German", strings.Fields("der die das und ist nicht sie ich ein zu den mit")},
	{"Spanish", strings.Fields("el los y es usted por las una del señor lo se")},
	{"Italian", strings.Fields("il che di è non per del sono lei gli una della")},
	{"Portuguese", strings.Fields("o não é um para os do você uma se ao")},
}

// LanguageOf names the language of the turns of t that the judge is shown: Chinese,
// Japanese, English, French, …, or "" when it cannot tell (no text, Latin letters
// without common words of a language it knows).
func LanguageOf(t *Transcript) string {
	var b strings.Builder
	for _, turn := range t.Turns {
		if !turn.Player {
			b.WriteString(turn.Text)
			b.WriteString("\n")
		}
	}
	return languageOfText(b.String())
}

func languageOfText(s string) string {
	counts := make([]int, len(scripts))
	latin, kana := 0, 0
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			kana++
			continue
		case unicode.Is(unicode.Latin, r):
			latin++
			continue
		}
		for i, sc := range scripts {
			if unicode.Is(sc.table, r) {
				counts[i]++
				break
			}
		}
	}
	best, most := -1, latin
	for i, n := range counts {
		if n > most {
			best, most = i, n
		}
	}
	// Japanese mixes kana into its Han characters; a stray kana in Chinese text is not it.
	if kana > most || (best == 0 && kana*10 >= counts[0]) {
		return "Japanese"
	}
	if best >= 0 {
		return scripts[best].name
	}
	if latin == 0 {
		return ""
	}
	return latinLanguage(s)
}

func latinLanguage(s string) string {
	words := map[string]int{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
		words[w]++
	}
	best, most := "", 0
	for _, l := range languageWords {
		n := 0
		for _, w := range l.words {
			n += words[w]
		}
		if n > most {
			best, most = l.name, n
		}
	}
	return best
}
