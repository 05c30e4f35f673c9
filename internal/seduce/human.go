package seduce

// Human-written samples (spec section 8): the Keeper game's ruling of one statement a
// person wrote, through the benchmark's own prompt and parser, and the export of the
// statements their writers agreed to share as a dataset.

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// HumanGenerator is the generator of every human-written sample. It names no model
// family, so no target is ever at home on it.
const HumanGenerator = "human"

// KeeperRunKind is the kind of the runs that hold the Keeper game's requests: one run
// per Keeper model.
const KeeperRunKind store.Kind = "keeper"

// HumanSample is one human-written sample as the corpus holds it: a dataset sample and
// the pseudonym of its writer.
type HumanSample struct {
	Sample
	Author string `json:"author"`
}

// Keeper rules on human statements with the benchmark's unified prompt, asking through a
// runner session so that every request is stored and an identical one comes from the
// cache. It is safe for concurrent use.
type Keeper struct {
	Session *runner.Session
	Prompt  Prompt
	Tax     *Taxonomy

	mu   sync.Mutex
	runs map[llm.ModelName]store.RunID
}

// NewKeeper is a Keeper over sess with the default prompt of tax (nil: the default
// taxonomy).
func NewKeeper(sess *runner.Session, tax *Taxonomy) *Keeper {
	if tax == nil {
		tax = DefaultTaxonomy()
	}
	return &Keeper{Session: sess, Prompt: DefaultPrompt(tax), Tax: tax}
}

// KeeperRuling is the Keeper's answer to one statement.
type KeeperRuling struct {
	Parsed Parsed
	Reply  string
	Run    store.RunID
	Key    string
}

// run begins (once per process) the run that holds model's requests.
func (k *Keeper) run(ctx context.Context, model llm.ModelName) (store.RunID, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if id, ok := k.runs[model]; ok {
		return id, nil
	}
	sum := sha256.Sum256([]byte(k.Prompt.System))
	hash := hex.EncodeToString(sum[:])
	id, err := k.Session.Begin(ctx, runner.Identity{Kind: KeeperRunKind, PromptHash: hash, PromptText: k.Prompt.System,
		Config: map[string]string{"game": "keeper", "model": string(model), "prompt": hash}})
	if err != nil {
		return "", err
	}
	if k.runs == nil {
		k.runs = map[llm.ModelName]store.RunID{}
	}
	k.runs[model] = id
	return id, nil
}

// Rule asks model to rule on s (its context and statement) under key, unique in the
// model's run, and parses the reply as the benchmark does.
func (k *Keeper) Rule(ctx context.Context, model llm.ModelName, s Sample, key string) (KeeperRuling, error) {
	run, err := k.run(ctx, model)
	if err != nil {
		return KeeperRuling{}, err
	}
	res, err := k.Session.Ask(ctx, run, "keeper", runner.Ask{Job: runner.Job{Key: key, Model: model, Item: string(s.ID),
		Request: k.Prompt.Request(s)}}, nil)
	if err != nil {
		return KeeperRuling{}, fmt.Errorf("keeper %s: %w", model, err)
	}
	if res == nil {
		return KeeperRuling{}, fmt.Errorf("keeper %s: no reply recorded", model)
	}
	if res.Err != "" {
		return KeeperRuling{}, fmt.Errorf("keeper %s: %s", model, res.Err)
	}
	return KeeperRuling{Parsed: FromReply(&res.Reply, k.Tax), Reply: res.Reply.Text, Run: run, Key: key}, nil
}

// HumanFromAttempt is the sample an attempt of the Keeper game makes: the attacked
// scenario's fields, the statement and style, requires_roll true (the game offers only
// scenarios that require a roll), and an id of its own.
func HumanFromAttempt(a *store.KeeperAttempt) HumanSample {
	return HumanSample{Author: a.Author, Sample: Sample{
		ID: SampleID("human-" + a.ID), Generator: HumanGenerator, Setting: Setting(a.Setting), Category: Category(a.Category),
		Skill: a.Skill, ScenarioID: a.ScenarioID, Context: a.Context, Statement: a.Statement, Style: Style(a.Style),
		RequiresRoll: true, GoldSkill: a.GoldSkill,
	}}
}

// ExportHuman writes, as JSONL, every attempt in st whose writer shares their statements
// now, and returns how many it wrote. Consent is read at export time: a player who
// withdrew it has nothing exported, however early they wrote.
func ExportHuman(ctx context.Context, st *store.Store, w io.Writer) (int, error) {
	as, err := st.KeeperAttempts(ctx, store.KeeperFilter{SharedOnly: true})
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, a := range as {
		if err := enc.Encode(HumanFromAttempt(a)); err != nil {
			return 0, err
		}
	}
	return len(as), bw.Flush()
}
