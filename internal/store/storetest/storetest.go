// Package storetest gives tests a PostgreSQL database of their own on the server named
// by ARBITER_TEST_POSTGRES, so the store's shared suite (and the queue's tests) run
// against a real PostgreSQL in parallel without seeing each other's rows.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// PostgresDSN creates a fresh, empty database on the server of ARBITER_TEST_POSTGRES,
// drops it when the test ends, and returns its URL. With ARBITER_TEST_POSTGRES unset
// the test is skipped, or fails when ARBITER_REQUIRE_POSTGRES=1 (as under scripts/test,
// where a missing server is a broken set-up, not a reason to test less).
func PostgresDSN(t testing.TB) string {
	t.Helper()
	base := os.Getenv("ARBITER_TEST_POSTGRES")
	if base == "" {
		if os.Getenv("ARBITER_REQUIRE_POSTGRES") == "1" {
			t.Fatal("ARBITER_TEST_POSTGRES is not set but ARBITER_REQUIRE_POSTGRES=1 (start one with scripts/pg start DIR PORT)")
		}
		t.Skip("ARBITER_TEST_POSTGRES is not set (scripts/pg start DIR PORT prints one)")
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("ARBITER_TEST_POSTGRES: %v", err)
	}
	var b [6]byte
	rand.Read(b[:])
	name := "t_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to ARBITER_TEST_POSTGRES: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("drop test database %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		// WITH (FORCE): a store the test left open must not keep its database alive.
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop test database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}
