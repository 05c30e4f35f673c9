package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/report/reporttest"
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
	if r := img.Bounds(); r.Dx() != 1050 || r.Dy() != 720 {
		t.Errorf("figure-qs.png is %dx%d; want 1050x720 (3.5in by 2.4in at 300 dpi)", r.Dx(), r.Dy())
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
	if want := filepath.Join(reported, "figure-qs.svg") + ": Quality Score per dimension."; !strings.Contains(rep.stdout, want) {
		t.Errorf("the text report does not list its figure (%q):\n%s", want, rep.stdout)
	}
	svg, err := os.ReadFile(filepath.Join(reported, "figure-qs.svg"))
	if err != nil || !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("Quality Score per dimension")) {
		t.Errorf("check report --figures: %v %.80q", err, svg)
	}
	if n := srv.Requests() - asked; n != 0 {
		t.Errorf("check report sent %d requests", n)
	}

	// The judge run's page in arbiter serve shows the figure and offers its PDF.
	var scores struct {
		Run string `json:"run"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &scores); err != nil || scores.Run == "" {
		t.Fatalf("judge JSON has no run id: %v", err)
	}
	base := serveStore(t, db)
	code, page := httpGet(t, base+"/runs/"+scores.Run)
	if code != 200 || !strings.Contains(page, `<img src="/runs/`+scores.Run+`/figures/figure-qs.svg" alt="Quality Score per dimension">`) ||
		!strings.Contains(page, `download="`+scores.Run+`-figure-qs.pdf">PDF</a>`) {
		t.Errorf("judge run page (%d) does not show figure-qs with its downloads", code)
	}
	code, body := httpGet(t, base+"/runs/"+scores.Run+"/figures/figure-qs.pdf")
	if code != 200 || !strings.HasPrefix(body, "%PDF-") {
		t.Errorf("GET figure-qs.pdf = %d %.20q", code, body)
	}
}

// svgPath is one <path> of an SVG: its points and its style.
type svgPath struct {
	pts   [][2]float64
	style string
}

// svgPaths reads every path of b whose d is made of M and L commands (what gonum/plot
// writes for bars and lines).
func svgPaths(t *testing.T, b []byte) []svgPath {
	t.Helper()
	var out []svgPath
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok || el.Name.Local != "path" {
			continue
		}
		var p svgPath
		for _, a := range el.Attr {
			switch a.Name.Local {
			case "style":
				p.style = a.Value
			case "d":
				for _, cmd := range regexp.MustCompile(`[ML]([-0-9.e]+),([-0-9.e]+)`).FindAllStringSubmatch(a.Value, -1) {
					x, _ := strconv.ParseFloat(cmd[1], 64)
					y, _ := strconv.ParseFloat(cmd[2], 64)
					p.pts = append(p.pts, [2]float64{x, y})
				}
			}
		}
		out = append(out, p)
	}
}

// wrongEveryThird writes 40 samples of the reference set and one model's predictions
// about them, wrong on every third sample by position, so each style has failures and
// successes spread over several scenarios.
func wrongEveryThird(t *testing.T) (data, preds string) {
	t.Helper()
	data = smallDataset(t, 40)
	raw, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var s struct {
			ID   string `json:"id"`
			Roll bool   `json:"requires_roll"`
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatal(err)
		}
		roll := s.Roll != (i%3 == 0)
		decision := map[bool]string{true: "roll", false: "pass"}[roll]
		fmt.Fprintf(&b, `{"id": %q, "model": "openai/gpt-x", "decision": %q, "skill": "Spot Hidden"}`+"\n", s.ID, decision)
	}
	preds = filepath.Join(t.TempDir(), "p.jsonl")
	if err := os.WriteFile(preds, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return data, preds
}

func TestSeduceFiguresInEveryFormatAndSize(t *testing.T) {
	data, preds := wrongEveryThird(t)
	dir := t.TempDir()
	r := arbiter(t, nil, "seduce", "score", "--dataset", data, "--predictions", preds, "--bootstrap", "100",
		"--figures", dir, "--figure-format", "svg,pdf", "--figure-format", "png", "--figure-size", "3.5in,2.4in")
	if r.code != 0 {
		t.Fatalf("seduce score: exit %d\n%s", r.code, r.stderr)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 9 {
		t.Errorf("wrote %d files; want figures 3, 4 and 5 in three formats", len(entries))
	}
	box := regexp.MustCompile(`/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]`)
	for _, name := range []string{"figure3", "figure4", "figure5"} {
		svg, err := os.ReadFile(filepath.Join(dir, name+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		if w, h, _ := svgDoc(t, svg); math.Abs(w-252) > 0.5 || math.Abs(h-172.8) > 0.5 {
			t.Errorf("%s.svg is %gx%gpt; want 252x172.8", name, w, h)
		}
		pdf, err := os.ReadFile(filepath.Join(dir, name+".pdf"))
		if err != nil {
			t.Fatal(err)
		}
		m := box.FindSubmatch(pdf)
		if !bytes.HasPrefix(pdf, []byte("%PDF-")) || !bytes.Contains(pdf[max(0, len(pdf)-32):], []byte("%%EOF")) || m == nil {
			t.Fatalf("%s.pdf is not a whole PDF with a page box", name)
		}
		if w, _ := strconv.ParseFloat(string(m[1]), 64); math.Abs(w-252) > 0.5 {
			t.Errorf("%s.pdf is %s pt wide; want 252", name, m[1])
		}
		if h, _ := strconv.ParseFloat(string(m[2]), 64); math.Abs(h-172.8) > 0.5 {
			t.Errorf("%s.pdf is %s pt high; want 172.8", name, m[2])
		}
		b, err := os.ReadFile(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s.png: %v", name, err)
		}
		if r := img.Bounds(); r.Dx() != 1050 || r.Dy() != 720 {
			t.Errorf("%s.png is %dx%d; want 1050x720", name, r.Dx(), r.Dy())
		}
	}
}

// TestFigureWhiskersMatchTheJSONReport scores predictions with a bootstrap, printing the
// JSON report and writing the figures in the same run, then reads figure 4's SVG: the
// bar of one model and style gives the y of 0 and of its FR, and the whisker standing
// on the bar's centre must end at the JSON's fr_ci for that slice.
func TestFigureWhiskersMatchTheJSONReport(t *testing.T) {
	data, predsFile := wrongEveryThird(t)
	dir := t.TempDir()
	figs := filepath.Join(dir, "figs")
	r := arbiter(t, nil, "seduce", "score", "--dataset", data, "--predictions", predsFile, "--format", "json",
		"--bootstrap", "300", "--seed", "7", "--figures", figs)
	if r.code != 0 {
		t.Fatalf("seduce score: exit %d\n%s", r.code, r.stderr)
	}
	// The LaTeX report of the same figures says what the whiskers are under each.
	tex := arbiter(t, nil, "seduce", "score", "--dataset", data, "--predictions", predsFile, "--format", "latex",
		"--bootstrap", "300", "--figures", filepath.Join(dir, "tex"), "--figure-format", "pdf")
	include := `\includegraphics[width=\textwidth]{` + filepath.ToSlash(filepath.Join(dir, "tex", "figure4.pdf")) + "}"
	if tex.code != 0 || !strings.Contains(tex.stdout, include) || !strings.Contains(tex.stdout, `\caption{FR by rhetorical style. Whiskers: 95\% cluster-bootstrap interval`) {
		t.Errorf("LaTeX report with --figures: exit %d, lacks %s or the whiskers caption:\n%s", tex.code, include, tex.stdout[max(0, len(tex.stdout)-1500):])
	}
	var rep struct {
		Models []struct {
			ByStyle map[string]struct {
				FR *float64    `json:"fr"`
				CI *[2]float64 `json:"fr_ci"`
			} `json:"by_style"`
		} `json:"models"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Models) != 1 {
		t.Fatalf("JSON report: %v, %d models", err, len(rep.Models))
	}
	slice := rep.Models[0].ByStyle["Authority"]
	if slice.FR == nil || slice.CI == nil || *slice.FR == 0 || slice.CI[0] == slice.CI[1] {
		t.Fatalf("Authority: fr %v, fr_ci %v; want a rate above 0 with an interval of some width", slice.FR, slice.CI)
	}
	svg, err := os.ReadFile(filepath.Join(figs, "figure4.svg"))
	if err != nil {
		t.Fatal(err)
	}
	paths := svgPaths(t, svg)
	// Authority is the second series: the second colour of the palette (Okabe-Ito
	// orange). The first group is the model; the Average group comes after it.
	var bar []([2]float64)
	for _, p := range paths {
		if strings.Contains(p.style, "fill:#E69F00") && len(p.pts) == 4 && (bar == nil || p.pts[0][0] < bar[0][0]) {
			bar = p.pts
		}
	}
	if bar == nil {
		t.Fatal("figure 4 has no Authority bar")
	}
	// A bar is (x0,y0) (x1,y0) (x1,y1) (x0,y1): y0 at zero, y1 at the FR.
	mid, y0, y1 := (bar[0][0]+bar[1][0])/2, bar[0][1], bar[2][1]
	value := func(y float64) float64 { return (y - y0) / (y1 - y0) * *slice.FR }
	found := false
	for _, p := range paths {
		if !strings.Contains(p.style, "stroke:#000000;stroke-width:0.7") || len(p.pts) != 2 ||
			math.Abs(p.pts[0][0]-mid) > 0.01 || math.Abs(p.pts[1][0]-mid) > 0.01 {
			continue
		}
		lo, hi := min(value(p.pts[0][1]), value(p.pts[1][1])), max(value(p.pts[0][1]), value(p.pts[1][1]))
		// The SVG keeps five significant digits: half a thousandth of a point is well
		// under 1e-3 of the axis.
		if math.Abs(lo-slice.CI[0]) > 1e-3 || math.Abs(hi-slice.CI[1]) > 1e-3 {
			t.Errorf("whisker on the Authority bar runs %.4f-%.4f; want the JSON's fr_ci %.4f-%.4f", lo, hi, slice.CI[0], slice.CI[1])
		}
		found = true
	}
	if !found {
		t.Errorf("no whisker stands on the Authority bar's centre x=%.3f", mid)
	}
}

// svgDoc is reporttest.SVG.
func svgDoc(t *testing.T, b []byte) (w, h float64, texts []string) { return reporttest.SVG(t, b) }
