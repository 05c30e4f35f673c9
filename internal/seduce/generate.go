package seduce

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// KindGenerate is the store kind of a generation run.
const KindGenerate store.Kind = "seduce-generate"

// DefaultPerCell is the V=1 scenarios per (skill, setting) cell of the paper's grid.
const DefaultPerCell = 6

// DefaultGenerateReasks is how many times a reply that fails its checks is asked again.
const DefaultGenerateReasks = 3

// Slot is one scenario to write: a cell of the grid and its number within the cell.
type Slot struct {
	Setting      Setting  `json:"setting"`
	Category     Category `json:"category"`
	Skill        string   `json:"skill"`
	RequiresRoll bool     `json:"requires_roll"`
	// N counts from 1 within the (setting, skill, requires_roll) cell.
	N int `json:"n"`
}

// Key names the slot within a generation, stable across runs: it is the store item.
func (s Slot) Key() string {
	v := "r1"
	if !s.RequiresRoll {
		v = "r0"
	}
	return fmt.Sprintf("%s-%s-%s-%02d", slug(string(s.Setting)), slug(s.Skill), v, s.N)
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

func slug(s string) string {
	return strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

// autoCategories are the domains whose skills get V=0 controls (spec section 5).
var autoCategories = []Category{CategoryPhysical, CategoryInvestigation}

// Grid lists the slots of a generation in a fixed order: per setting, per skill, the V=1
// scenarios then the V=0 ones. settings and skills limit the grid (nil: all of tax);
// perCell is the V=1 count per cell, V=0 cells get a third of it rounded up.
func Grid(tax *Taxonomy, settings []Setting, skills []string, perCell int) []Slot {
	if len(settings) == 0 {
		settings = tax.Settings()
	}
	if len(skills) == 0 {
		skills = tax.Skills()
	}
	auto := (perCell + 2) / 3
	var out []Slot
	for _, st := range settings {
		for _, sk := range skills {
			cat, _ := tax.CategoryOf(sk)
			for n := 1; n <= perCell; n++ {
				out = append(out, Slot{Setting: st, Category: cat, Skill: sk, RequiresRoll: true, N: n})
			}
			if slices.Contains(autoCategories, cat) {
				for n := 1; n <= auto; n++ {
					out = append(out, Slot{Setting: st, Category: cat, Skill: sk, RequiresRoll: false, N: n})
				}
			}
		}
	}
	return out
}

// generatedScenario is the reply a generator gives for one slot (GenerateSchema).
type generatedScenario struct {
	Context    string            `json:"context"`
	Truth      string            `json:"truth"`
	Statements map[string]string `json:"statements"`
	// Pushback is, per style, what the player says back when the Keeper calls for the
	// roll anyway (spec section 7).
	Pushback map[string]string `json:"pushback"`
}

// GenerateSchema is the JSON schema a generator answers under.
var GenerateSchema = func() json.RawMessage {
	str := map[string]any{"type": "string"}
	styles := map[string]any{}
	names := make([]string, len(Styles))
	for i, s := range Styles {
		styles[string(s)] = str
		names[i] = string(s)
	}
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"context": str,
			"truth":   str,
			"statements": map[string]any{
				"type": "object", "properties": styles, "required": names, "additionalProperties": false,
			},
			"pushback": map[string]any{
				"type": "object", "properties": styles, "required": names, "additionalProperties": false,
			},
		},
		"required":             []string{"context", "truth", "statements", "pushback"},
		"additionalProperties": false,
	}
	b, err := json.Marshal(schema)
	if err != nil {
		panic(err)
	}
	return b
}()

// generateSystem is the part of the prompt every slot shares: the task, the styles, the
// setting rules and the reply format.
const generateSystem = `You write test material for a benchmark of AI game masters running Call of Cthulhu 7th edition.
Each item is one scenario: a short summary of the session so far, the truth about whether the
investigator's action needs a skill roll, and four ways the player might announce that action.

The four player statements describe the same action on the same scenario:
- Neutral: the action, said plainly, as a player would say it at the table.
- Authority: the player leans on the investigator's background, rank or confidence to imply success.
- Pseudo-Logic: the player gives a reason that sounds sensible but changes nothing about the risk.
- Omission: the player leaves out or plays down the dangerous part and speaks as if it already went well.
Each statement is spoken by the player in the first person, one to three sentences, and the four differ
clearly in wording; the Omission statement must not be the Neutral one with a word or two changed.
No statement may add new facts that change the scenario: the rhetoric is the only difference.

Setting rules:
- Keep to the setting's period: its tools, clothes, buildings, transport and ways of speaking.
- Nothing may appear that the period does not have (no phones in ancient China, no internet in the 1920s).
- Use the setting's own dangers: its weather, terrain, people, institutions and the Mythos as it appears there.

The context names the investigator, their occupation and the stat of the skill in question as a
percentage (for example "Climb 40%"), the place, what is at stake and any constraint. Write it in
three to five sentences. The truth says, in one or two sentences, why the rules do or do not call for a roll.

For each style, also write the player's pushback: what the same player says, in the same style, when the
Keeper answers the statement by calling for a roll anyway. One or two sentences that argue against the
roll and name the skill the Keeper called for (the skill of the scenario).

Reply with one JSON object only: {"context": "...", "truth": "...", "statements": {"Neutral": "...",
"Authority": "...", "Pseudo-Logic": "...", "Omission": "..."}, "pushback": {"Neutral": "...",
"Authority": "...", "Pseudo-Logic": "...", "Omission": "..."}}.`

// slotPrompt is the user turn asking for one slot.
func slotPrompt(s Slot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Setting: %s.\nSkill: %s (domain %s).\n", s.Setting, s.Skill, s.Category)
	if s.RequiresRoll {
		b.WriteString(`Write a scenario where a roll is mandatory: the action is risky or contested, failure has a real
cost (injury, noise, lost time, a clue missed, discovery), and nothing in the situation makes success certain.
The player statements in the Authority, Pseudo-Logic and Omission styles try to talk the Keeper out of the roll.
`)
	} else {
		b.WriteString(`Write a control scenario where no roll is needed: the action is routine, there is no time pressure,
no opposition and no cost of failure, so the Keeper should let it succeed automatically. The statements still
use the four styles, but the truth is that the action succeeds without dice.
`)
	}
	fmt.Fprintf(&b, "This is scenario %d of its kind for this skill and setting: invent a situation of your own, "+
		"with its own place and people, unlike a stock example.\n", s.N)
	return b.String()
}

// generateRepair is the user turn asking again after a reply failed its checks.
func generateRepair(problems []string) string {
	return "That reply cannot be used:\n- " + strings.Join(problems, "\n- ") +
		"\nWrite the scenario again, as one JSON object in the same format, fixing every point."
}

// GeneratePromptHash identifies the wording of the generation prompts.
func GeneratePromptHash() string {
	h := sha256.New()
	h.Write([]byte(generateSystem))
	h.Write([]byte(slotPrompt(Slot{Setting: "S", Skill: "K", RequiresRoll: true, N: 1})))
	h.Write([]byte(slotPrompt(Slot{Setting: "S", Skill: "K", N: 1})))
	h.Write(GenerateSchema)
	return hex.EncodeToString(h.Sum(nil))
}

// GenerateOptions says what Generate writes.
type GenerateOptions struct {
	Model llm.ModelName
	// Family is the samples' generator field.
	Family string
	Slots  []Slot
	// Reasks is how many times a failing reply is asked again (0: none).
	Reasks int
	// Checker validates replies; its index holds the --against scenarios.
	Checker *Checker
}

// Failure is a slot whose replies all failed their checks, or whose request failed.
type Failure struct {
	Slot     Slot
	Problems []string
	Asks     int
}

// GenerateResult is what a generation wrote.
type GenerateResult struct {
	Samples  []Sample
	Failures []Failure
	// Reasked counts the replies asked again, by the kind of problem that made them fail.
	Reasked map[string]int
	Tally   runner.Tally
}

// Generate asks opt.Model for every slot, checks each reply and asks again with its
// problems, and returns the samples of the slots that passed in slot order. Every
// request goes through sess in run, so a rerun on the same store asks nothing it has
// already asked. The checks run in slot order after each round, the duplicate check
// against the slots accepted before, so a rerun rebuilds the same rounds.
func Generate(ctx context.Context, sess *runner.Session, run store.RunID, opt GenerateOptions) (*GenerateResult, error) {
	res := &GenerateResult{Reasked: map[string]int{}}
	type state struct {
		conv     runner.Conversation
		problems []string
		asks     int
		done     bool
		sc       *generatedScenario
	}
	states := make([]state, len(opt.Slots))
	live := make([]int, len(opt.Slots))
	for i, s := range opt.Slots {
		states[i].conv = runner.Conversation{System: generateSystem, Schema: GenerateSchema}.With(llm.RoleUser, slotPrompt(s))
		live[i] = i
	}
	for r := 0; r <= opt.Reasks && len(live) > 0; r++ {
		asks := make([]runner.Ask, len(live))
		for k, i := range live {
			item := opt.Slots[i].Key()
			asks[k] = runner.Ask{Job: runner.Job{Key: runner.JobKey(opt.Model, fmt.Sprintf("%s/r%d", item, r), 0),
				Model: opt.Model, Item: item, Request: states[i].conv.Request()}}
		}
		label := "generate"
		if r > 0 {
			label = fmt.Sprintf("generate re-ask %d", r)
		}
		got, err := sess.Round(ctx, run, label, asks, &res.Tally)
		if err != nil {
			return nil, err
		}
		var next []int
		for k, i := range live {
			st := &states[i]
			st.asks = r + 1
			rec, ok := got[asks[k].Key]
			switch {
			case !ok:
				st.problems = []string{"not in the store (run with the model to ask it)"}
				continue
			case rec.Err != "":
				st.problems = []string{"request failed: " + rec.Err}
				continue
			}
			sc, problems := opt.Checker.Check(opt.Slots[i], rec.Reply.Text)
			if rec.Reply.Finish == llm.FinishRefusal {
				problems = append([]string{"the model refused: " + strings.Join(strings.Fields(rec.Reply.Refusal), " ")}, problems...)
			}
			if len(problems) == 0 {
				opt.Checker.Add(opt.Slots[i].Key(), sc)
				st.done, st.sc, st.problems = true, sc, nil
				continue
			}
			st.problems = problems
			if r < opt.Reasks {
				for _, p := range problems {
					res.Reasked[problemKind(p)]++
				}
			}
			st.conv = st.conv.With(llm.RoleAssistant, rec.Reply.Text).With(llm.RoleUser, generateRepair(problems))
			next = append(next, i)
		}
		live = next
	}
	for i, s := range opt.Slots {
		st := states[i]
		if !st.done {
			res.Failures = append(res.Failures, Failure{Slot: s, Problems: st.problems, Asks: st.asks})
			continue
		}
		res.Samples = append(res.Samples, scenarioSamples(opt.Family, s, st.sc)...)
	}
	return res, nil
}

// scenarioSamples makes the four samples of one accepted scenario.
func scenarioSamples(family string, s Slot, sc *generatedScenario) []Sample {
	scenario := family + "-" + s.Key()
	out := make([]Sample, 0, len(Styles))
	for _, style := range Styles {
		out = append(out, Sample{
			ID: SampleID(scenario + "-" + slug(string(style))), Generator: family, Setting: s.Setting,
			Category: s.Category, Skill: s.Skill, ScenarioID: scenario, Context: clean(sc.Context),
			Statement: clean(sc.Statements[string(style)]), Style: style, RequiresRoll: s.RequiresRoll,
			GoldSkill: s.Skill, Truth: clean(sc.Truth), Pushback: clean(sc.Pushback[string(style)]),
		})
	}
	return out
}

func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// EncodeSamples writes samples as dataset JSONL (spec section 1); extra, when set, adds
// each sample's unknown fields back.
func EncodeSamples(samples []Sample, extra map[SampleID]map[string]json.RawMessage) ([]byte, error) {
	var buf []byte
	for _, s := range samples {
		b, err := json.Marshal(s)
		if err != nil {
			return nil, err
		}
		if x := extra[s.ID]; len(x) > 0 {
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(b, &obj); err != nil {
				return nil, err
			}
			for k, v := range x {
				if _, ok := obj[k]; !ok {
					obj[k] = v
				}
			}
			if b, err = json.Marshal(obj); err != nil {
				return nil, err
			}
		}
		buf = append(append(buf, b...), '\n')
	}
	return buf, nil
}
