package web

import (
	"html/template"
	"net/http"

	"github.com/arbiter-eval/arbiter/internal/stylometry"
)

// styleFigureURL is where the style page's chart is served.
const styleFigureURL = "/dataset/style/" + stylometry.FigureName + ".svg"

// styleView is the stylometry page of the server's dataset.
type styleView struct {
	Title     string
	Name      string
	Size      int
	Tokenizer string
	Tables    []template.HTML
	FigureURL string
	Figure    string
}

// measureStyle measures the server's dataset. It is not cached: the bundled set takes
// tens of milliseconds (BenchmarkMeasureReference), well inside a page load.
func (s *Server) measureStyle(w http.ResponseWriter, r *http.Request) (*stylometry.Report, bool) {
	rep, err := stylometry.Measure(s.dataset.Samples, stylometry.Options{})
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "", err)
		return nil, false
	}
	return rep, true
}

// stylePage shows the generators' stylometry (paper section 5.2): the report tables and
// the em-dash chart.
func (s *Server) stylePage(w http.ResponseWriter, r *http.Request) {
	rep, ok := s.measureStyle(w, r)
	if !ok {
		return
	}
	v := styleView{Title: "Generator style", Name: s.dataset.Name, Size: len(s.dataset.Samples), Tokenizer: rep.Tokenizer}
	for _, t := range stylometry.Tables(rep) {
		h, err := t.HTML()
		if err != nil {
			s.fail(w, r, http.StatusInternalServerError, "", err)
			return
		}
		v.Tables = append(v.Tables, h)
	}
	if len(rep.Rows) > 0 {
		v.FigureURL = styleFigureURL
		v.Figure = stylometry.Chart(rep).Title
	}
	s.render(w, r, http.StatusOK, "style.html", v)
}

// styleFigure serves the style page's chart as SVG.
func (s *Server) styleFigure(w http.ResponseWriter, r *http.Request) {
	rep, ok := s.measureStyle(w, r)
	if !ok {
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Content-Security-Policy", svgCSP)
	h.Set("Cache-Control", "no-store")
	w.Write(stylometry.Figure(rep).SVG)
}
