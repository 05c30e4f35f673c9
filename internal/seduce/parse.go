package seduce

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// The ways a reply can be read, recorded in Parsed.How.
const (
	HowJSON    = "json"    // the requested JSON object (fenced, in prose, or slightly broken)
	HowLines   = "lines"   // "Decision: … / Skill: …" lines
	HowProse   = "prose"   // a plain-language ruling
	HowRefusal = "refusal" // the model declined
	HowNone    = "none"    // nothing readable
)

// Parsed is the ruling read from one reply.
type Parsed struct {
	Decision Decision
	// Skill is the taxonomy's name for the skill the reply named, the reply's own words
	// when the taxonomy does not know it, or "" when it named none.
	Skill string
	// How says which reading produced the ruling: json, lines, prose, refusal or none.
	// A reply that used a format but whose ruling is unclear or contradicts itself keeps
	// that format's How with Decision unparsed.
	How string
	// Reason is the reply's own "reason" field, when it gave one.
	Reason string
	// Rule names what decided: one of the Rule constants.
	Rule string
	// Span is the text the deciding rule read (for a contradiction, the two rulings
	// that disagree, joined by " | "), cut to maxSpan bytes.
	Span string
}

// String reads "roll Climb (json)".
func (p Parsed) String() string {
	s := string(p.Decision)
	if p.Skill != "" {
		s += " " + p.Skill
	}
	return s + " (" + p.How + ")"
}

// FromReply parses a model's reply. A provider-reported refusal or content filter is
// refused whatever the text says.
func FromReply(r *llm.Reply, tax *Taxonomy) Parsed {
	return FromReplyWith(r, tax, nil)
}

// FromReplyWith is FromReply reading the text with lex (nil: DefaultLexicon).
func FromReplyWith(r *llm.Reply, tax *Taxonomy, lex *Lexicon) Parsed {
	if r == nil {
		return Parsed{Decision: DecisionUnparsed, How: HowNone, Rule: RuleEmpty}
	}
	if r.Finish == llm.FinishRefusal || r.Finish == llm.FinishContentFilter {
		return Parsed{Decision: DecisionRefused, How: HowRefusal, Rule: RuleRefusal, Span: cutSpan(r.Refusal)}
	}
	if strings.TrimSpace(r.Text) == "" && strings.TrimSpace(r.Refusal) != "" {
		return Parsed{Decision: DecisionRefused, How: HowRefusal, Rule: RuleRefusal, Span: cutSpan(r.Refusal)}
	}
	return ParseReplyWith(r.Text, tax, lex)
}

// The rules that decide a reply, recorded in Parsed.Rule.
const (
	RuleJSON          = "json"          // the JSON object(s) of the reply, all agreeing
	RuleLabel         = "label"         // "Decision: …" / "Roll: yes" lines, a table or headers
	RuleProse         = "prose"         // a plain-language ruling
	RuleProseNegated  = "prose:negated" // a plain-language ruling read through a negation
	RuleAnyPart       = "any-part"      // a roll for one part of the action, none for another
	RuleContradiction = "contradiction" // two rulings of the reply disagree
	RuleUnreadable    = "unreadable"    // a decision field whose value says neither ruling
	RuleConditional   = "conditional"   // the only ruling is left open on a condition
	RuleHedge         = "hedge"         // a prose ruling the reply itself leaves open ("your call")
	RuleTruncated     = "truncated"     // the reply stops inside its JSON answer
	RuleEcho          = "echo"          // the reply repeats the answer template
	RuleRefusal       = "refusal"       // the model declined
	RuleUndetermined  = "undetermined"  // the reply says the ruling cannot be told
	RuleThinkOnly     = "think-only"    // nothing but a reasoning block
	RuleEmpty         = "empty"         // no text at all
	RuleNarrated      = "narrated"      // the reply only narrates the action succeeding
	RuleNone          = "none"          // no ruling found
	RuleUnexplained   = "unexplained"   // a prose ruling beside ruling words no rule read
	RuleVerdict       = "verdict"       // a long reply's closing verdict (closingVerdict)
)

// maxSpan bounds Parsed.Span.
const maxSpan = 240

// ParseReply reads the ruling in a model's reply (spec section 3) with the built-in
// lexicons; see ParseReplyWith.
func ParseReply(text string, tax *Taxonomy) Parsed {
	return ParseReplyWith(text, tax, nil)
}

// ParseReplyWith reads the whole reply, reasoning blocks (<think>, <thinking>,
// <reasoning>) set aside: every JSON object, every label line ("Decision: roll",
// "Roll: yes", a markdown table or headers) and every prose ruling, in English or in a
// language of lex. All of them agreeing give the ruling; a roll for one part of the
// action and none for another is a roll; any other disagreement is unparsed. A reply
// with no ruling but a refusal is refused; one that says the ruling cannot be told,
// leaves it open on a condition, echoes the template or stops mid-answer is unparsed.
// A reply that only narrates the action succeeding ("You wade into the stream."), with
// no word of a roll, an attempt, a failure or a condition, rules it automatic.
// A prose ruling stands only if the reply's last word on it is explained (the
// precision gate): ruling words after it that no rule reads and that lean the other way,
// or a correction after it not followed by the same ruling, leave the reply unparsed.
// A nil tax means DefaultTaxonomy, a nil lex DefaultLexicon. A long reply this leaves
// unparsed may still rule by its closing verdict (see closingVerdict, parse_verdict.go).
func ParseReplyWith(text string, tax *Taxonomy, lex *Lexicon) Parsed {
	if tax == nil {
		tax = DefaultTaxonomy()
	}
	if lex == nil {
		lex = DefaultLexicon()
	}
	p := heldRuling(text, closingVerdict(text, parseReplyOnce(text, tax, lex), tax, lex), tax, lex)
	return doubtedAnswer(text, p, lex) // parse_precision9.go
}

// parseReplyOnce is ParseReplyWith without the closing verdict.
func parseReplyOnce(text string, tax *Taxonomy, lex *Lexicon) Parsed {
	if tax == nil {
		tax = DefaultTaxonomy()
	}
	if lex == nil {
		lex = DefaultLexicon()
	}
	if strings.TrimSpace(text) == "" {
		return Parsed{Decision: DecisionUnparsed, How: HowNone, Rule: RuleEmpty}
	}
	body := strings.TrimSpace(stripReasoning(text))
	if body == "" {
		return Parsed{Decision: DecisionUnparsed, How: HowNone, Rule: RuleThinkOnly, Span: cutSpan(strings.TrimSpace(text))}
	}
	if lead, ok := danglingDash(body); ok {
		if p, ok := keptBeforeCut(body, tax, lex); ok {
			return p // "Yes, a Track roll. … and if she fails, the—" (parse_english9.go)
		}
		// "## Ruling\n\n**Roll required — ": the reply stops where its ruling was to go on.
		return Parsed{Decision: DecisionUnparsed, How: HowNone, Rule: RuleTruncated, Span: cutSpan(lead[max(0, len(lead)-60):])}
	}
	if loc := findEcho(body); loc != nil {
		return Parsed{Decision: DecisionUnparsed, How: HowNone, Rule: RuleEcho, Span: cutSpan(body[loc[0]:loc[1]])}
	}
	if strings.Contains(body, "~~") {
		if p, ok := struckRulings(body, tax, lex); ok {
			return p // "**Decision:** ~~Roll~~ Automatic success" (parse_precision9.go)
		}
	}
	var votes []vote
	var unreadable *vote
	blank := []byte(body)
	blankSpan := func(from, to int) {
		copy(blank[from:to], blankOut(body[from:to]))
		blank[from] = '\n' // what stood either side is not one clause
	}

	objs := findObjects(body, tax)
	found := false
	for _, o := range objs {
		blankSpan(o.from, o.to)
		found = found || o.r.found()
	}
	if !found {
		if lo, ok := parseLooseJSON(body, tax); ok {
			if kept, ok := truncatedAfterRuling(body, lo, tax, lex); lo.truncated && ok {
				lo = kept // "{"decision": "roll", "skill": "Track", "reason": "The trail cro"
			}
			if lo.truncated {
				return Parsed{Decision: DecisionUnparsed, How: HowJSON, Rule: RuleTruncated, Skill: lo.r.skill, Span: cutSpan(body[lo.from:lo.to])}
			}
			blankSpan(lo.from, lo.to)
			objs = append(objs, lo)
		}
	}
	for _, o := range objs {
		v := vote{skill: o.r.skill, rule: RuleJSON, how: HowJSON, from: o.from, to: o.to}
		if o.r.bad && unreadable == nil {
			u := v
			unreadable = &u
		}
		for _, d := range o.r.votes {
			v.d = d
			votes = append(votes, v)
		}
		if o.r.reason != "" && len(o.r.votes) > 0 && reasonLeftOpen(o.r.reason, o.r.votes[0], tax) {
			// "automatic_success … "reason": "Only if the rope is sound; otherwise Climb."":
			// the decision's own reason leaves it on a condition.
			return withSkill(Parsed{Decision: DecisionUnparsed, How: HowJSON, Rule: RuleConditional, Span: cutSpan(body[o.from:o.to])}, votes)
		}
		// A decision whose own reason rules the other way contradicts itself.
		if o.r.reason != "" && len(o.r.votes) > 0 {
			if rt := proseTally(o.r.reason, tax, lex); rt.n > 0 {
				if d, skill, _, _ := rt.outcome(false); d == DecisionRoll || d == DecisionPass {
					votes = append(votes, vote{d: d, skill: skill, rule: RuleJSON, how: HowJSON, from: o.from, to: o.to})
				}
			}
		}
	}

	blankUnchecked(blank) // an unticked box rules nothing, in a label line or in prose
	lr, lspans := parseLines(string(blank), tax)
	if lr.found() {
		v := vote{skill: lr.skill, rule: RuleLabel, how: HowLines, from: lspans[0][0], to: lspans[0][1]}
		if lr.bad && unreadable == nil {
			u := v
			unreadable = &u
		}
		for _, d := range lr.votes {
			v.d = d
			votes = append(votes, v)
		}
	}
	for _, sp := range lspans {
		blankSpan(sp[0], sp[1])
	}

	blankUnchecked(blank)
	blankAside(blank)
	blankTags(blank)
	blankSymbols(blank)
	blankDiceIdiom(blank)
	blankVariants(blank)
	blankEnglish9(blank, tax) // "Still a Climb roll, Dave.", "→ Throw roll" (parse_english9.go)
	endStrikes(blank)
	for i, c := range blank {
		if c == '*' || c == '#' || c == '`' || c == '_' || c == '~' || c == '[' || c == ']' {
			blank[i] = ' ' // formatting is not meaning
		}
	}
	orig := string(blank)
	t := proseTally(orig, tax, lex)
	corrected := false
	if t.hasRoll && t.hasPass || t.n > 0 && len(votes) > 0 {
		folded := adverbActually(foldLower(body))
		corrected = correctsItself(folded) || lex.correctionIdx.has(folded)
	}
	var proseVotes []vote
	if t.n > 0 {
		d, skill, rule, cues := t.outcome(corrected)
		if d == DecisionUnparsed {
			return withSkill(Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: rule, Span: cueSpans(body, cues)}, votes)
		}
		proseVotes = append(proseVotes, vote{d: d, skill: skill, rule: rule, how: HowProse, from: cues[0].from, to: cues[0].to, prose: true})
	}

	if len(votes) == 0 && len(proseVotes) > 0 && withdrawn(orig, proseVotes[0].from, tax, lex) {
		// "No roll is neede— scratch that, I need to think. Jump might be": the ruling is
		// taken back and none stands after it.
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: proseVotes[0].span(body)}
	}
	if len(votes) == 0 && len(proseVotes) > 0 && takenOntoCondition(foldLower(body[proseVotes[0].to:])) {
		// "No roll. Wait — is the door locked? If it's locked, Locksmith.": the ruling
		// is taken back and left on a condition.
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleConditional, Span: proseVotes[0].span(body)}
	}
	if len(votes) == 0 && len(proseVotes) > 0 && revisited(orig, proseVotes[0], tax, lex) {
		// "Roll First Aid. Actually hang on, it's a graze — don't bother.": a ruling
		// the reply goes back on stands only if it is made again after.
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: proseVotes[0].span(body)}
	}
	if len(votes) == 0 && len(proseVotes) > 0 {
		// The precision gate: every clause that holds a ruling's words must be read by
		// some rule, or lean no other way than the ruling. "No roll. Well — maybe a
		// Listen roll, if you want to be strict. No, no roll.": a clause no rule explains
		// leans to a roll beside a pass.
		for _, u := range t.unexplained {
			if leansOther(foldLower(orig[u[0]:u[1]]), orig[u[0]:u[1]], proseVotes[0].d, tax) {
				return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleUnexplained, Span: cutSpan(body[u[0]:u[1]])}
			}
		}
	}
	if len(votes) == 0 && len(proseVotes) > 0 && (proseVotes[0].d == DecisionPass && t.hedgedRoll || proseVotes[0].d == DecisionRoll && t.hedgedPass || t.wavered) {
		// "No roll. Well — maybe a Listen roll, if you want to be strict. No, no roll.":
		// a ruling, and the other offered unsure beside it, hedge between both.
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge, Span: proseVotes[0].span(body)}
	}
	if len(votes) == 0 && len(proseVotes) > 0 && correctedBack(foldLower(body), lex) {
		// "I was going to call for a Jump roll — on second thought, no, she's fine. …
		// no, I'll say roll after all.": corrected, then corrected back.
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: proseVotes[0].span(body)}
	}
	if len(votes) == 0 && t.openRuling {
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleConditional}
	}
	if len(votes) == 0 && truncatedRuling(body) {
		if p, ok := keptBeforeCut(body, tax, lex); ok {
			return p // "No roll needed. … longer than seems necess" (parse_english9.go)
		}
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleTruncated, Span: cutSpan(body[max(0, len(body)-60):])}
	}
	if len(votes) == 0 && len(proseVotes) > 0 {
		// Only prose rules: a phrase that hands the choice back leaves it open.
		folded := foldLower(body)
		if at, phrase := openPastDetail(folded, lex); at >= 0 && !finalWord.MatchString(folded[at:]) && !decidedAfter.MatchString(folded[at:]) && !leanOverruled(folded[at:], phrase, lex) &&
			!deliberationEnded(folded[at:], phrase, lex, tax) { // parse_english9.go
			if t.hasRoll && !t.hasPass && skillChoice.MatchString(folded) {
				// "Roll Jump, or maybe Climb. Hard to say which.": the roll is sure, the
				// skill left open.
				return Parsed{Decision: DecisionRoll, How: HowProse, Rule: RuleProse, Span: proseVotes[0].span(body)}
			}
			return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge, Span: cutSpan(body[at : at+len(phrase)])}
		}
		// "roll mechanical repair i guess": a hedge after the ruling, as the reply's last words.
		if mayMatch(folded, trailingHedgeWords) {
			if loc := trailingHedge.FindStringIndex(folded); loc != nil {
				return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge, Span: cutSpan(body[loc[0]:loc[1]])}
			}
		}
		// "I decline to rule... actually, fine: roll Track": a refusal taken back is
		// two stances, not a ruling.
		if at, phrase := lex.refusalIdx.first(folded); at >= 0 && (correctsItself(folded) || lex.correctionIdx.has(folded)) {
			return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: cutSpan(body[at:at+len(phrase)]) + " | " + cutSpan(body[proseVotes[0].from:proseVotes[0].to])}
		}
	}
	if len(votes) > 0 {
		// A structured answer, then words that hand the choice back: "{…} Then again, a
		// Jump roll might be fair."
		end := 0
		for _, v := range votes {
			end = max(end, v.to)
		}
		tail := foldLower(body[end:])
		if d := votes[0].d; t.n == 0 && !anyOf(votes, other(d)) && revisited(orig, vote{d: d, from: end}, tax, lex) {
			// "Decision: roll (Climb). Actually no, there's a ladder, she's fine.": the
			// structured answer, gone back on after it.
			return withSkill(Parsed{Decision: DecisionUnparsed, How: votes[0].how, Rule: RuleContradiction, Span: cutSpan(body[end:])}, votes)
		}
		if at, phrase := lex.openIdx.first(tail); at >= 0 && !handBack[phrase] && !finalWord.MatchString(tail[at:]) {
			return withSkill(Parsed{Decision: DecisionUnparsed, How: votes[0].how, Rule: RuleHedge, Span: cutSpan(phrase)}, votes)
		}
		if loc := concessiveTail.FindStringIndex(tail); loc != nil && leansOther(tail[loc[1]:], body[end+loc[1]:], votes[0].d, tax) {
			// "{"decision": "roll", …} — although honestly I'd just let her bandage it.":
			// the words after the answer concede the other ruling.
			return withSkill(Parsed{Decision: DecisionUnparsed, How: votes[0].how, Rule: RuleHedge, Span: cutSpan(body[end:])}, votes)
		}
		if structured := votes[0].d; !anyOf(votes, other(structured)) && (structured == DecisionPass && t.hedgedRoll || structured == DecisionRoll && t.hedgedPass ||
			unsureTail.MatchString(tail) && leansOther(tail, body[end:], structured, tax)) {
			// "Decision: automatic success. Perhaps a Listen roll would add tension.": the
			// answer, and the other ruling offered unsure beside it.
			return withSkill(Parsed{Decision: DecisionUnparsed, How: votes[0].how, Rule: RuleHedge, Span: cutSpan(body[end:])}, votes)
		}
		if at, ok := granted(foldLower(body), body, Parsed{Decision: votes[0].d}, votes[0], &t, tax, lex); ok && !anyOf(votes, other(votes[0].d)) {
			// "**Decision:** Roll (Climb) … Though automatic success wouldn't be crazy
			// either.": the answer, and the other ruling granted (parse_precision9.go)
			return withSkill(Parsed{Decision: DecisionUnparsed, How: votes[0].how, Rule: RuleHedge, Span: cutSpan(body[at:])}, votes)
		}
	}
	if len(votes)+len(proseVotes) > 0 && holdsAny(body, confidenceWords) && lowConfidence.MatchString(body) {
		// "Ruling: Roll Listen. Confidence: low": the reply says it is unsure of its ruling.
		return withSkill(Parsed{Decision: DecisionUnparsed, How: HowLines, Rule: RuleHedge, Span: cutSpan(lowConfidence.FindString(body))}, votes)
	}
	if unreadable != nil {
		return Parsed{Decision: DecisionUnparsed, How: unreadable.how, Rule: RuleUnreadable, Skill: unreadable.skill, Span: cutSpan(body[unreadable.from:unreadable.to])}
	}
	all := append(votes, proseVotes...)
	if len(all) == 0 {
		folded := foldLower(body)
		switch {
		case t.conditional && !lex.defersQuestion(folded[:min(len(folded), 400)]):
			return Parsed{Decision: DecisionUnparsed, How: HowNone, Rule: RuleConditional}
		case (t.hedgedRoll || t.hedgedPass) && lex.openIdx.has(folded):
			// "Arguably a Swim roll; arguably not. I'll leave it to you.": a ruling
			// offered unsure and handed back, not a refusal.
			return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge}
		case deniedRollRequestAt(folded, body, tax) >= 0:
			// "Roll request denied — you simply climb the ladder." (parse_refusal9.go)
			at, to := deniedRollRequest(folded, body, tax)
			return Parsed{Decision: DecisionPass, How: HowProse, Rule: RuleProse, Span: cutSpan(body[at:to])}
		case lex.undeterminedIdx.has(folded) && !refusesByDeferral(folded, lex):
			// "Das kann ich nicht entscheiden; das ist Sache eurer Spielleitung": not
			// undetermined but handed over (parse_refusal9.go).
			return Parsed{Decision: DecisionUnparsed, How: HowNone, Rule: RuleUndetermined}
		case isRefusal(body) || lex.refusalIdx.has(folded[:min(len(folded), 400)]) && !waitsOn(folded) || lex.declines(folded[:min(len(folded), 400)]) || declinesAtEnd(folded, lex) || refusedIn(objs) || lr.refused ||
			refusedWord[strings.Trim(folded, " .!\n")] || systemRefusal(body) || shortRefusal(body) || refusesByDeferral(folded, lex):
			if offersUnsure(folded, lex) {
				// "I'd rather not weigh in. Maybe a roll, maybe not.": half a refusal, half a hedge.
				return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge}
			}
			return Parsed{Decision: DecisionRefused, How: HowRefusal, Rule: RuleRefusal, Span: cutSpan(body)}
		}
		if d, at, to := tickedDecision(body); d != "" && !lex.openIdx.has(folded) && !t.hedgedRoll && !t.hedgedPass {
			// "- [x] Roll\n- [ ] No roll\n\nSkill: Listen": see tickedDecision.
			p := Parsed{Decision: d, How: HowLines, Rule: RuleLabel, Span: cutSpan(body[at:to])}
			if d == DecisionRoll {
				p.Skill = lr.skill
			}
			return p
		}
		if at, to := waivedOnAsking(body, tax); at >= 0 {
			// "[Jonah] can I roll Spot Hidden?\n[Keeper] nah, it's in the lock.": see waivedOnAsking.
			return Parsed{Decision: DecisionPass, How: HowProse, Rule: RuleProse, Span: cutSpan(body[at:to])}
		}
		if skill, at, to := keeperRoll(body, orig, folded, tax); at >= 0 {
			// "Spot Hidden for Ada: 31 vs 55", "Gimme Tracking, Bree": see keeperRoll.
			return Parsed{Decision: DecisionRoll, How: HowProse, Rule: RuleProse, Skill: skill, Span: cutSpan(body[at:to])}
		}
		if skill, at, to := keeperSounded(body, tax); at >= 0 {
			// "Listen for Bertie... *clatter* ... 63. Against your 45": parse_english9.go
			return Parsed{Decision: DecisionRoll, How: HowProse, Rule: RuleProse, Skill: skill, Span: cutSpan(body[at:to])}
		}
		if skill, at, to := lowerRollOther(body); at >= 0 {
			// "roll luck lol": parse_english9.go
			return Parsed{Decision: DecisionRoll, How: HowProse, Rule: RuleProse, Skill: skill, Span: cutSpan(body[at:to])}
		}
		if at, to := notEveryOne(folded); at >= 0 {
			// "Not every action needs a check, and this is one of them.": parse_english9.go
			return Parsed{Decision: DecisionPass, How: HowProse, Rule: RuleProse, Span: cutSpan(body[at:min(len(body), to)])}
		}
		if skill, at, to := calledForOne(body, tax); at >= 0 {
			// "… a Library Use roll here; in fact, I'm calling for one.": parse_english9.go
			return Parsed{Decision: DecisionRoll, How: HowProse, Rule: RuleProse, Skill: skill, Span: cutSpan(body[at:to])}
		}
		if at, to := narratedSuccess(folded); at >= 0 && !narrationBlocked(narrationScan(folded), body, tax) && hasComplement(folded, to) {
			return Parsed{Decision: DecisionPass, How: HowProse, Rule: RuleNarrated, Span: cutSpan(body[at:to])}
		}
		if at, to := narratedDone(body, folded, tax, lex); at >= 0 {
			return Parsed{Decision: DecisionPass, How: HowProse, Rule: RuleNarrated, Span: cutSpan(body[at:to])}
		}
		return Parsed{Decision: DecisionUnparsed, How: HowNone, Rule: RuleNone}
	}
	first := all[0]
	agree := true
	for _, v := range all[1:] {
		if v.d != first.d {
			agree = false
		}
	}
	if !agree && !corrected && t.hasPass && t.allPassPart && !anyOf(votes, DecisionPass) {
		// The structured answer and the prose both roll, and the prose's passes are
		// about other parts of the action.
		agree = true
		for i := range all {
			all[i].d = DecisionRoll
		}
		first = all[0]
	}
	if !agree {
		var other vote
		for _, v := range all {
			if v.d != first.d {
				other = v
				break
			}
		}
		return withSkill(Parsed{Decision: DecisionUnparsed, How: first.how, Rule: RuleContradiction,
			Span: cutSpan(body[first.from:first.to]) + " | " + cutSpan(body[other.from:other.to])}, votes)
	}
	if at, phrase := refusedBefore(body, all, lex); at >= 0 {
		// "I'm not able to help with that request. {"decision": "roll", …}": a refusal,
		// then a ruling set beside it with nothing that turns from one to the other.
		return withSkill(Parsed{Decision: DecisionUnparsed, How: first.how, Rule: RuleContradiction,
			Span: cutSpan(body[at:at+len(phrase)]) + " | " + cutSpan(body[first.from:first.to])}, votes)
	}
	p := Parsed{Decision: first.d, How: first.how, Rule: first.rule, Skill: first.skill, Span: cutSpan(body[first.from:first.to])}
	for _, v := range all {
		if p.Skill == "" && v.skill != "" && v.d == p.Decision {
			p.Skill = v.skill
		}
	}
	if p.Skill == "" && first.prose {
		p.Skill = firstSkill(orig, tax, false) // "**Roll** — Swim"
	}
	if p.Skill == "" && first.prose {
		p.Skill = capitalAlias(orig, tax) // "your Rifle shot … Roll it."
	}
	if p.Skill == "" && p.Decision == DecisionRoll {
		p.Skill = lr.skill // "- [x] Roll needed … Skill: Climb"
	}
	if p.Skill == "" && first.prose && p.Decision == DecisionRoll {
		p.Skill = capitalOtherSkill(orig) // "We'll need a roll — Drive Auto"
	}
	if p.Skill == "" && first.prose && p.Decision == DecisionRoll {
		p.Skill = boldLeadSkill(body, tax) // "**Mechanical Repiar**: …" (parse_english9.go)
	}
	if p.Skill == "" && first.prose && p.Decision == DecisionRoll {
		p.Skill = capitalMisspelt(orig, tax) // "roll their Libary Use" (parse_english9.go)
	}
	if p.Decision == DecisionRoll && first.prose && len(votes) == 0 {
		if c := correctedSkill(orig, p.Skill, tax); c != "" {
			p.Skill = c // "Fighting roll — sorry, I mean Dodge."
		}
	}
	if _, known := tax.Canonical(p.Skill); p.Skill != "" && !known && skillPrefix(p.Skill, tax) &&
		strings.HasSuffix(strings.TrimRight(body, " \t\n"), p.Skill) {
		// "Roll Sw": the reply stops inside the skill's name.
		return Parsed{Decision: DecisionUnparsed, How: p.How, Rule: RuleTruncated, Skill: p.Skill, Span: p.Span}
	}
	if p.Decision == DecisionRoll && t.either && first.prose {
		// A roll of one skill or another: the roll is the ruling and its skill is left
		// open, unless the reply says the choice depends on something.
		if strings.Contains(foldLower(body), "depend") {
			return Parsed{Decision: DecisionUnparsed, How: p.How, Rule: RuleHedge, Span: p.Span}
		}
		p.Skill = ""
	}
	for _, o := range objs {
		if o.r.reason != "" {
			p.Reason = o.r.reason
			break
		}
	}
	if p.Reason == "" {
		p.Reason = lr.reason
	}
	p.Skill = lex.cognate(p.Skill, tax) // {"skill": "Sigilo"}
	if p.Skill == "" && p.Decision == DecisionRoll && first.how == HowLines {
		p.Skill = lex.namedSkill(p.Span, tax) // "**Décision :** jet de Discrétion"
	}
	if len(votes) == 0 {
		if g, ok := precisionGate(body, p, first, &t, lex); ok {
			return g // round 7's precision gates (parse_gates.go)
		}
		if g, ok := precisionGate9(body, p, first, &t, tax, lex); ok {
			return g // round 9's precision gates (parse_precision9.go)
		}
	} else if g, ok := jokedAfter(body, votes); ok {
		return g
	}
	return p
}

// revisited says whether the reply goes back on its prose ruling v: a correction word
// of a lexicon after the ruling, and after it a ruling of the other kind, or no ruling
// but words that lean the other way ("Actually hang on, it's a graze — don't bother").
func revisited(text string, v vote, tax *Taxonomy, lex *Lexicon) bool {
	folded := foldLower(text[v.from:])
	at, phrase := lex.correctionIdx.first(folded)
	if at < 0 {
		return false
	}
	rest := text[v.from+at+len(phrase):]
	after := proseTally(rest, tax, lex)
	if after.n > 0 {
		d, _, _, _ := after.outcome(false)
		return d != v.d
	}
	foldedRest := foldLower(rest)
	return leansOther(foldedRest, rest, v.d, tax) || v.d == DecisionRoll && denial.MatchString(foldedRest)
}

// denial is a word that takes a roll back: "nah", "don't bother", "he's fine".
var denial = regexp.MustCompile(`\b(?:no|nah|nope|not|never|fine)\b|n['’]t\b`)

// danglingDash says whether body stops on a dash that leads on to words that never come
// ("Roll required — "), and returns body up to it. A dash as a label's value ("Skill: –")
// is a value, not a stop.
func danglingDash(body string) (string, bool) {
	lead := strings.TrimRight(body, " \t\r\n*_")
	for _, d := range []string{"—", "–"} {
		if rest, ok := strings.CutSuffix(lead, d); ok {
			return lead, !strings.HasSuffix(strings.TrimRight(rest, " \t*_"), ":")
		}
	}
	return "", false
}

// waitsOn says whether a reply that declines in a refusal's words asks for more first
// ("I can't make that call without knowing how far the jump is"): not a refusal.
func waitsOn(folded string) bool {
	return holdsAny(folded, askingMore)
}

// askingMore are words that ask for more before ruling.
var askingMore = []string{"without knowing", "without more", "need more", "need to know", "more information", "more context", "more details", "until i know"}

// worldClause opens a sentence with a condition on the world: "If it's locked, …".
var worldClause = regexp.MustCompile(`(?:^|[.!?;:]\s+|\n)(?:if|unless|assuming|provided)\s+(?:it|it['’]s|the|there|this|that|they['’]re)\b`)

// takenOntoCondition says whether the words after a reply's ruling take it back and put
// it on a condition: "Wait — is the door locked? If it's locked, Locksmith."
func takenOntoCondition(rest string) bool {
	return mayMatch(rest, worldClauseWords) && worldClause.MatchString(rest) && correctsItself(rest)
}

// worldClauseWords are the words every match of worldClause holds one of.
var worldClauseWords = requiredWords(worldClause)

// correctsItself says whether folded takes back something it said (selfCorrection),
// looking with the regular expression only where one of its words occurs.
func correctsItself(folded string) bool {
	return mayMatch(folded, selfCorrectionWords) && selfCorrection.MatchString(folded)
}

// selfCorrectionWords are the words every match of selfCorrection holds one of.
var selfCorrectionWords = requiredWords(selfCorrection)

// openAt is where the first phrase of the lexicon's open list stands in folded that
// leaves the ruling open, and which: not a rhetorical one ("I'm not sure why anyone
// would roll"), nor one the same sentence overrules ("…, but I am certain a Stealth roll
// is needed").
func openAt(folded string, lex *Lexicon) (int, string) {
	for from := 0; from < len(folded); {
		at, phrase := lex.openIdx.first(folded[from:])
		if at < 0 {
			return -1, ""
		}
		at += from
		if !notOpen.MatchString(folded[at+len(phrase):]) {
			return at, phrase
		}
		from = at + len(phrase)
	}
	return -1, ""
}

// notOpen follows an open phrase that leaves nothing open.
var notOpen = regexp.MustCompile(`^\s*(?:why|how)\s+(?:anyone|anybody|you|they|a\s+keeper|people|someone)\b|^[^.!?]*\bbut\s+i(?:['’]m|\s+am)\s+(?:certain|sure|confident)\b`)

// retraction takes back what was said before it.
var retraction = regexp.MustCompile(`\b(?:actually\s*,?\s*no\b|no\s*,?\s*wait\b|scratch\s+that|strike\s+that|forget\s+(?:that|what\s+i\s+(?:just\s+)?said)|i\s+take\s+(?:it|that)\s+back|never\s*mind(?:\s+that)?|disregard\s+(?:that|the\s+above))\b`)

// retractionWords are the words every match of retraction holds one of.
var retractionWords = []string{"actually", "wait", "scratch", "strike", "forget", "take", "never", "disregard"}

// withdrawn says whether the reply takes back, after from, the ruling that stands at from
// and rules nothing after the retraction.
func withdrawn(text string, from int, tax *Taxonomy, lex *Lexicon) bool {
	lower := asciiLower(text)
	if !holdsAny(lower[from:], retractionWords) {
		return false
	}
	loc := retraction.FindStringIndex(lower[from:])
	if loc == nil {
		return false
	}
	after := proseTally(text[from+loc[1]:], tax, lex)
	return after.n == 0
}

var (
	// concessiveTail opens words after a structured answer that concede something
	// against it: "Though …", "(Or just …", "— although honestly …".
	concessiveTail = regexp.MustCompile(`^[\s)*_>—–-]*(?:\(\s*)?(?:though|although|however|then\s+again|that\s+said|mind\s+you|to\s+be\s+fair|admittedly|or\s+(?:just|simply|maybe|perhaps)|but\s+(?:honestly|then|really|frankly)|honestly|frankly)\b`)
	// towardRoll and towardPass are words that lean to a ruling, however hedged.
	towardRoll = regexp.MustCompile(`\b(?:roll|rolls|rolling|check|dice|test)\b`)
	towardPass = regexp.MustCompile(`\b(?:automatic(?:ally)?|no\s+(?:roll|dice|check)|without\s+(?:a\s+|any\s+)?(?:roll|dice|check)|(?:just\s+)?let\s+(?:her|him|them|it|you|the\s+(?:player|investigator))\b|wave\s+(?:it|this|that|her|him|them)\s+through)`)
	// deniedRoll is a roll word denied, which leans to no roll.
	deniedRoll = regexp.MustCompile(`\b(?:no|without(?:\s+a|\s+any)?|not?\s+(?:a|any))\s+(?:roll|dice|check|test)`)
)

// leansOther says whether words conceded after a structured answer (folded, and orig as
// written) lean to the ruling other than d: a roll word or a skill's own name against a
// pass.
func leansOther(folded, orig string, d Decision, tax *Taxonomy) bool {
	if d == DecisionRoll {
		return towardPass.MatchString(folded)
	}
	return towardRoll.MatchString(deniedRoll.ReplaceAllString(folded, " ")) || firstSkill(orig[:min(len(orig), 200)], tax, false) != ""
}

// unsureTail offers something unsure: "perhaps …", "you could argue for …".
var unsureTail = regexp.MustCompile(`\b(?:perhaps|maybe|possibly|arguably|(?:could|might|may)\s+(?:well\s+)?(?:argue|make\s+(?:a|the)\s+case))\b`)

// lowConfidence is a label that gives the reply's confidence in its ruling as low.
var lowConfidence = regexp.MustCompile(`(?im)^[\s*_#>-]*(?:confidence|certainty)(?:\s+level)?[\s*_]*[:=][\s*_]*(?:low|very\s+low|unsure|uncertain|not\s+sure|poor|minimal|shaky|[0-4]?\d\s*%|0?\.[0-4]\d*\b)`)

// confidenceWords are the words every match of lowConfidence holds one of.
var confidenceWords = []string{"onfidence", "ertainty"}

// capitalAlias is the first skill text names by an alias written with a capital, as a
// skill's name is ("Rifle", "Spot"), or "". Only the first 400 bytes are read.
func capitalAlias(text string, tax *Taxonomy) string {
	text = text[:min(len(text), 400)]
	locs := skillWord.FindAllStringIndex(text, -1)
	for i, loc := range locs {
		if c := text[loc[0]]; c < 'A' || c > 'Z' || i == 0 || !strings.ContainsAny(text[locs[i-1][1]:loc[0]], " ") || strings.ContainsAny(text[locs[i-1][1]:loc[0]], ".!?\n") {
			continue // a capital that opens a sentence says nothing
		}
		for n := min(3, len(locs)-i); n > 0; n-- {
			if c, ok := tax.Canonical(text[loc[0]:locs[i+n-1][1]]); ok {
				if inOtherSkill(text, locs[i-1], locs[i+n-1][1]) {
					break // "Electrical Repair"
				}
				return c
			}
		}
	}
	return ""
}

// handBack are open phrases that, after a structured answer, hand over a detail of the
// scene ("whether to add a penalty die is your call"), not the ruling.
var handBack = map[string]bool{"your call": true, "up to you": true, "your choice": true,
	"judgment call": true, "judgement call": true, "hard to say": true}

// finalWord closes a reply's ruling past whatever hedge came before it: "…, yes, a
// Stealth roll is needed. Final."
var finalWord = regexp.MustCompile(`(?:^|[.!?:;]\s+|,\s*but\s+|\bbut\s+)(?:i['’]ll\s+(?:say|go\s+with|call\s+it)|i['’]m\s+(?:ruling|going\s+with|calling\s+it)|i\s+rule|my\s+ruling\s+is)\b[^?]*$|(?:^|[.!?]\s+)(?:so|going\s+with\s+[a-z'’ ]{1,20}|in\s+the\s+end|ultimately|bottom\s+line|my\s+verdict)\s*:\s*[^.!?:]{1,40}[.!]?\s*$|\bthat['’]s\s+my\s+(?:ruling|call|answer|decision)\b|\bmy\s+(?:ruling|call)\s+stands\b|\bno\s+question(?:\s+about\s+it)?\s*[.!]?\s*$|\bfinal(?:\s+(?:answer|ruling|call|decision))?\s*[.!]?\s*$|\bthat['’]s\s+final\b|\bfinal\s+(?:answer|ruling|call|decision)\s*:`)

// trailingHedgeWords are the words every match of trailingHedge holds.
var trailingHedgeWords = requiredWords(trailingHedge)

// skillChoice leaves open only which skill a roll is of.
var skillChoice = regexp.MustCompile(`\b(?:hard\s+to\s+say\s+which|one\s+of\s+the\s+two|one\s+of\s+them|either\s+(?:skill|one)\s+(?:works|is\s+fine|will\s+do)|which\s+skill\b)`)

func (v vote) span(body string) string { return cutSpan(body[v.from:v.to]) }

// trailingHedge is a hedge that ends the reply: "roll Climb, I guess", "no roll, maybe?".
var trailingHedge = regexp.MustCompile(`[\s,(—–-](?:i\s+guess|i\s+suppose|probably|maybe|perhaps|possibly)\s*\W*$|(?:^|[.!?]\s+)(?:maybe|perhaps|probably|possibly|or\s+not)\s*[.!?]`)

// endStrikes ends the words struck through ("~~roll~~ automatic") as a sentence of their
// own: struck or not, they are a ruling the reply wrote. Struck words that hold no
// ruling's word, a skill's name alone, are blanked: the name is withdrawn.
func endStrikes(b []byte) {
	open, from := false, 0
	for i := 0; i+1 < len(b); i++ {
		if b[i] != '~' || b[i+1] != '~' {
			continue
		}
		if open {
			b[i], b[i+1] = '.', ' '
			if !struckRuling.Match(b[from:i]) {
				// "~~Locksmith~~ ~~Mechanical Repair~~ Nothing": a name struck through
				// is withdrawn, and no ruling of the reply's.
				copy(b[from:i], blankOut(string(b[from:i])))
			}
		}
		open, from = !open, i+2
		i++
	}
}

// struckRuling are the words that make struck-through text a ruling taken back, which
// the reply's other words must agree with, rather than a name withdrawn.
var struckRuling = regexp.MustCompile(`(?i)\b(?:rolls?|check|test|dice|automatic\w*|success|needs?|needed|required|no|not)\b`)

// blankTags ends the text before and after a markup tag ("<answer>Dodge roll.</answer>"):
// a tag is formatting, and what it holds is a sentence of its own.
func blankTags(b []byte) {
	for i := 0; i < len(b); i++ {
		if b[i] != '<' {
			continue
		}
		j := i + 1
		if j < len(b) && b[j] == '/' {
			j++
		}
		k := j
		for k < len(b) && k-j <= 20 && (b[k] >= 'a' && b[k] <= 'z' || b[k] >= 'A' && b[k] <= 'Z' || b[k] == '_' || b[k] == '-') {
			k++
		}
		if k > j && k < len(b) && b[k] == '>' {
			copy(b[i:k+1], blankOut(string(b[i:k+1])))
			b[i] = '\n'
			i = k
		}
	}
}

// blankSymbols blanks emoji and other symbols ("🎲 Stealth roll!"): they are no words.
func blankSymbols(b []byte) {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if unicode.Is(unicode.So, r) || unicode.Is(unicode.Sk, r) || r == 0xFE0F || r == 0x200D {
			copy(b[i:i+n], "    "[:n])
		}
		i += n
	}
}

// uncheckedBox is a markdown task-list item left unticked, crossedItem a list item
// crossed out beside one ticked ("- ❌ Automatic success" / "- ✅ Roll: Medicine"): an
// option not chosen.
var (
	uncheckedBox = regexp.MustCompile(`(?m)^[ \t]*(?:[-*+][ \t]+)?\[ \][^\n]*`)
	crossedItem  = regexp.MustCompile(`(?m)^[ \t]*[-*+][ \t]+(?:❌|❎|✗|✘|✖️|✖|☐)[ \t]+[^\n]*`)
)

// crossMarks cross out a list item, tickMarks choose one.
var (
	crossMarks = []string{"❌", "❎", "✗", "✘", "✖", "☐"}
	tickMarks  = []string{"✅", "✔", "☑", "✓"}
)

// blankUnchecked blanks the unticked items of a task list ("- [ ] Automatic success"),
// so that only the ticked one rules.
func blankUnchecked(b []byte) {
	if strings.Contains(string(b), "[ ]") && taskOptions(b) { // parse_english9.go
		for _, loc := range uncheckedBox.FindAllIndex(b, -1) {
			copy(b[loc[0]:loc[1]], blankOut(string(b[loc[0]:loc[1]])))
		}
	}
	if holdsAny(string(b), crossMarks) && holdsAny(string(b), tickMarks) {
		for _, loc := range crossedItem.FindAllIndex(b, -1) {
			copy(b[loc[0]:loc[1]], blankOut(string(b[loc[0]:loc[1]])))
		}
	}
}

// narration is a reply's sentence that tells the action done, in the second person and
// with nothing in the way: "You wade into the stream.", "Sure, you find it." A reply that
// says nothing of a roll and narrates the action succeeding rules it automatic.
var (
	narration = regexp.MustCompile(`(?:^|[.!;:\n]\s*|\)\s*|,\s*|\band\s+|\s[—–-]+\s*)(?:keeper:\s*|sure,\s*|okay,\s*|ok,\s*)?(?:you|he|she|they)\s+(?:easily\s+|quickly\s+|simply\s+|just\s+)?(?:(?:find|reach|open|climb|step|leap|jump|read|pick|get|cross|wade|swim|spend|tear|bind|slip|walk|stroll|manage|unlock|lift|follow|spot|hear|notice|stride|hop|vault|clamber|scramble|flip|strike|draw|board|enter|catch|hop)s?|(?:push|reach|finish)(?:es)?|let\s+yourself|makes?\s+it)\b`)
	// narrationBlock are words that make a narration no plain success: an attempt, a
	// failure, a condition, a question of rolling.
	narrationBlock = regexp.MustCompile(`\b(?:fail|fails|failed|slip|slips|fall|falls|fell|can['’]?t|cannot|don['’]?t|doesn['’]?t|won['’]?t|try|tries|trying|attempt|attempts|almost|nearly|unless|if|roll|rolls|rolled|check|test|dice|d100|lose|struggle|struggles|would|could|might|should|may|need|needs|must|but|until|while|locked|blocked|stuck|barred|jammed|sealed|impossible|too|refuses|however|although|though|halfway|partway|midway|before|creaks?|gives\s+way|starts?\s+to)\b|\b(?:finds?|sees?|hears?|notices?|spots?)\s+nothing\b|\?|\d{1,3}\s*(?:/|vs)\s*\d{1,3}|\d{1,3}\s*%`)
)

// nextAction asks what the player does next, once the action is done: "Next?", "(What
// does she do?)". It puts no doubt on the action ("What now?" after a door found may
// be a door that will not open, and stays a question).
var nextAction = regexp.MustCompile(`(?:^|[.!]\s+|\(\s*)(?:next|what\s+(?:do|does)\s+(?:you|she|he|they)\s+do(?:\s+next|\s+now)?)\s*\?\s*\)?`)

// notObstacle is an obstacle denied: "it isn't even locked".
var notObstacle = regexp.MustCompile(`(?:\bnot|n['’]t)\s+(?:even\s+)?(?:locked|blocked|stuck|barred|jammed|sealed)\b`)

// narratedSuccess finds a narration of the action succeeding in a reply that says
// nothing else of how it goes; at is -1 when there is none.
func narratedSuccess(folded string) (at, to int) {
	if len(folded) > 1200 {
		return -1, -1
	}
	if strings.Contains(folded, "?") {
		folded = nextAction.ReplaceAllStringFunc(folded, func(s string) string { return blankOut(s[:len(s)-1]) + "." })
	}
	if narrationBlock.MatchString(notObstacle.ReplaceAllString(folded, " ")) {
		return -1, -1
	}
	if end := strings.TrimRight(folded, " \t\r\n"); end == "" || !strings.ContainsRune(".!:)\"”", rune(end[len(end)-1])) && !strings.HasSuffix(end, "”") {
		return -1, -1 // a narration cut off is no ruling
	}
	loc := narration.FindStringIndex(folded)
	if loc == nil {
		return -1, -1
	}
	return loc[0], loc[1]
}

// vote is one ruling found in a reply, and where.
type vote struct {
	d        Decision
	skill    string
	rule     string
	how      string
	from, to int
	prose    bool
}

// refusedIn says whether a JSON object of the reply declines to rule.
func refusedIn(objs []jsonObj) bool {
	for _, o := range objs {
		if o.r.refused {
			return true
		}
	}
	return false
}

func anyOf(votes []vote, d Decision) bool {
	for _, v := range votes {
		if v.d == d {
			return true
		}
	}
	return false
}

// withSkill gives an unparsed reply the skill its structured answer named, if any.
func withSkill(p Parsed, votes []vote) Parsed {
	for _, v := range votes {
		if v.skill != "" {
			p.Skill = v.skill
			break
		}
	}
	return p
}

func cueSpans(body string, cues []cue) string {
	var parts []string
	for _, c := range cues {
		parts = append(parts, cutSpan(body[c.from:c.to]))
	}
	return strings.Join(parts, " | ")
}

// cutSpan trims s of spaces and markdown and cuts it to maxSpan bytes at a rune boundary.
func cutSpan(s string) string {
	s = strings.TrimLeft(strings.Trim(s, " \t\r\n*#`_|"), "> ")
	if len(s) <= maxSpan {
		return s
	}
	i := maxSpan
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

func hasPhrase(s string, phrases []string) bool {
	at, _ := anyPhrase(s, phrases)
	return at >= 0
}

// findEcho finds the answer template in body, looking with the regular expression only
// where one of its literal parts occurs.
func findEcho(body string) []int {
	if !strings.Contains(body, "automatic_success") && !strings.Contains(body, "<skill") {
		return nil
	}
	return templateEcho.FindStringIndex(body)
}

var (
	// templateEcho is the answer template repeated instead of filled in.
	templateEcho = regexp.MustCompile(`"roll"\s*(?:\||/|\bor\b)\s*"automatic_success"|<skill\s+or\s+null>|"roll\s*\|\s*automatic_success"`)
	// selfCorrection marks a reply that takes back what it said: its two rulings are a
	// contradiction, never a roll for part of the action.
	selfCorrection = regexp.MustCompile(`\b(?:actually|on\s+second\s+thoughts?|on\s+reflection|scratch\s+that|i\s+take\s+(?:it|that)\s+back|let\s+me\s+reconsider)\b|\bwait\b|\bcorrection\b|\bupdate\b|\brevised\b|\bi\s+mean\b`)
)

var (
	reasoningBlock = regexp.MustCompile(`(?is)<(?:think|thinking|reasoning)\b[^>]*>.*?</(?:think|thinking|reasoning)\s*>`)
	// A closing tag with no opening one: the opening tag was part of the prompt template.
	reasoningTail = regexp.MustCompile(`(?is)^.*</(?:think|thinking|reasoning)\s*>`)
	// An opening tag never closed: the model stopped while still thinking.
	reasoningOpen = regexp.MustCompile(`(?is)<(?:think|thinking|reasoning)\b[^>]*>.*$`)
)

func stripReasoning(text string) string {
	if !strings.Contains(text, "<") {
		return text // every tag the patterns look for has one
	}
	text = reasoningBlock.ReplaceAllString(text, "")
	text = reasoningTail.ReplaceAllString(text, "")
	return reasoningOpen.ReplaceAllString(text, "")
}

// ruling gathers the decisions one reply states; more than one distinct decision, or a
// value that cannot be read, makes the reply unparsed.
type ruling struct {
	votes []Decision
	bad   bool
	// refused says a decision field declines to rule ("decision": "refused").
	refused bool
	skill   string
	reason  string
}

func (r *ruling) vote(d Decision) { r.votes = append(r.votes, d) }

func (r *ruling) found() bool { return len(r.votes) > 0 || r.bad }

// refusedWord are decision values that decline to rule.
var refusedWord = map[string]bool{"refused": true, "refuse": true, "refusal": true, "declined": true,
	"decline": true, "declining": true, "no ruling": true, "abstain": true, "abstained": true}

// refusedValue says a decision value declines to rule: a word ("refused") or a
// sentence ("I can't rule on this").
func refusedValue(v string) bool {
	if refusedWord[normWords(strings.Trim(v, " .!"))] {
		return true
	}
	folded := foldLower(v)
	return isRefusal(v) || DefaultLexicon().refusalIdx.has(folded) || DefaultLexicon().declines(folded) || refusesByDeferral(folded, DefaultLexicon())
}

// keyKind classifies a JSON or "Key: value" key.
type keyKind int

const (
	keyOther    keyKind = iota
	keyDecision         // a word: roll, automatic_success, pass, …
	keyMaybe            // a key that holds a decision word only sometimes ("result")
	keyNeedRoll         // a yes/no: true means roll
	keyAuto             // a yes/no: true means automatic success
	keySkill
	keyReason
)

func classifyKey(k string) keyKind {
	k = strings.Trim(normWords(k), " ?")
	k = strings.ReplaceAll(k, " ", "_")
	switch k {
	case "decision", "ruling", "verdict", "adjudication",
		// the same keys in the lexicons' languages: "Décision : jet", "Decisione: tiro"
		"décision", "decisione", "decisión", "decisão", "entscheidung", "urteil":
		return keyDecision
	case "outcome", "result", "resolution", "call", "answer":
		return keyMaybe
	case "requires_roll", "require_roll", "roll_required", "needs_roll", "need_roll", "roll_needed",
		"roll", "dice_roll", "requires_dice_roll", "dice_roll_required", "requires_a_roll",
		"requires_check", "check_required", "skill_check_required", "needs_check", "roll_necessary",
		"skill_roll_required", "mandatory_roll", "is_roll_required", "needs_a_roll", "needed", "required",
		"necessary", "roll_it", "dice", "dice_needed", "roll_check":
		return keyNeedRoll
	case "automatic_success", "auto_success", "automatic", "succeeds_automatically",
		"automatically_succeeds", "no_roll", "no_roll_needed", "auto_pass", "automatic_pass":
		return keyAuto
	case "skill", "skill_name", "relevant_skill", "skill_check", "skill_used", "skill_roll",
		"gold_skill", "applicable_skill",
		"compétence", "abilità", "habilidad", "perícia", "fertigkeit":
		return keySkill
	case "reason", "reasoning", "rationale", "justification", "explanation",
		"raison", "motif", "motivo", "motivazione", "razón", "grund", "begründung":
		return keyReason
	}
	for _, suffix := range []string{"_decision", "_ruling", "_verdict"} {
		if strings.HasSuffix(k, suffix) {
			return keyDecision
		}
	}
	return keyOther
}

// normWords lowercases and reads dashes and underscores as spaces.
func normWords(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

var (
	rollWords = map[string]bool{
		"roll": true, "roll required": true, "requires roll": true, "requires a roll": true,
		"roll needed": true, "needs roll": true, "needs a roll": true, "dice roll": true,
		"skill roll": true, "check": true, "skill check": true, "roll check": true, "test": true,
		"skill test": true, "mandatory roll": true, "required": true, "make a roll": true,
		"must roll": true, "roll for it": true, "dice": true, "requires dice roll": true,
		"requires a dice roll": true, "roll the dice": true, "needs a check": true, "check required": true,
		// the lexicons' languages: "Décision : jet", "Entscheidung: Probe"
		"jet": true, "jet de dés": true, "tiro": true, "tirada": true, "wurf": true, "probe": true,
		"rolagem": true, "teste": true, "prova": true,
	}
	passWords = map[string]bool{
		"automatic success": true, "automatic": true, "automatically": true, "auto": true,
		"auto success": true, "autosuccess": true, "automatic pass": true, "auto pass": true,
		"automatically succeeds": true, "succeeds automatically": true, "automatically successful": true,
		"pass": true, "passes": true, "no roll": true, "no roll needed": true, "no roll required": true,
		"no roll necessary": true, "no check": true, "no check needed": true, "no dice": true,
		"success": true, "succeed": true, "succeeds": true, "no roll automatic success": true,
		"not required": true, "direct success": true, "automatic successes": true, "no_roll": true,
		"none needed": true, "none required": true, "not needed": true, "none": true, "nothing needed": true,
		"unnecessary": true, "no dice needed": true,
		"succès automatique": true, "réussite automatique": true, "pas de jet": true, "aucun jet": true,
		"automatischer erfolg": true, "kein wurf": true, "keine probe": true, "éxito automático": true,
		"sin tirada": true, "successo automatico": true, "nessun tiro": true, "sucesso automático": true,
		"sem rolagem": true, "sem teste": true,
	}
	// decisionCut ends a decision word where an explanation starts.
	decisionCut = regexp.MustCompile(`\s+[-–—·•]\s+|[(,.;:!]|\s+because\s`)
)

// decisionWord reads a decision value: roll, automatic_success and their synonyms, or a
// short ruling in prose. It returns "" when the value says neither.
func decisionWord(v string, tax *Taxonomy) Decision {
	w := strings.Trim(normWords(v), " *`\"'.!")
	if rollWords[w] {
		return DecisionRoll
	}
	if passWords[w] {
		return DecisionPass
	}
	if loc := decisionCut.FindStringIndex(w); loc != nil {
		head := strings.Trim(w[:loc[0]], " *`\"'")
		if rollWords[head] {
			return DecisionRoll
		}
		if passWords[head] {
			return DecisionPass
		}
	}
	if p, ok := parseProse(v, tax); ok {
		if DefaultLexicon().openIdx.has(foldLower(v)) {
			return "" // "I'd say roll — but no roll is fine too"
		}
		return p.Decision
	}
	return ""
}

// yesNo reads a boolean value from JSON or text.
func yesNo(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		w := strings.Trim(normWords(x), " *`\"'.!")
		if i := decisionCut.FindStringIndex(w); i != nil && i[0] > 0 {
			w = strings.TrimSpace(w[:i[0]])
		}
		switch w {
		case "true", "yes", "y", "yep", "yeah", "yup", "affirmative", "required", "needed", "mandatory", "necessary", "✅", "✔", "✔️", "☑", "☑️", "✓":
			return true, true
		case "false", "no", "n", "nope", "nah", "negative", "not required", "not needed", "unnecessary", "none", "❌", "✖", "✖️", "✗", "✘", "❎":
			return false, true
		}
		return markedYesNo(w) // "✅ Yes", "No ❌"
	}
	return false, false
}

var noSkill = map[string]bool{"": true, "null": true, "none": true, "n/a": true, "na": true, "nil": true,
	"-": true, "—": true, "–": true, "--": true, "no skill": true, "not applicable": true, "no roll": true, "nothing": true}

var (
	skillDecoration = regexp.MustCompile(`(?i)^(?:an?\s+|the\s+)?(?:(?:hard|extreme|regular|opposed|difficult)\s+)?|\s+(?:skill\s+)?(?:roll|check|test|skill)$|\s*\(\s*\d+\s*%?\s*\)$|\s*\d+\s*%$`)
)

// skillValue reads a skill named in a field: canonical when the taxonomy knows it, else
// the reply's own words, "" for none.
func skillValue(v string, tax *Taxonomy) string {
	v = strings.Trim(strings.TrimSpace(v), "*`\"'.")
	if noSkill[strings.ToLower(v)] {
		return ""
	}
	if c, ok := tax.Canonical(v); ok {
		return c
	}
	bare := strings.TrimSpace(skillDecoration.ReplaceAllString(v, ""))
	if c, ok := tax.Canonical(bare); ok {
		return c
	}
	if bare == "" || noSkill[strings.ToLower(bare)] {
		return ""
	}
	if m := abilitySkill.FindStringSubmatch(bare); m != nil {
		if c, ok := tax.Canonical(m[1]); ok {
			return c // "Dexterity (Stealth)": an ability, then the skill
		}
	}
	if c := sameSkill(bare, tax); c != "" {
		return c // "Library Research": every word names Library Use
	}
	if c, ok := misspelt(bare, tax); ok {
		return c // "Libary Use", "Lisen"
	}
	return bare
}

// misspelt reads a name the taxonomy does not know as the one skill name or alias it
// misspells: one letter added, dropped, changed or swapped ("Lisen", "Medecine",
// "repiar"), two in a long name, never the first letter, never in a name under four
// letters. Two skills as near leave it unknown.
func misspelt(name string, tax *Taxonomy) (string, bool) {
	n := normSkill(name)
	if len(n) < 4 || len(n) > 40 {
		return "", false
	}
	best, found := "", 0
	for key, skill := range tax.index {
		if len(key) < 4 || key[0] != n[0] || abs(len(key)-len(n)) > 2 {
			continue
		}
		limit := 1
		if len(key) >= 9 && len(n) >= 9 {
			limit = 2
		}
		if editDistance(n, key) <= limit && skill != best {
			best, found = skill, found+1
		}
	}
	return best, found == 1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance is the optimal string alignment distance of a and b: insertions,
// deletions, substitutions and swaps of two neighbouring bytes.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// abilitySkill is the "Ability (Skill)" form of a skill name.
var abilitySkill = regexp.MustCompile(`^[A-Za-z]+\s*\(\s*([^()]+?)\s*\)$`)

// sameSkill is the skill every word of a name of two or three words names on its own,
// or "": "Library Research" is Library Use, "Electrical Repair" no skill of the
// taxonomy.
func sameSkill(name string, tax *Taxonomy) string {
	words := strings.Fields(name)
	if len(words) < 2 || len(words) > 3 {
		return ""
	}
	var same string
	for _, w := range words {
		c, ok := tax.Canonical(w)
		if !ok || same != "" && c != same {
			return ""
		}
		same = c
	}
	return same
}

// readObject adds what one JSON object says to r. It descends into nested objects so
// {"ruling": {"decision": "roll"}} is read too.
func readObject(m map[string]any, r *ruling, tax *Taxonomy) {
	named := "" // a skill under a key that names none, used when no skill key does
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		if sub, ok := v.(map[string]any); ok {
			readObject(sub, r, tax)
			continue
		}
		switch classifyKey(k) {
		case keyMaybe:
			if s, ok := v.(string); ok {
				if d := decisionWord(s, tax); d != "" {
					r.vote(d)
				}
			}
		case keyDecision:
			s, isString := v.(string)
			if !isString || strings.Contains(s, "?") || unsureValue.MatchString(foldLower(s)) {
				// "decision": true says nothing about which way, "roll (?)" and "roll,
				// probably" are unsure.
				r.bad = true
				continue
			}
			if d := decisionWord(s, tax); d != "" {
				r.vote(d)
			} else if refusedValue(s) {
				r.refused = true
			} else {
				r.bad = true
			}
		case keyNeedRoll, keyAuto:
			b, ok := yesNo(v)
			if !ok {
				r.bad = true
				continue
			}
			if classifyKey(k) == keyAuto {
				b = !b
			}
			if b {
				r.vote(DecisionRoll)
			} else {
				r.vote(DecisionPass)
			}
		case keySkill:
			if s, ok := v.(string); ok && r.skill == "" {
				r.skill = skillValue(s, tax) // "Swim or Climb" is kept as written
			}
		case keyReason:
			if s, ok := v.(string); ok && r.reason == "" {
				r.reason = strings.TrimSpace(s)
			}
		case keyOther:
			// "check": "Track": a key that names no skill, holding a skill's name.
			if s, ok := v.(string); ok && named == "" && skillishKey[normWords(k)] {
				if c, known := tax.Canonical(skillValue(s, tax)); known {
					named = c
				}
			}
		}
	}
	if r.skill == "" {
		r.skill = named
	}
	if len(r.votes) == 0 && !r.refused && r.reason != "" && (refusedValue(r.reason) || declinedReason(r.reason)) {
		// {"decision": null, "reason": "I'm not able to help with this request."}
		r.refused, r.bad = true, false
	}
}

// skillishKey are keys that hold a skill's name when their value is one.
var skillishKey = map[string]bool{"check": true, "test": true, "ability": true, "roll type": true,
	"roll skill": true, "which skill": true, "skill to roll": true, "roll for": true, "using": true}

// maxObjectStarts bounds the work spent looking for JSON in a long reply.
const maxObjectStarts = 200

// jsonObj is one JSON object of a reply, what it rules, and where it stands.
type jsonObj struct {
	r         ruling
	from, to  int
	truncated bool
}

// findObjects finds the JSON objects in text (bare, fenced or in prose) and reads the
// ruling of each.
func findObjects(text string, tax *Taxonomy) []jsonObj {
	var out []jsonObj
	starts := 0
	for i := 0; i < len(text) && starts < maxObjectStarts; {
		j := strings.IndexByte(text[i:], '{')
		if j < 0 {
			break
		}
		start := i + j
		starts++
		dec := json.NewDecoder(strings.NewReader(text[start:]))
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			i = start + 1
			continue
		}
		o := jsonObj{from: start, to: start + int(dec.InputOffset())}
		readObject(m, &o.r, tax)
		out = append(out, o)
		i = o.to
	}
	return out
}

// loosePair matches a quoted key and its value in JSON that does not decode: single
// quotes, trailing commas, a missing brace.
var loosePair = regexp.MustCompile(`["']([A-Za-z][A-Za-z_ -]{0,30})["']\s*:\s*("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|true|false|null|[A-Za-z_]+)`)

// parseLooseJSON reads the pairs of JSON that does not decode. A reply that stops
// before the object's closing brace is truncated: its ruling may be cut short.
func parseLooseJSON(text string, tax *Taxonomy) (jsonObj, bool) {
	m := map[string]any{}
	var o jsonObj
	o.from = -1
	for _, loc := range loosePair.FindAllStringSubmatchIndex(text, -1) {
		key, raw := text[loc[2]:loc[3]], text[loc[4]:loc[5]]
		if o.from < 0 {
			o.from = loc[0]
			if k := strings.LastIndexByte(text[:loc[0]], '{'); k >= 0 && strings.TrimSpace(text[k+1:loc[0]]) == "" {
				o.from = k
			}
		}
		o.to = loc[1]
		var v any
		switch {
		case raw == "true" || raw == "false":
			v = raw == "true"
		case raw == "null":
			v = nil
		case strings.HasPrefix(raw, `"`):
			var s string
			if json.Unmarshal([]byte(raw), &s) != nil {
				s = strings.Trim(raw, `"`)
			}
			v = s
		default:
			v = strings.Trim(raw, `'`)
		}
		if _, dup := m[key]; dup {
			// A repeated key is another object: read what is gathered so far.
			readObject(m, &o.r, tax)
			m = map[string]any{}
		}
		m[key] = v
	}
	readObject(m, &o.r, tax)
	if !o.r.found() {
		return jsonObj{}, false
	}
	if k := strings.IndexByte(text[o.to:], '}'); k >= 0 && strings.TrimSpace(strings.TrimRight(text[o.to:o.to+k], ", \n\t")) == "" {
		o.to += k + 1
	} else {
		o.truncated = true
	}
	return o, true
}

var (
	// lineDecor is what markdown puts around a "Key: value" line.
	lineDecor = regexp.MustCompile("[*`]+|[\\p{So}\\p{Sk}\\x{FE0F}\\x{200D}]+")
	keyLine   = regexp.MustCompile(`^\s*(?:#+\s*|>\s*|[-+•]\s+|\d+[.)]\s+)*["']?(\p{L}[\p{L}' _/-]{0,40}?)["']?\s*\??\s*[:=]\s*(.+?)\s*,?\s*$`)
	// keyQuestion is a key asked and answered yes or no on its line: "- **Roll?** Yes".
	keyQuestion = regexp.MustCompile(`(?i)^\s*(?:#+\s*|>\s*|[-+•]\s+|\d+[.)]\s+)*([A-Za-z][A-Za-z' _/-]{0,40}?)\s*\?\s*(yes|no|yep|nope|true|false|required|not\s+required|needed|not\s+needed)\W*$`)
)

// parseLines reads "Decision: roll" / "Skill: Climb" lines, in any case and with
// markdown decoration, also as the rows of a two-column table or as a header followed by
// its value. spans are where the lines it read stand, the decision lines first.
func parseLines(text string, tax *Taxonomy) (ruling, [][2]int) {
	var r ruling
	var decisionText []string
	var spans, others [][2]int
	// voteRow is the table row about a part of the action each vote came from (0 for
	// none), rowSkill the skill each such row names.
	var voteRow []int
	rowSkill := map[int]string{}
	var check struct {
		skill string
		span  [2]int
	}
	for _, l := range labelPairs(text) {
		value := strings.Trim(l.value, ` "'`)
		if l.row > 0 && classifyKey(l.key) == keySkill {
			rowSkill[l.row] = skillValue(value, tax)
		}
		for len(voteRow) < len(r.votes) {
			voteRow = append(voteRow, 0)
		}
		if l.loose && (!readable(l.key, value, tax) || proseUnderHeader(value)) { // proseUnderHeader: parse_english9.go
			continue
		}
		decided := true
		switch kind := classifyKey(l.key); kind {
		case keyMaybe:
			if d := decisionWord(value, tax); d != "" {
				decisionText = append(decisionText, value)
				r.vote(d)
			} else {
				decided = false
			}
		case keyDecision:
			decisionText = append(decisionText, value)
			if strings.Contains(value, "?") || unsureValue.MatchString(foldLower(value)) {
				r.bad = true // "Decision: roll (?)", "Decision: roll (probably)", "… — unless she's carrying the idol"
			} else if d := decisionWord(value, tax); d != "" {
				r.vote(d)
			} else if refusedValue(value) {
				r.refused = true
			} else {
				r.bad = true
			}
		case keyNeedRoll, keyAuto:
			decisionText = append(decisionText, value)
			b, ok := yesNo(value)
			if !ok {
				// "ROLL NEEDED: Stealth" names the skill where a yes belongs.
				if c, known := tax.Canonical(skillValue(value, tax)); known && kind == keyNeedRoll {
					r.vote(DecisionRoll)
					if r.skill == "" {
						r.skill = c
					}
					break
				}
				if kind == keyNeedRoll && len(strings.Fields(value)) <= 4 && capitalised(strings.TrimRight(value, ".!")) && !skillPrefix(value, tax) &&
					!notSkill[strings.ToLower(strings.Trim(strings.Fields(value)[0], ".!,"))] {
					// "Roll: Strength (Athletics)": a skill the taxonomy does not know.
					r.vote(DecisionRoll)
					if r.skill == "" {
						r.skill = skillValue(value, tax)
					}
					break
				}
				if c, ok := rolledSkillReason(value, tax); ok && kind == keyNeedRoll {
					// "Roll: Drive Auto — wet cobbles": the skill, then its reason.
					r.vote(DecisionRoll)
					if r.skill == "" {
						r.skill = c
					}
					break
				}
				if kind == keyAuto && len(strings.Fields(value)) >= 3 && !strings.Contains(value, "?") {
					// "No roll needed: the bridge is sound": the key is the ruling, the
					// value its reason.
					r.vote(DecisionPass)
					break
				}
				r.bad = true
				break
			}
			if (kind == keyNeedRoll) == b {
				r.vote(DecisionRoll)
				if r.skill == "" {
					r.skill = skillAfterYes(value, tax) // "Roll required: Yes — Drive Auto"
				}
			} else {
				r.vote(DecisionPass)
			}
		case keySkill:
			if c, ok := calledCheck(l.key, value, tax); ok && check.skill == "" {
				check.skill, check.span = c, valueSentence(text, l) // "Skill check: Handgun"
			}
			decided = false
			others = append(others, l.span)
			if r.skill == "" {
				r.skill = skillValue(value, tax)
				if c, ok := skillWithReason(r.skill, value, tax); ok {
					r.skill = c // "Skill: Spot Hidden — the trapdoor is under a rug"
				}
			}
		case keyReason:
			decided = false
			if r.reason == "" {
				r.reason = value
			}
		default:
			decided = false
			if c, ok := calledCheck(l.key, value, tax); ok && check.skill == "" {
				check.skill, check.span = c, valueSentence(text, l) // "Check: Strength (Jump)"
			}
		}
		if decided {
			spans = append(spans, valueSentence(text, l))
		}
		for len(voteRow) < len(r.votes) {
			voteRow = append(voteRow, l.row)
		}
	}
	if check.skill != "" && !r.found() {
		// A label that names the check and no other that rules: the check is called for.
		r.vote(DecisionRoll)
		r.skill = check.skill
		spans = append(spans, check.span)
		voteRow = append(voteRow, 0)
	}
	if d, skill, ok := partRows(r.votes, voteRow, rowSkill); ok {
		// A table that rules a roll for one part of the action and none for another
		// ("| Walk to the boat | No |", "| Dive for the chest | Yes | Swim |") is a roll.
		r.votes, r.skill = []Decision{d}, skill
	}
	if r.found() && r.skill == "" {
		// "Decision: Roll (Climb)" names the skill in the decision itself.
		for _, t := range decisionText {
			if s := firstSkill(t, tax, true); s != "" {
				r.skill = s
				break
			}
		}
	}
	return r, append(spans, others...)
}

// skillAfterYes is the skill a yes names after a dash ("Yes — Drive Auto"): the
// taxonomy's when it knows the name, else the name as written when it is capitalised as
// a skill's is; "" for none.
func skillAfterYes(value string, tax *Taxonomy) string {
	loc := yesDash.FindStringIndex(value)
	if loc == nil {
		return ""
	}
	name := strings.Trim(value[loc[1]:], " *_.!")
	if c, ok := tax.Canonical(name); ok {
		return c
	}
	if n := len(strings.Fields(name)); n == 0 || n > 3 || !capitalised(name) || notSkill[strings.ToLower(strings.Fields(name)[0])] {
		return ""
	}
	return skillValue(name, tax)
}

// yesDash is a yes and the dash after it.
var yesDash = regexp.MustCompile(`(?i)^\W*(?:yes|y|true|required|needed)\W*?\s+[-–—:]+\s*`)

// unsureValue is a decision value that hedges, concedes or holds a condition on the
// world after its ruling word.
var unsureValue = regexp.MustCompile(`\b(?:probably|maybe|perhaps|possibly|i\s+think|i\s+guess|tentative(?:ly)?|unless|depending|though|although|persuaded|or\s+not|not\s+sure|unsure|if\s+(?:the|it|it['’]s|there|she['’]s|he['’]s|they['’]re))\b`)

// partRows reads votes that all come from the rows of a table about parts of the action
// and disagree: a roll for one part is a roll, with the first such row's skill.
func partRows(votes []Decision, rows []int, rowSkill map[int]string) (Decision, string, bool) {
	if len(votes) < 2 {
		return "", "", false
	}
	rollRow, pass := 0, false
	for i, d := range votes {
		if rows[i] == 0 {
			return "", "", false
		}
		switch d {
		case DecisionRoll:
			if rollRow == 0 {
				rollRow = rows[i]
			}
		case DecisionPass:
			pass = true
		}
	}
	if rollRow == 0 || !pass {
		return "", "", false
	}
	return DecisionRoll, rowSkill[rollRow], true
}

// valueSentence is the span of a decision line up to the end of its value's first
// sentence: "Decision: roll. Actually, it's an automatic success." rules once in its
// label and once more in the prose after it, which is then read, not set aside.
func valueSentence(text string, l labelPair) [2]int {
	if l.loose {
		return l.span
	}
	line := text[l.span[0]:l.span[1]]
	v := strings.Index(line, l.value)
	if v < 0 {
		return l.span
	}
	loc := sentenceEnd.FindStringIndex(l.value)
	if loc == nil {
		return l.span
	}
	return [2]int{l.span[0], l.span[0] + v + loc[0] + 1}
}

// sentenceEnd ends a sentence followed by more words.
var sentenceEnd = regexp.MustCompile(`[.!?;]\s+\S`)

// readable says whether a header's value reads as what its key holds.
func readable(key, value string, tax *Taxonomy) bool {
	switch classifyKey(key) {
	case keyDecision, keyMaybe:
		return decisionWord(value, tax) != ""
	case keyNeedRoll, keyAuto:
		_, ok := yesNo(value)
		return ok
	case keySkill:
		_, ok := tax.Canonical(skillValue(value, tax))
		return ok || noSkill[strings.ToLower(strings.Trim(value, " .*"))]
	}
	return false
}

// labelPair is one key and value of a reply's label lines.
type labelPair struct {
	key, value string
	span       [2]int
	// loose pairs are a header and the line after it: one that reads as no ruling is
	// prose after a heading, not a broken answer.
	loose bool
	// row, above zero, is the row of a table whose first column names a part of the
	// action ("| Walk to the boat | No | — |"): its rulings are about that part.
	row int
}

var (
	tableRow = regexp.MustCompile(`^\s*\|\s*([^|]+?)\s*\|\s*([^|]*?)\s*\|\s*$`)
	// bareKey is a line holding a key alone, its value on the next line: "## Decision".
	bareKey = regexp.MustCompile(`^\s*(?:#+\s*|>\s*)*(\p{L}[\p{L}' _/-]{0,40}?)\s*:?\s*$`)
)

// tableCells splits a markdown table row into its trimmed cells, or returns nil.
func tableCells(line string) []string {
	t := strings.TrimSpace(line)
	if len(t) < 2 || t[0] != '|' || t[len(t)-1] != '|' {
		return nil
	}
	cells := strings.Split(t[1:len(t)-1], "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// isTableRule reports whether line is the |---|:--:| rule under a table's header.
func isTableRule(line string) bool {
	cells := tableCells(line)
	if cells == nil {
		return false
	}
	for _, c := range cells {
		if c == "" || strings.Trim(c, "-: ") != "" {
			return false
		}
	}
	return true
}

// labelPairs finds the "Key: value" pairs of text, with where each stands.
func labelPairs(text string) []labelPair {
	var out []labelPair
	type line struct {
		text     string
		from, to int
	}
	var lines []line
	for at := 0; at <= len(text); {
		end := strings.IndexByte(text[at:], '\n')
		if end < 0 {
			end = len(text) - at
		}
		lines = append(lines, line{text[at : at+end], at, at + end})
		at += end + 1
	}
	var header []string // a table's column keys, when its header row names them
	rows := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.ContainsAny(l.text, ":=|#") && !strings.Contains(l.text, "**") {
			header = nil
			continue
		}
		clean := lineDecor.ReplaceAllString(l.text, "")
		if strings.HasPrefix(strings.TrimSpace(l.text), "|") {
			clean = lineDecor.ReplaceAllString(checkMarks.Replace(l.text), "") // "| Needs roll | ✔️ |"
		}
		span := [2]int{l.from, l.to}
		if cells := tableCells(clean); cells != nil {
			if i+1 < len(lines) && isTableRule(lines[i+1].text) {
				header = nil
				for _, c := range cells {
					if classifyKey(c) != keyOther {
						header = cells
					}
				}
				if len(cells) == 2 && header != nil {
					w := strings.Trim(normWords(cells[1]), " *`\"'.!")
					if _, value := yesNo(cells[1]); value || rollWords[w] || passWords[w] {
						header = nil // "| Roll | No |": a key and its value above the rule
					}
				}
				if header != nil {
					i++ // the rule under the header
					continue
				}
			}
			if header != nil && len(cells) == len(header) {
				row := 0
				if classifyKey(header[0]) == keyOther && cells[0] != "" && !branchRow(header[0], cells[0]) {
					rows++
					row = rows
				}
				for k, c := range cells {
					if classifyKey(header[k]) != keyOther {
						out = append(out, labelPair{header[k], c, span, false, row})
					}
				}
				continue
			}
		} else {
			header = nil
		}
		if m := tableRow.FindStringSubmatch(clean); m != nil {
			if classifyKey(m[1]) != keyOther {
				out = append(out, labelPair{m[1], m[2], span, false, 0})
			}
			continue
		}
		if m := bareKey.FindStringSubmatch(clean); m != nil && classifyKey(m[1]) != keyOther && classifyKey(m[1]) != keyReason {
			// The value is the next non-blank line, when it is short and no key itself.
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j].text) == "" {
				j++
			}
			if j < len(lines) {
				v := strings.TrimSpace(lineDecor.ReplaceAllString(lines[j].text, ""))
				if v != "" && len(v) <= 60 && !strings.HasPrefix(strings.TrimSpace(lines[j].text), "#") && keyLine.FindStringSubmatch(v) == nil {
					out = append(out, labelPair{m[1], v, [2]int{l.from, lines[j].to}, true, 0})
					i = j
					continue
				}
			}
		}
		for _, part := range splitPairs([]string{l.text}) {
			m := keyLine.FindStringSubmatch(lineDecor.ReplaceAllString(part, ""))
			if m == nil {
				m = keyQuestion.FindStringSubmatch(lineDecor.ReplaceAllString(part, ""))
			}
			if marked := checkMarks.Replace(part); (m == nil || strings.TrimSpace(m[2]) == "" || yesNoKey(m[1])) && marked != part {
				m = keyLine.FindStringSubmatch(lineDecor.ReplaceAllString(marked, "")) // "- Roll: ✅"
			}
			if m == nil {
				continue
			}
			out = append(out, labelPair{m[1], m[2], span, false, 0})
		}
	}
	return out
}

// yesNoKey says whether a key holds a yes or a no, which a tick or a cross can write:
// "Roll: ✅ — Listen".
func yesNoKey(k string) bool {
	kind := classifyKey(k)
	return kind == keyNeedRoll || kind == keyAuto
}

// skillPrefix says whether name is the start of a skill's name cut short ("Swi").
func skillPrefix(name string, tax *Taxonomy) bool {
	n := normSkill(name)
	for _, sk := range tax.Skills() {
		if k := normSkill(sk); len(n) < len(k) && strings.HasPrefix(k, n) {
			return true
		}
	}
	return false
}

// checkMarks read a table cell's tick or cross as yes or no.
var checkMarks = strings.NewReplacer("✔️", "yes", "✔", "yes", "✅", "yes", "☑️", "yes", "☑", "yes", "✓", "yes",
	"❌", "no", "❎", "no", "✗", "no", "✘", "no", "✖️", "no", "✖", "no")

// boldKey is a bold "**Key:**" label.
var boldKey = regexp.MustCompile(`\*\*([A-Za-z][A-Za-z ]{0,30}?)(?::\*\*|\*\*:)`)

// pairSep separates "Key: value" pairs written on one line: "Decision: roll / Skill: Climb".
var pairSep = regexp.MustCompile(`\s+[/|·•]\s+`)

// splitPairs splits a line at pairSep when every piece after the first is a "Key: value"
// pair with a key parseLines reads; any other line is kept whole.
func splitPairs(lines []string) []string {
	var out []string
	for _, line := range lines {
		// "**Reason:** … **Skill:** Climb": a bold key later in the line starts a pair.
		if locs := boldKey.FindAllStringSubmatchIndex(line, -1); len(locs) >= 2 && strings.TrimLeft(line[:locs[0][0]], " \t-*+•>") == "" {
			var parts []string
			for k, loc := range locs {
				end := len(line)
				if k+1 < len(locs) {
					end = locs[k+1][0]
				}
				if k > 0 && classifyKey(line[loc[2]:loc[3]]) == keyOther {
					parts = nil
					break
				}
				parts = append(parts, line[loc[0]:end])
			}
			if parts != nil {
				out = append(out, parts...)
				continue
			}
		}
		parts := pairSep.Split(line, -1)
		for i, p := range parts[1:] {
			m := keyLine.FindStringSubmatch(lineDecor.ReplaceAllString(p, ""))
			if m == nil && i == len(parts)-2 && i > 0 || m == nil && len(parts) == 2 && keyLine.MatchString(lineDecor.ReplaceAllString(parts[0], "")) {
				parts = parts[:len(parts)-1] // "Roll: no · tossing a coin": a note after the pairs
				break
			}
			if m == nil || classifyKey(m[1]) == keyOther {
				parts = []string{line}
				break
			}
		}
		out = append(out, parts...)
	}
	return out
}

// refusal matches a reply that opens by declining the task.
var refusal = regexp.MustCompile(`(?i)^\W*(?:(?:i['’]m|i\s+am|i)\s+(?:sorry|afraid|apologi[sz]e)|sorry|unfortunately)?[^.!?]{0,30}?\b(?:i\s+(?:can['’]t|cannot|can\s+not|won['’]t|will\s+not|must\s+decline|(?:must\s+)?refuse(?:\s+to)?|am\s+unable\s+to|am\s+not\s+able\s+to|do\s+not\s+feel\s+comfortable|don['’]t\s+feel\s+comfortable)|i['’]m\s+(?:unable\s+to|not\s+able\s+to|not\s+comfortable))(?:\s*[.!]|\s+(?:help|assist|comply|continue|participate|provide|do\s+(?:that|this)|engage|fulfil|fulfill|answer|adjudicate|support|create|generate|write|produce|play|role|take\s+part|go\s+along|be\s+of\s+help|proceed|with\s+that)\b)`)

func isRefusal(text string) bool {
	if len(text) > 400 {
		text = text[:400]
	}
	return refusal.MatchString(text)
}
