package seduce

import (
	"strings"
	"testing"
)

// Probe tables of the eighth round of issue 29 for long replies (150 words and more)
// and replies in the lexicons' languages: sentences of this round's own, labelled under
// README-set3's rules before the parser read them, with cases each rule must not fire on.

// scene8c are paragraphs of a long reply that set the scene and rule nothing.
var scene8c = []string{
	"Here is the situation as I read it. Miss Okafor is in the reading room of the county archive late on a wet Thursday afternoon. The archivist has gone to lunch and left her with the key to the map cabinet, a pot of tea and strict instructions not to smoke near the parchment. The drawers are numbered, the index card for the parish is in her hand, and the window behind her looks out over the churchyard where the whole business started three sessions ago.",
	"A word on the scene first, since it matters. The steamer is tied up at the coal wharf, the crew are ashore, and the only light on deck comes from a hurricane lamp hanging by the wheelhouse door. Mr. Baptiste has his own tools with him, the night is calm, and the watchman at the gate is more interested in his newspaper than in anybody walking along the quay. Nothing in the notes suggests the cult knows the party is here yet.",
	"Let me set out what the player told me. Dr. Halloran has spent two days in the village, she has spoken to the vicar, the publican and the old woman who keeps bees behind the chapel, and she has a notebook full of names and dates. Tonight she wants to sit in her room at the inn and put the pieces together before the others arrive on the morning train from London.",
}

// long8c joins a reply's paragraphs with a scene paragraph after the first.
func long8c(scene int, paras ...string) string {
	out := append([]string{paras[0], scene8c[scene]}, paras[1:]...)
	return strings.Join(out, "\n\n")
}

// TestProbeEighthRoundClosingVerdict holds long replies whose body argues both ways
// (the player's claim, the case for the other ruling, what some Keepers would do, what a
// roll would mean) and whose conclusion, opened by a marker of concluding, rules: the
// conclusion is the reply's ruling. The must-not-fire cases end open, on a condition,
// in a hedge, or rule only before the body takes the ruling back.
func TestProbeEighthRoundClosingVerdict(t *testing.T) {
	tax := DefaultTaxonomy()
	cases := []struct {
		name, text string
		want       Decision
		skill      string
	}{
		{"chatty so colon pass", long8c(0,
			"Oh, this is a nice little moment, and I think the player is worrying more than they need to.",
			"The player asked whether she should roll Library Use to find the map. I can see why: finding records is the classic Library Use job, and some Keepers would reach for the dice out of habit. But she knows the parish, the drawer is labelled, and nobody is rushing her. A roll here would only mean that a failure leaves her staring at a labelled drawer, which helps nobody.",
			"So: no roll. She opens the drawer, unfolds the tithe map and finds the field boundary the vicar lied about."), DecisionPass, ""},
		{"bottom line roll", long8c(1,
			"I went back and forth on this one, so bear with me.",
			"The case for letting it through is strong. Baptiste is a ship's engineer, the engine is one he knows, and under ordinary conditions I would never ask him to roll for a valve he has turned a thousand times. The player made exactly that argument, and made it well. The case against is that the valve is seized with rust and he is working by lamplight with his hands shaking from the cold.",
			"Bottom line: he makes a Mechanical Repair roll. If he fails, the wheel gives with a bang that the watchman will certainly hear."), DecisionRoll, "Mechanical Repair"},
		{"my ruling then", long8c(2,
			"This is the kind of question where I can see both sides.",
			"On the one hand, she has all night and nothing is threatening her, which usually means no roll. On the other hand, the clue that ties the names together is buried in a pattern nobody has spotted in thirty years, and working it out is exactly what her skill is for. Skipping the roll would hand her the solution for free.",
			"My ruling, then: she rolls Psychology. A success shows her that the vicar and the publican are telling the same rehearsed story."), DecisionRoll, "Psychology"},
		{"that's why", long8c(0,
			"The player wants a Spot Hidden roll, and I am going to say no to that, kindly.",
			"They are keen because their investigator has a high Spot Hidden and they have not used it all evening. I understand that. But the map is not hidden; it is in the drawer the index card names. Rolling for it would mean a failure where she cannot see a map lying in front of her, and that would make the game worse, not better.",
			"That's why there is no roll here: she simply finds the map, and the dice can wait for the churchyard."), DecisionPass, ""},
		{"step by step conclusion", long8c(1,
			"Step 1: what is the action? Baptiste wants to climb down the ladder into the coal bunker.",
			"Step 2: is anything uncertain? The ladder is iron, bolted to the hull, and dry. The player asked for a Climb roll, and in a storm I would call for one, but the night is calm. Step 3: does failure matter? Not really; he would just climb down more slowly.",
			"Conclusion: no roll needed. He climbs down into the bunker, and the smell of coal dust and something older meets him at the bottom."), DecisionPass, ""},
		{"in short after refusal of player", long8c(2,
			"I'm going to push back on the player here, and I hope they take it in good humour.",
			"They argued that a doctor never needs to roll to read people, and that asking for a roll would insult the character. I don't agree. Her Psychology is good, which is how her training shows, but the villagers have agreed their story in advance, and seeing through a rehearsed lie is not something her degree gives her for free.",
			"In short, she rolls Psychology, and a success tells her which of the three is lying."), DecisionRoll, "Psychology"},
		{"pbp post so", long8c(1,
			"[OOC] Catching up on everyone's posts from the weekend.",
			"@Baptiste: you asked whether you need to roll to find the manifest in the purser's office. Last time the drawer was locked and I made you roll Locksmith for it; this time the purser left it open on the desk when he went ashore.",
			"So, no roll for you this round: the manifest is on the desk and you can read it by the lamp. Next update on Friday."), DecisionPass, ""},
		{"verdict label at end", long8c(0,
			"Let me think through this carefully before I commit to anything.",
			"Some Keepers would hand this over for free, because she has the index card and the drawer number. Others would call for Library Use because archives are never as tidy as they look. The notes tell me the map she wants was misfiled after the flood of 1911 and is in the wrong drawer.",
			"Verdict: roll Library Use. On a success she finds it in the drawer for the next parish along."), DecisionRoll, "Library Use"},

		// must not fire: the conclusion leaves it open, on a condition or in a hedge
		{"ends open", long8c(0,
			"I have gone back and forth on this one.",
			"Some Keepers would call for Library Use here, because archives are never tidy. Others would let her find it for free, because the index card names the drawer. I can see both sides, and I do not know how your table usually plays it.",
			"So I'll leave it to you: it could be a Library Use roll or no roll at all, depending on how tidy you want the archive to be."), DecisionUnparsed, ""},
		{"ends on condition", long8c(1,
			"This one depends on something I don't know yet.",
			"If the valve is rusted, Baptiste needs to roll Mechanical Repair. If it is freshly oiled, there is no roll at all. The notes say nothing about its state, the player has not described it, and I would rather not guess at something that changes the whole scene.",
			"So it comes down to the valve: if it is seized, Mechanical Repair; if it is oiled, he just turns it. Tell me which and I will rule."), DecisionUnparsed, ""},
		{"ends in hedge", long8c(2,
			"Honestly I'm torn on this one, and I would rather say so than pretend to a certainty I do not have.",
			"She has all night and nothing threatens her, so no roll would be fine. But the pattern is subtle and her Psychology might be the right test for spotting the rehearsed story. I have seen it run both ways at good tables, and neither felt wrong at the time.",
			"So maybe a Psychology roll, maybe not. Your call."), DecisionUnparsed, ""},
		{"ruling only in the first lines", long8c(0,
			"So: no roll, she finds the map.",
			"Hmm, wait. The notes say it was misfiled after the flood, and that changes things. Some Keepers would still hand it over; others would make her roll Library Use to find it in the wrong drawer. I genuinely cannot decide which is fairer to the players.",
			"I'd want to know more about how your table plays before I ruled either way."), DecisionUnparsed, ""},
	}
	for _, tt := range cases {
		if n := len(strings.Fields(tt.text)); n < verdictMinWords {
			t.Errorf("%s: %d words; a long reply needs %d", tt.name, n, verdictMinWords)
		}
		got := ParseReply(tt.text, tax)
		if got.Decision != tt.want || tt.skill != "" && got.Skill != tt.skill {
			t.Errorf("%s: ParseReply = %v [%s %q]; want %s %s", tt.name, got, got.Rule, got.Span, tt.want, tt.skill)
		}
	}
}
