package runner_test

import (
	"testing"

	"github.com/arbiter-eval/arbiter/internal/store/storetest"
)

// BenchmarkStorePathPostgres is BenchmarkStorePath on a PostgreSQL store (a fresh
// database on ARBITER_TEST_POSTGRES each round): the same claims, group-committed result
// writes and cache look-ups and entries, over the network protocol instead of a local
// file.
func BenchmarkStorePathPostgres(b *testing.B) {
	storePath(b, func(b *testing.B, _ int) string { return storetest.PostgresDSN(b) })
}
