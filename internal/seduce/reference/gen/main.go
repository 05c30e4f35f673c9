// Command gen writes the reference set: it expands src/*.jsonl into reference.jsonl. Run
// it with `go generate ./internal/seduce/reference` (it then runs in that directory).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/arbiter-eval/arbiter/internal/seduce/reference"
)

func main() {
	dir := flag.String("dir", ".", "the reference package directory, holding src/")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	out, err := reference.Generate(os.DirFS(dir))
	if err != nil {
		return err
	}
	target := filepath.Join(dir, "reference.jsonl")
	if old, err := os.ReadFile(target); err == nil && bytes.Equal(old, out) {
		fmt.Printf("%s: up to date, %d samples\n", target, bytes.Count(out, []byte("\n")))
		return nil
	}
	tmp := target + ".tmp"
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		return err
	}
	fmt.Printf("%s: wrote %d samples\n", target, bytes.Count(out, []byte("\n")))
	return nil
}
