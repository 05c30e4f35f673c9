package seduce

import "strings"

// otherSkills are Call of Cthulhu's skills, characteristics and rolls that the
// bundled taxonomy does not hold, by normSkill key: a reply that names one names a
// skill, which README-set3's labelling rules keep as written ("Drive Auto", "Luck",
// "DEX") and never read as a taxonomy skill one of its words happens to name
// ("Electrical Repair" is not Mechanical Repair). The keys of three letters are the
// characteristics' abbreviations, read only as written in capitals.
var otherSkills = map[string]bool{
	"accounting": true, "acrobatics": true, "animal handling": true, "anthropology": true,
	"appraise": true, "archaeology": true, "art/craft": true, "artillery": true,
	"charm": true, "computer use": true, "credit rating": true, "cthulhu mythos": true,
	"demolitions": true, "disguise": true, "diving": true, "drive auto": true,
	"electrical repair": true, "electronics": true, "fast talk": true, "history": true,
	"hypnosis": true, "intimidate": true, "law": true, "lip reading": true,
	"natural world": true, "navigate": true, "occult": true, "operate heavy machinery": true,
	"own language": true, "persuade": true, "pilot": true, "psychoanalysis": true,
	"psychology": true, "read lips": true, "ride": true, "sleight of hand": true,
	"survival": true, "language": true, "science": true, "luck": true, "sanity": true,
	"idea": true, "know": true, "perception": true, "athletics": true,
	"strength": true, "dexterity": true, "constitution": true, "intelligence": true,
	"education": true, "appearance": true, "power": true, "size": true,
	"str": true, "dex": true, "con": true, "int": true, "edu": true, "app": true,
	"pow": true, "siz": true, "san": true, "wisdom": true, "charisma": true,
}

// otherSkillKey is the otherSkills key name has, or "": a family's specialisation
// ("Language (Latin)", "Science (Chemistry)") counts as its family, and a
// characteristic's abbreviation only in capitals.
func otherSkillKey(name string) string {
	key := normSkill(name)
	if f, ok := family(key); ok {
		key = f
	}
	if !otherSkills[key] {
		return ""
	}
	if len(key) == 3 && name != strings.ToUpper(name) {
		return ""
	}
	return key
}

// inOtherSkill reports whether the words of text at [from, to), which name a skill of
// the taxonomy, end a longer name of another CoC skill that opens with the word before
// them: "Repair" in "Electrical Repair".
func inOtherSkill(text string, prev []int, to int) bool {
	if prev == nil || strings.ContainsAny(text[prev[1]:min(to, len(text))], ".,;:!?\n") {
		return false
	}
	return otherSkillKey(text[prev[0]:to]) != ""
}

// capitalOtherSkill is the first skill outside the taxonomy that text names as a
// skill's name is written, capitalised in mid-sentence ("We'll need a roll — Drive
// Auto"), kept as written; "" when there is none. Like capitalAlias it reads no word
// that opens a sentence, and it keeps a specialisation's parentheses
// ("Language (Latin)").
func capitalOtherSkill(text string) string {
	text = text[:min(len(text), 400)]
	locs := skillWord.FindAllStringIndex(text, -1)
	for i, loc := range locs {
		if c := text[loc[0]]; c < 'A' || c > 'Z' || i == 0 || !strings.ContainsAny(text[locs[i-1][1]:loc[0]], " ") || strings.ContainsAny(text[locs[i-1][1]:loc[0]], ".!?\n") {
			continue
		}
		if p := text[locs[i-1][0]]; strings.Contains(text[locs[i-1][1]:loc[0]], "(") && p >= 'A' && p <= 'Z' {
			continue // "Wisdom (Perception)" is read from "Wisdom"
		}
		for n := min(4, len(locs)-i); n > 0; n-- {
			end := locs[i+n-1][1]
			if n > 1 && strings.ContainsAny(text[loc[0]:end], ",;:") {
				continue
			}
			name := text[loc[0]:end]
			if rest := text[end:]; strings.HasPrefix(rest, " (") {
				if j := strings.IndexByte(rest[:min(len(rest), 40)], ')'); j >= 0 {
					name = text[loc[0] : end+j+1]
				}
			}
			if k := i + n; k < len(locs) && !strings.ContainsAny(text[end:locs[k][0]], ".,;:!?()\n") && text[locs[k][0]] >= 'A' && text[locs[k][0]] <= 'Z' {
				continue // "the Occult Society": a longer proper name
			}
			key := otherSkillKey(name)
			if key == "" {
				continue
			}
			// Every word of a name as a skill's is written starts with a capital, but
			// "of" ("Sleight of Hand"); a family alone ("Language") is no name.
			if !capitalWords(name) || commonNames[key] && !strings.HasSuffix(name, ")") || (key == "language" || key == "science") && !strings.HasSuffix(name, ")") {
				continue
			}
			return name
		}
	}
	return ""
}

// commonNames are the otherSkills keys that are common words too ("Good Luck", "the
// History Department"): capitalOtherSkill does not read them alone.
var commonNames = map[string]bool{"luck": true, "power": true, "size": true, "strength": true,
	"history": true, "law": true, "charm": true, "ride": true, "pilot": true, "know": true,
	"idea": true, "education": true, "appearance": true, "intelligence": true,
	"constitution": true, "survival": true, "diving": true}

// capitalWords reports whether every word of name but "of" starts with a capital.
func capitalWords(name string) bool {
	for _, w := range strings.Fields(name) {
		if w != "of" && (w[0] < 'A' || w[0] > 'Z') && w[0] != '(' {
			return false
		}
	}
	return true
}

// pastFunctionWords reads the skill a verb of rolling names past up to four short
// words after it (a subject pronoun, a beneficiary, a preposition: "io per te su",
// "pour toi en", "yo por ti en"), in the same clause: the skill's start, the end of the
// window read, and the skill, or "" when the words run into anything else first.
func (l *Lexicon) pastFunctionWords(clause, orig string, from int, tax *Taxonomy) (int, int, string) {
	for range 4 {
		j := from
		for j < len(clause) && clause[j] != ' ' {
			if c := clause[j]; c < 'a' || c > 'z' {
				return from, from, "" // punctuation, a digit or a capital ends the reach
			}
			j++
		}
		if j == from || j-from > 6 || j == len(clause) {
			return from, from, ""
		}
		from = j + 1
		end := min(len(clause), from+40)
		skill := l.lexSkill(clause[:end], orig[:end], from, tax)
		if skill == "" {
			continue
		}
		_, known := l.skillOf[firstWords(clause[from:end], skill)]
		if !strings.HasPrefix(clause[from:end], foldLower(skill)) && !known && !l.opensWithSkill(clause[from:end]) {
			continue
		}
		// Nothing may follow the skill in its clause but a parenthesis: in "Würfle
		// auf Schleichen und Klettern ist nicht nötig" the skill is another verb's.
		rest := strings.TrimLeft(clause[from:], " ")
		for range strings.Fields(skill) {
			rest = strings.TrimLeft(rest, " ")
			if k := strings.IndexByte(rest, ' '); k >= 0 {
				rest = rest[k:]
			} else {
				rest = ""
			}
		}
		rest = strings.TrimLeft(rest, " ")
		if strings.HasPrefix(rest, "(") {
			if k := strings.IndexByte(rest, ')'); k >= 0 {
				rest = strings.TrimLeft(rest[k+1:], " ")
			}
		}
		if rest == "" || !isLetter(rest[0]) {
			return from, end, skill
		}
		return from, from, ""

	}
	return from, from, ""
}

// slotMisspelt is a name before "roll" that the taxonomy does not know: the skill it
// misspells ("a Medecine roll"), as a skill field reads it, unless it is another CoC
// skill's own name; else the name as written.
func slotMisspelt(name string, tax *Taxonomy) string {
	if otherSkillKey(name) != "" {
		return name
	}
	if c, ok := misspelt(name, tax); ok {
		return c
	}
	return name
}

// otherSkillPrefix is the longest run of words opening words that names a CoC skill
// outside the taxonomy as a skill's name is written (every word capitalised, "of"
// aside), with how many words it takes; "" when they open with none.
func otherSkillPrefix(words []string) (string, int) {
	for n := min(len(words), 4); n > 0; n-- {
		name := strings.TrimRight(strings.Join(words[:n], " "), ".,;:!?")
		if name != "" && capitalWords(name) && otherSkillKey(name) != "" {
			return name, n
		}
	}
	return "", 0
}
