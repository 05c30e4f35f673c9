package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// RunKind is the store's kind for judge runs.
const RunKind store.Kind = "check-judge"

// JudgeOptions configure Judge.
type JudgeOptions struct {
	// Judges are the judge models; with several, each judges everything and their
	// agreement is reported.
	Judges []llm.ModelName
	// Replicates is how many times each judge answers each question (k, default 1).
	Replicates int
	// BatchSize is how many questions one request asks (default 10). A batch never
	// spans two dimensions, so each request carries one dimension's definition.
	BatchSize int
	// FollowUps is how many times unanswered questions are asked again: 0 means the
	// default of 2, a negative number none. After that they are recorded as missing,
	// never as "no".
	FollowUps int
	// Cases maps a case_id to its description, for transcripts that carry none.
	Cases map[string]string
}

func (o *JudgeOptions) defaults() {
	if o.Replicates < 1 {
		o.Replicates = 1
	}
	if o.BatchSize < 1 {
		o.BatchSize = 10
	}
	o.FollowUps = orDefault(o.FollowUps, 2)
}

// TranscriptMeta is what scores need of a transcript; runs keep it, so a report can be
// rebuilt from the store alone.
type TranscriptMeta struct {
	TrialID     TrialID `json:"trial_id"`
	CaseID      string  `json:"case_id"`
	Model       string  `json:"model"`
	Retries     int     `json:"retries"`
	Completed   *bool   `json:"completed,omitempty"`
	Outcome     string  `json:"outcome,omitempty"`
	Turns       int     `json:"turns"`
	PlayerTurns int     `json:"player_turns"`
	Source      string  `json:"source"`
	// Hash covers the transcript and the case description the judge was shown.
	Hash string `json:"hash"`
}

// Rating is one judge's answer to one question about one transcript.
type Rating struct {
	Judge     llm.ModelName `json:"judge"`
	Replicate int           `json:"replicate"`
	Trial     TrialID       `json:"trial_id"`
	Q         int           `json:"q"`
	ID        QuestionID    `json:"id"`
	Verdict   Verdict       `json:"answer"`
	Reason    string        `json:"reason,omitempty"`
	// Asks is how many requests carried the question (1 when answered at once).
	Asks int `json:"asks"`
	// Err is the error of a request that failed for good; the question is missing.
	Err string `json:"error,omitempty"`
}

// Judgement is everything a judge run produced.
type Judgement struct {
	Run         store.RunID
	Checklist   *Checklist
	Transcripts []TranscriptMeta
	Judges      []llm.ModelName
	Replicates  int
	// Ratings has one entry per judge, replicate, transcript and question.
	Ratings  []Rating
	Requests runner.Tally
	// Failed counts requests that failed for good; their questions are missing. A rerun
	// asks them again.
	Failed int
}

// checklistDoc is a checklist as a run's configuration keeps it.
type checklistDoc struct {
	Name    string      `json:"name"`
	Version int         `json:"version"`
	Hash    string      `json:"hash"`
	Domain  Domain      `json:"domain"`
	Dims    []Dimension `json:"dimensions"`
}

// judgeConfig identifies a judge run: the same inputs land in the same run and resume it.
type judgeConfig struct {
	Kind        store.Kind       `json:"kind"`
	Checklist   checklistDoc     `json:"checklist"`
	Transcripts []TranscriptMeta `json:"transcripts"`
	Judges      []llm.ModelName  `json:"judges"`
	Replicates  int              `json:"replicates"`
	BatchSize   int              `json:"batch_size"`
	FollowUps   int              `json:"follow_ups"`
	Prompts     string           `json:"prompts"`
}

// Judge asks each judge model the checklist about each transcript (stage 4): the
// questions of one dimension, BatchSize at a time, with the case description and the
// transcript as Evidence shows it (player turns withheld). Replies are read with
// ParseAnswers; the questions a reply leaves unanswered are asked again in the same
// conversation, up to FollowUps times, and then recorded as Missing. The run is
// resumable: the same call on the same store asks nothing already answered.
func Judge(ctx context.Context, e *runner.Session, cl *Checklist, ts []*Transcript, opt JudgeOptions) (*Judgement, error) {
	run, cfg, cases, err := prepareJudge(ctx, e, cl, ts, opt)
	if err != nil {
		return nil, err
	}
	j, err := judge(ctx, e, run, cl, cfg, judgePrompt(cl, ts, cases))
	if err != nil {
		return nil, e.Finish(ctx, run, err, false)
	}
	if err := e.Finish(ctx, run, nil, j.Failed > 0); err != nil {
		return nil, err
	}
	return j, nil
}

// JudgeJob is one transcript of a judge run with all a worker needs to judge it on its
// own: the judge's rounds and follow-ups about one transcript depend on each other, so
// they stay together. It is plain JSON, and carries no key.
type JudgeJob struct {
	// Checklist is the checklist as the run's configuration keeps it.
	Checklist  json.RawMessage `json:"checklist"`
	Meta       TranscriptMeta  `json:"meta"`
	Transcript *Transcript     `json:"transcript"`
	// Case is the case description the judge is shown.
	Case       string          `json:"case,omitempty"`
	Judges     []llm.ModelName `json:"judges"`
	Replicates int             `json:"replicates"`
	BatchSize  int             `json:"batch_size"`
	FollowUps  int             `json:"follow_ups"`
}

// PrepareJudge records the judge run as Judge does (the same identity, so a later Judge
// resumes it) and returns one JudgeJob per transcript without asking anything.
func PrepareJudge(ctx context.Context, e *runner.Session, cl *Checklist, ts []*Transcript, opt JudgeOptions) (store.RunID, []JudgeJob, error) {
	run, cfg, cases, err := prepareJudge(ctx, e, cl, ts, opt)
	if err != nil {
		return "", nil, err
	}
	doc, err := json.Marshal(cfg.Checklist)
	if err != nil {
		return "", nil, fmt.Errorf("judge: encode the checklist: %w", err)
	}
	jobs := make([]JudgeJob, len(ts))
	for i, t := range ts {
		jobs[i] = JudgeJob{Checklist: doc, Meta: cfg.Transcripts[i], Transcript: t, Case: cases[i], Judges: cfg.Judges,
			Replicates: cfg.Replicates, BatchSize: cfg.BatchSize, FollowUps: cfg.FollowUps}
	}
	return run, jobs, nil
}

// JudgeTranscript asks the judges about the one transcript of job, in run, with the
// same requests Judge makes for it: what is answered in the store is not asked again.
// The Judgement holds that transcript's ratings and what was asked; the run is left
// open for the caller to end.
func JudgeTranscript(ctx context.Context, e *runner.Session, run store.RunID, job *JudgeJob) (*Judgement, error) {
	if job.Transcript == nil {
		return nil, fmt.Errorf("judge: job of %s has no transcript", job.Meta.TrialID)
	}
	var d checklistDoc
	if err := json.Unmarshal(job.Checklist, &d); err != nil {
		return nil, fmt.Errorf("judge: job of %s: read its checklist: %w", job.Meta.TrialID, err)
	}
	cl := &Checklist{Source: "run " + string(run), Name: d.Name, Version: d.Version, Domain: d.Domain, Dims: d.Dims, StatedHash: d.Hash}
	if cl.Hash = canonicalHash(cl.Domain, cl.Dims, true); cl.Hash != d.Hash {
		return nil, fmt.Errorf("judge: job of %s: its checklist does not match its hash %s", job.Meta.TrialID, d.Hash)
	}
	cfg := judgeConfig{Kind: RunKind, Checklist: d, Transcripts: []TranscriptMeta{job.Meta}, Judges: job.Judges,
		Replicates: job.Replicates, BatchSize: job.BatchSize, FollowUps: job.FollowUps, Prompts: PromptHash()}
	return judge(ctx, e, run, cl, cfg, judgePrompt(cl, []*Transcript{job.Transcript}, []string{job.Case}))
}

// prepareJudge checks the options, begins (or resumes) the run and returns its
// configuration and each transcript's case description.
func prepareJudge(ctx context.Context, e *runner.Session, cl *Checklist, ts []*Transcript, opt JudgeOptions) (store.RunID, judgeConfig, []string, error) {
	opt.defaults()
	var judges []llm.ModelName
	for _, m := range opt.Judges {
		if !slices.Contains(judges, m) {
			judges = append(judges, m)
		}
	}
	opt.Judges = judges
	if len(opt.Judges) == 0 {
		return "", judgeConfig{}, nil, fmt.Errorf("judge: no judge model")
	}
	if len(ts) == 0 {
		return "", judgeConfig{}, nil, fmt.Errorf("judge: no transcripts")
	}
	metas := make([]TranscriptMeta, len(ts))
	cases := make([]string, len(ts))
	var all strings.Builder
	for i, t := range ts {
		cases[i] = t.CaseDescription
		if cases[i] == "" {
			cases[i] = opt.Cases[t.CaseID]
		}
		metas[i] = metaOf(t, cases[i])
		all.WriteString(metas[i].Hash)
	}
	cfg := judgeConfig{Kind: RunKind, Checklist: docOf(cl), Transcripts: metas, Judges: opt.Judges,
		Replicates: opt.Replicates, BatchSize: opt.BatchSize, FollowUps: opt.FollowUps, Prompts: PromptHash()}
	run, err := e.Begin(ctx, runner.Identity{Kind: RunKind, Config: cfg, InputHash: store.Hash([]byte(all.String())), PromptHash: PromptHash()})
	if err != nil {
		return "", judgeConfig{}, nil, err
	}
	return run, cfg, cases, nil
}

// judgePromptData is what the judge prompt (data/prompts/judge.tmpl) shows.
type judgePromptData struct {
	Domain Domain
	Dim    *Dimension
	Items  []Item
	// Case is the case description as a quoted JSON string ("" for none); Evidence is
	// the transcript as Evidence shows it. The template puts both in data blocks.
	Case     string
	Evidence string
	// Language names the transcript's language when it is not English ("" when it is,
	// or cannot be told), so the judge is told to answer in the asked format regardless.
	Language string
}

// judgeData is the judge prompt's data for the questions items of dim about t.
func judgeData(cl *Checklist, t *Transcript, caseText string, dim *Dimension, items []Item) judgePromptData {
	lang := LanguageOf(t)
	if lang == English {
		lang = ""
	}
	if caseText = oneLine(caseText); caseText != "" {
		caseText = quote(caseText)
	}
	return judgePromptData{Domain: domainFor(cl.Domain, t), Dim: dim, Items: items, Case: caseText,
		Evidence: Evidence(&cl.Domain, t), Language: lang}
}

// judgePrompt renders the first request of a unit about transcript ti of ts.
func judgePrompt(cl *Checklist, ts []*Transcript, cases []string) func(ti int, dim *Dimension, items []Item) string {
	return func(ti int, dim *Dimension, items []Item) string {
		return render("judge", judgeData(cl, ts[ti], cases[ti], dim, items))
	}
}

// Rescore rebuilds a judge run's Judgement from the store alone, parsing the stored
// replies again; it asks no model. ref is a run id, a unique prefix of one, or "latest".
func Rescore(ctx context.Context, st *store.Store, ref string) (*Judgement, error) {
	r, err := st.ResolveRun(ctx, RunKind, ref)
	switch {
	case errors.Is(err, store.ErrNoRuns):
		return nil, fmt.Errorf("no judge runs in store %s: run 'arbiter check judge' first", st.Path())
	case errors.Is(err, store.ErrNotFound):
		return nil, fmt.Errorf("run %q: not in store %s (see 'arbiter runs')", ref, st.Path())
	case err != nil:
		return nil, err
	}
	var cfg judgeConfig
	if err := json.Unmarshal(r.Config, &cfg); err != nil {
		return nil, fmt.Errorf("run %s: read its configuration: %w", r.ID, err)
	}
	if cfg.Kind != RunKind {
		return nil, fmt.Errorf("run %s is a %s run, not a judge run", r.ID, r.Kind)
	}
	d := cfg.Checklist
	cl := &Checklist{Source: "run " + string(r.ID), Name: d.Name, Version: d.Version, Domain: d.Domain, Dims: d.Dims, StatedHash: d.Hash}
	cl.Hash = canonicalHash(cl.Domain, cl.Dims, true)
	if cl.Hash != d.Hash {
		return nil, fmt.Errorf("run %s: its stored checklist does not match its hash %s", r.ID, d.Hash)
	}
	return judge(ctx, &runner.Session{Store: st}, r.ID, cl, cfg, nil)
}

func docOf(cl *Checklist) checklistDoc {
	return checklistDoc{Name: cl.Name, Version: cl.Version, Hash: cl.Hash, Domain: cl.Domain, Dims: cl.Dims}
}

func metaOf(t *Transcript, caseText string) TranscriptMeta {
	m := TranscriptMeta{TrialID: t.TrialID, CaseID: t.CaseID, Model: t.Model(), Retries: t.Retries,
		Completed: t.Completed, Outcome: t.Outcome, Turns: len(t.Turns), Source: t.Source,
		Hash: store.Hash([]byte(t.Hash() + "\x00" + caseText))}
	for _, turn := range t.Turns {
		if turn.Player {
			m.PlayerTurns++
		}
	}
	return m
}

// batch is a run of questions of one dimension asked together.
type batch struct {
	id    string
	dim   int
	items []Item
}

func batches(cl *Checklist, size int) []batch {
	var out []batch
	items := cl.Items()
	for di, d := range cl.Dims {
		var mine []Item
		for _, it := range items {
			if it.Dim == di {
				mine = append(mine, it)
			}
		}
		for k := 0; k*size < len(mine); k++ {
			out = append(out, batch{id: fmt.Sprintf("%s-b%d", d.Short, k+1), dim: di, items: mine[k*size : min((k+1)*size, len(mine))]})
		}
	}
	return out
}

// unit is one judge's conversation about one batch of one transcript.
type unit struct {
	judge   llm.ModelName
	rep     int
	ti      int
	b       *batch
	conv    runner.Conversation
	answers map[int]Answer
	asks    map[int]int
	pending []Item
	err     string
}

// judge runs (or, offline, replays) the rounds of a judge run. prompt renders a
// unit's first request; it is nil offline, where no request is built.
func judge(ctx context.Context, e *runner.Session, run store.RunID, cl *Checklist, cfg judgeConfig,
	prompt func(ti int, dim *Dimension, items []Item) string) (*Judgement, error) {
	bs := batches(cl, cfg.BatchSize)
	var units []*unit
	system := render("judge_system", nil)
	for _, jm := range cfg.Judges {
		for rep := range cfg.Replicates {
			for ti := range cfg.Transcripts {
				for bi := range bs {
					u := &unit{judge: jm, rep: rep, ti: ti, b: &bs[bi], answers: map[int]Answer{}, asks: map[int]int{}, pending: bs[bi].items}
					if prompt != nil {
						u.conv = runner.Conversation{System: system,
							Messages: []llm.Message{{Role: llm.RoleUser, Text: prompt(ti, &cl.Dims[bs[bi].dim], bs[bi].items)}}}
					}
					units = append(units, u)
				}
			}
		}
	}
	j := &Judgement{Run: run, Checklist: cl, Transcripts: cfg.Transcripts, Judges: cfg.Judges, Replicates: cfg.Replicates}
	for r := 0; r <= cfg.FollowUps; r++ {
		var live []*unit
		var asks []runner.Ask
		for _, u := range units {
			if len(u.pending) == 0 || u.err != "" {
				continue
			}
			item := fmt.Sprintf("%s/%s/f%d", cfg.Transcripts[u.ti].TrialID, u.b.id, r)
			want := make(map[int]string, len(u.pending))
			for _, it := range u.pending {
				want[it.N] = it.Text
			}
			asks = append(asks, runner.Ask{Job: runner.Job{Key: runner.JobKey(u.judge, item, u.rep), Model: u.judge, Item: item, Replicate: u.rep, Request: u.conv.Request()},
				Outcome: func(reply string) string { return answersJSON(ParseAnswers(reply, want)) }})
			live = append(live, u)
		}
		if len(live) == 0 {
			break
		}
		label := "judge"
		if r > 0 {
			label = fmt.Sprintf("judge follow-up %d", r)
		}
		got, err := e.Round(ctx, run, label, asks, &j.Requests)
		if err != nil {
			return nil, err
		}
		for k, u := range live {
			res, ok := got[asks[k].Key]
			for _, it := range u.pending {
				u.asks[it.N]++
			}
			switch {
			case !ok:
				u.err = "no reply recorded"
				continue
			case res.Err != "":
				u.err = res.Err
				j.Failed++
				continue
			}
			want := make(map[int]string, len(u.pending))
			for _, it := range u.pending {
				want[it.N] = it.Text
			}
			// Read from the reply, not the stored outcome, so a parser fix applies to old runs.
			for q, a := range ParseAnswers(res.Reply.Text, want) {
				u.answers[q] = a
			}
			var still []Item
			for _, it := range u.pending {
				if _, ok := u.answers[it.N]; !ok {
					still = append(still, it)
				}
			}
			u.pending = still
			if len(still) > 0 && r < cfg.FollowUps && prompt != nil {
				u.conv = u.conv.With(llm.RoleAssistant, res.Reply.Text).
					With(llm.RoleUser, render("followup", struct{ Items []Item }{still}))
			}
		}
	}
	for _, u := range units {
		for _, it := range u.b.items {
			a := u.answers[it.N]
			rt := Rating{Judge: u.judge, Replicate: u.rep, Trial: cfg.Transcripts[u.ti].TrialID, Q: it.N, ID: it.ID,
				Verdict: a.Verdict, Reason: a.Reason, Asks: u.asks[it.N]}
			if a.Verdict == Missing {
				rt.Err = u.err
			}
			j.Ratings = append(j.Ratings, rt)
		}
	}
	return j, nil
}

// answersJSON is parsed answers in question order, as stored beside a reply.
func answersJSON(as map[int]Answer) string {
	list := make([]Answer, 0, len(as))
	for _, a := range as {
		list = append(list, a)
	}
	slices.SortFunc(list, func(a, b Answer) int { return a.Q - b.Q })
	return store.EncodeOutcome(store.OutcomeAnswers, list)
}

// StoredAnswers reads the answers stored beside a judge's reply (tagged, or the bare
// list older stores hold); ok is false for an outcome that is not a judge's answers.
func StoredAnswers(s string) (as []Answer, ok bool) {
	t, ok := store.DecodeOutcome(s)
	if !ok || t.Kind != store.OutcomeAnswers {
		return nil, false
	}
	if err := json.Unmarshal(t.Reading, &as); err != nil {
		return nil, false
	}
	return as, true
}

// WriteRatings writes every rating as one JSON object per line: which judge said what
// about which question of which transcript, and why. Missing answers carry the request's
// error when one failed.
func WriteRatings(w io.Writer, j *Judgement) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range j.Ratings {
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("write ratings: %w", err)
		}
	}
	return nil
}
