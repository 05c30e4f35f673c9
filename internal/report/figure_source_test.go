package report

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestNoHandDrawnSVG keeps every figure on gonum/plot: no Go file of this package writes
// SVG markup itself (issue 20).
func TestNoHandDrawnSVG(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("glob: %v, %d files", err, len(files))
	}
	markup := regexp.MustCompile(`<(svg|rect|line|polyline|path|text|g)[\s>]`)
	for _, f := range files {
		if filepath.Ext(f) != ".go" || regexp.MustCompile(`_test\.go$`).MatchString(f) {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := markup.Find(b); m != nil {
			t.Errorf("%s writes SVG markup %q by hand; draw it with report.BarChart", f, m)
		}
	}
}
