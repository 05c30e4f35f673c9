package runner

import (
	"context"
	"hash/maphash"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// The cache, as the runner's executors use it: a job's cache key, and look-ups of many
// jobs in a few queries (the direct runner's feeder, the batch executor, the dry run).

// cacheKey is j's cache key for a request hashing to hash; endpoint (may be nil) names
// where a model is asked when it is not its provider's own endpoint.
func cacheKey(endpoint func(llm.ModelName) string, j *Job, hash string) string {
	at := ""
	if endpoint != nil {
		at = endpoint(j.Model)
	}
	return store.CacheKey(j.Model, at, hash, j.Replicate)
}

// fromCache looks jobs up in the cache in a few queries and splits them into those it
// answers, each with its reply, and the rest. A cache that cannot be read answers nothing:
// every job is in rest, and the error says why.
func fromCache(ctx context.Context, st *store.Store, endpoint func(llm.ModelName) string, jobs []Job) (hits []Job, replies []*llm.Reply, rest []Job, err error) {
	keys := make([]string, len(jobs))
	for i := range jobs {
		keys[i] = cacheKey(endpoint, &jobs[i], jobs[i].Request.Hash())
	}
	found, err := st.CachedReplies(ctx, keys)
	for i, j := range jobs {
		if r := found[keys[i]]; r != nil {
			hits, replies = append(hits, j), append(replies, r)
			continue
		}
		rest = append(rest, j)
	}
	return hits, replies, rest, err
}

// newTask works out a job's request hash (from hashes when its request was hashed
// before) and, unless its model is local, its cache key.
func newTask(p Plan, j *Job, hashes map[*llm.Request]string) task {
	h, ok := hashes[j.Request]
	if !ok {
		h = j.Request.Hash()
		hashes[j.Request] = h
	}
	t := task{job: j, hash: h}
	if !p.Local(j.Model) {
		t.key = cacheKey(p.Endpoint, j, h)
	}
	return t
}

// lookUp fills in the cached replies of tasks, in one query. A cache that cannot be read
// is a miss: the provider is asked. A task whose key an earlier task of the run had
// (identical requests: a defense that restates a scenario's variants alike) is left to
// recheck instead, so that it finds the earlier one's answer once it is written.
func lookUp(ctx context.Context, st *store.Store, p Plan, tasks []task, seen keySet) {
	if p.NoCache {
		return
	}
	keys := make([]string, 0, len(tasks))
	for i, t := range tasks {
		switch {
		case t.key == "":
		case seen.add(t.key):
			keys = append(keys, t.key)
		default:
			tasks[i].recheck = true
		}
	}
	if len(keys) == 0 {
		return
	}
	found, err := st.CachedReplies(ctx, keys)
	if err != nil {
		if ctx.Err() == nil {
			p.Log.Warn("cache read failed; asking the provider", "jobs", len(keys), "err", err)
		}
		return
	}
	for i := range tasks {
		tasks[i].cached = found[tasks[i].key]
	}
}

// keySet remembers cache keys by a 64-bit hash of each: a run's feeder meets thousands,
// and a collision only makes a job look itself up once more.
type keySet struct {
	seed maphash.Seed
	m    map[uint64]struct{}
}

func newKeySet() keySet { return keySet{seed: maphash.MakeSeed(), m: map[uint64]struct{}{}} }

// add adds key and reports whether it was new.
func (s keySet) add(key string) bool {
	h := maphash.String(s.seed, key)
	if _, ok := s.m[h]; ok {
		return false
	}
	s.m[h] = struct{}{}
	return true
}
