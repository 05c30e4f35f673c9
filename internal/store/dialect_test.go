package store

import (
	"strings"
	"testing"
)

func TestRebind(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`a = ? AND b = ?`, `a = $1 AND b = $2`},
		{`x = '?' AND y = ? AND "q?" = ?`, `x = '?' AND y = $1 AND "q?" = $2`},
		{`'it''s ?' || ?`, `'it''s ?' || $1`},
	} {
		if got := rebind(c.in); got != c.want {
			t.Errorf("rebind(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

func FuzzRebind(f *testing.F) {
	f.Add(`a = ? AND 'x?' = ?`)
	f.Fuzz(func(t *testing.T, q string) {
		got := rebind(q)
		if strings.Count(q, "?") == 0 && got != q {
			t.Fatalf("rebind(%q) = %q; changed a statement without placeholders", q, got)
		}
		if strings.Count(got, "?") > strings.Count(q, "?") {
			t.Fatalf("rebind(%q) = %q; more '?' than before", q, got)
		}
	})
}

func TestRedact(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://u:hunter2@db:5432/x", "postgres://u:REDACTED@db:5432/x"},
		{"postgresql://u@db/x?password=hunter2&sslmode=disable", "postgresql://u@db/x?password=REDACTED&sslmode=disable"},
		{"/tmp/a.db", "/tmp/a.db"},
	} {
		if got := Redact(c.in); got != c.want {
			t.Errorf("Redact(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

func TestDSNFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	pg := "postgres://u@h/db"
	for _, c := range []struct {
		flag string
		env  map[string]string
		want string
	}{
		{"x.db", map[string]string{"ARBITER_DB": pg}, "x.db"},
		{"", map[string]string{"ARBITER_DB": pg}, pg},
		{"", map[string]string{}, ""},
	} {
		if got := DSNFromEnv(c.flag, env(c.env)); got != c.want {
			t.Errorf("DSNFromEnv(%q, %v) = %q; want %q", c.flag, c.env, got, c.want)
		}
	}
}
