package seduce

// declinesAtEnd says whether a long reply that rules nothing declines in its last
// words: "…  But for this specific action, I won't give a ruling." A reply explains
// itself first and declines last as often as the other way round.
func declinesAtEnd(folded string, lex *Lexicon) bool {
	if len(folded) <= 400 {
		return false // the first 400 bytes were read
	}
	return lex.declines(folded[len(folded)-400:])
}
