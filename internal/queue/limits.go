package queue

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// acquire waits for model's shared limits: a concurrency slot (a leased row of
// arbiter_slots) and a request's worth of the rpm and tpm buckets. release frees the
// slot.
func (w *asker) acquire(ctx context.Context, model string, req *llm.Request) (release func(), err error) {
	l := w.cfg.Limits[model]
	release = func() {}
	if l.RPM > 0 {
		if err := w.take(ctx, model, "rpm", l.RPM, 1); err != nil {
			return release, err
		}
	}
	if l.TPM > 0 {
		if err := w.take(ctx, model, "tpm", l.TPM, float64(llm.EstimateTokens(req))); err != nil {
			return release, err
		}
	}
	if l.Concurrency <= 0 {
		return release, nil
	}
	if _, err := w.q.pool.Exec(ctx, `INSERT INTO arbiter_slots(model, slot) SELECT $1, g FROM generate_series(0, $2 - 1) g
		ON CONFLICT DO NOTHING`, model, l.Concurrency); err != nil {
		return release, fmt.Errorf("limits of %s: %w", model, err)
	}
	for {
		var slot int
		err := w.q.pool.QueryRow(ctx, `UPDATE arbiter_slots SET holder = $1, expires = now() + make_interval(secs => $4)
			WHERE (model, slot) = (SELECT model, slot FROM arbiter_slots WHERE model = $2 AND slot < $3
				AND (holder IS NULL OR expires < now()) ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED)
			RETURNING slot`, w.id, model, l.Concurrency, w.cfg.Lease.Seconds()).Scan(&slot)
		if err == nil {
			return func() {
				w.q.pool.Exec(context.WithoutCancel(ctx), `UPDATE arbiter_slots SET holder = NULL, expires = NULL
					WHERE model = $1 AND slot = $2 AND holder = $3`, model, slot, w.id)
			}, nil
		}
		if err != pgx.ErrNoRows {
			return release, fmt.Errorf("limits of %s: %w", model, err)
		}
		if err := pause(ctx, 10*time.Millisecond); err != nil {
			return release, err
		}
	}
}

// take removes cost from the shared bucket kind of model, refilled at perMinute and
// holding at most a second's worth (or one request's cost), waiting until it can.
func (w *asker) take(ctx context.Context, model, kind string, perMinute, cost float64) error {
	capacity := max(perMinute/60, cost)
	if _, err := w.q.pool.Exec(ctx, `INSERT INTO arbiter_buckets(model, kind, tokens) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
		model, kind, capacity); err != nil {
		return fmt.Errorf("limits of %s: %w", model, err)
	}
	for {
		var have float64
		err := w.q.pool.QueryRow(ctx, `UPDATE arbiter_buckets
			SET tokens = least($3, tokens + extract(epoch FROM now() - updated) * $4 / 60) - $5, updated = now()
			WHERE model = $1 AND kind = $2 AND least($3, tokens + extract(epoch FROM now() - updated) * $4 / 60) >= $5
			RETURNING tokens`, model, kind, capacity, perMinute, cost).Scan(&have)
		if err == nil {
			return nil
		}
		if err != pgx.ErrNoRows {
			return fmt.Errorf("limits of %s: %w", model, err)
		}
		wait := time.Duration(cost / perMinute * float64(time.Minute))
		if err := pause(ctx, min(wait, 250*time.Millisecond)); err != nil {
			return err
		}
	}
}

// pause sleeps about d (jittered, so workers do not poll in step) or until ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	d = d/2 + rand.N(d/2+1)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
