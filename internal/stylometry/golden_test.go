package stylometry

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/report"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGoldenReports pins every format of the hand-built set's report; -update rewrites
// the files after a deliberate change.
func TestGoldenReports(t *testing.T) {
	rep, err := Measure(handSet(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ext := map[string]string{report.FormatText: "txt", report.FormatMarkdown: "md", report.FormatCSV: "csv",
		report.FormatLaTeX: "tex", report.FormatJSON: "json"}
	for _, format := range report.Formats {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, rep, format); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "hand."+ext[format])
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update once)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("Write(%s) differs from %s:\n%s", format, path, buf.String())
			}
		})
	}
}

// TestDeterministic measures the bundled set three times: the JSON must not change
// (scores summed in map order would differ in their last bits).
func TestDeterministic(t *testing.T) {
	ds, err := seduce.Builtin(nil)
	if err != nil {
		t.Fatal(err)
	}
	var first []byte
	for i := range 3 {
		rep, err := Measure(ds.Samples, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, rep, report.FormatJSON); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = buf.Bytes()
		} else if !bytes.Equal(first, buf.Bytes()) {
			t.Fatalf("measurement %d differs from the first", i+1)
		}
	}
}
