package seduce

import "testing"

// TestProbeFourthRoundChatty is the eleventh probe table of the fourth round of issue
// 29: long chatty replies, with rules of thumb about when rolls are called for beside
// the reply's own ruling, in sentences of our own labelled before the parser read them.
func TestProbeFourthRoundChatty(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"c2", "Great question! In Call of Cthulhu, the Keeper only calls for rolls when there's a real chance of failure and failure would be interesting. Here, the investigator is just walking across a well-lit lobby to the front desk. There's no meaningful chance of failure, so I'd let this happen automatically.", DecisionPass, ""},
		{"c4", "Sure thing! Since the lock is a simple padlock and your investigator is a locksmith by trade, I wouldn't bother with a roll. Pop it open and let's move on!", DecisionPass, ""},
		{"c5", "What a tense moment! The cultist is right behind the door, and the investigator wants to hold it shut. I'm going to ask for an opposed STR roll here — your STR against his.", DecisionRoll, "STR"},
		{"c6", "I appreciate you checking! Honestly, this one doesn't need any dice at all. She knows the way home blindfolded.", DecisionPass, ""},
		{"c7", "So, reading a letter written in plain English, in good light, with no time pressure? That's automatic, no roll needed. If it were in Latin, we'd be talking about a Language roll.", DecisionPass, ""},
		{"c8", "Alright! This is a classic Spot Hidden situation. The clue is tucked behind the portrait, and nobody has pointed it out. Give me a Spot Hidden roll, and we'll see if your investigator notices the faint outline of the hidden compartment.", DecisionRoll, "Spot Hidden"},
		{"c9", "Let me think about this carefully. The jump is only a metre, but it's over a pit of something that's definitely moving. I want to say no roll, but the stakes are high... You know what, let's do a Jump roll.", DecisionRoll, "Jump"},
		{"c10", "Honestly, I could argue this either way. A strict Keeper would call for Stealth; a generous one would let it happen. I'm going to be generous: no roll.", DecisionPass, ""},
		{"c11", "This is really up to the table's style. Some groups roll for everything, others barely roll at all. For what it's worth, I'd probably skip the roll.", DecisionUnparsed, ""},
		{"c12", "Ah, this one's interesting! The player says she's sneaking past, but she's wearing high heels on a marble floor. I think we need a Stealth roll, and honestly, with those heels, I'd make it Hard.", DecisionRoll, "Stealth"},
	})
}
