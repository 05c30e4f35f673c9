package main

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

func TestCheckJudgeAndReportFigures(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: checkStandIn("")})
	defer srv.Close()
	env, db := checkEnv(t, srv)
	dir := t.TempDir()

	bad := arbiter(t, env, "check", "judge", "-q", "--judge", "openai/judge-standin", "--db", db, "--figures", dir, "--figure-format", "eps")
	if bad.code != 2 || !strings.Contains(bad.stderr, `--figure-format "eps"`) || srv.Requests() != 0 {
		t.Fatalf("--figure-format eps: exit %d, %d requests, stderr %q; want exit 2 before any request", bad.code, srv.Requests(), bad.stderr)
	}

	judged := filepath.Join(dir, "judge")
	r := arbiter(t, env, "check", "judge", "-q", "--judge", "openai/judge-standin", "--db", db, "--format", "json",
		"--figures", judged, "--figure-format", "png", "--figure-format", "pdf", "--figure-size", "3.5in,2.4in")
	if r.code != 0 {
		t.Fatalf("check judge: exit %d\n%s", r.code, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(judged, "figure-qs.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("figure-qs.png: %v", err)
	}
	if r := img.Bounds(); r.Dx() != 336 || r.Dy() != 230 {
		t.Errorf("figure-qs.png is %dx%d; want 336x230 (3.5in by 2.4in at 96 dpi)", r.Dx(), r.Dy())
	}
	pdf, err := os.ReadFile(filepath.Join(judged, "figure-qs.pdf"))
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("figure-qs.pdf: %v %.40q; want a PDF", err, pdf)
	}
	m := regexp.MustCompile(`/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]`).FindSubmatch(pdf)
	if m == nil {
		t.Fatal("figure-qs.pdf has no /MediaBox")
	}
	if w, _ := strconv.ParseFloat(string(m[1]), 64); math.Abs(w-252) > 0.5 {
		t.Errorf("figure-qs.pdf is %s pt wide; want 252 (3.5in)", m[1])
	}
	if h, _ := strconv.ParseFloat(string(m[2]), 64); math.Abs(h-172.8) > 0.5 {
		t.Errorf("figure-qs.pdf is %s pt high; want 172.8 (2.4in)", m[2])
	}
	if _, err := os.Stat(filepath.Join(judged, "figure-qs.svg")); err == nil {
		t.Error("wrote an SVG nobody asked for")
	}

	asked := srv.Requests()
	reported := filepath.Join(dir, "report")
	rep := arbiter(t, env, "check", "report", "--db", db, "--figures", reported)
	if rep.code != 0 {
		t.Fatalf("check report: exit %d\n%s", rep.code, rep.stderr)
	}
	svg, err := os.ReadFile(filepath.Join(reported, "figure-qs.svg"))
	if err != nil || !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("Quality Score per dimension")) {
		t.Errorf("check report --figures: %v %.80q", err, svg)
	}
	if n := srv.Requests() - asked; n != 0 {
		t.Errorf("check report sent %d requests", n)
	}
}
