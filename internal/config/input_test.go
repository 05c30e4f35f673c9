package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/input"
)

func TestLoadFileLimits(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	deep := write("deep.yaml", "families: "+strings.Repeat("[", 1000)+strings.Repeat("]", 1000)+"\n")
	zero := filepath.Join(dir, "zero.yaml")
	os.Symlink("/dev/zero", zero)
	lookNone := func(string) (string, bool) { return "", false }
	for _, tt := range []struct{ path, want string }{
		{deep, "nested more than 100 deep"},
		{zero, "not a regular file"},
		{write("bom.yaml", "\ufeff"+"families: {x: \"\xff\"}\n"), "not UTF-8"},
	} {
		_, _, err := LoadFile(tt.path, lookNone)
		var ve *input.ValidationError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("LoadFile(%s) = %v; want %q", filepath.Base(tt.path), err, tt.want)
		}
	}
	if _, _, err := LoadFile(write("ok.yaml", "\ufeff"+"families:\n  gpt-x: openai\n"), lookNone); err != nil {
		t.Errorf("LoadFile(with a BOM) = %v", err)
	}
}
