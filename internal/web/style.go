package web

import (
	"html/template"
	"net/http"

	"github.com/arbiter-eval/arbiter/internal/report"
	"github.com/arbiter-eval/arbiter/internal/stylometry"
)

// styleFigures is where the style page's chart is served, as NAME.svg, .pdf or .png.
const styleFigures = "/dataset/style"

// styleView is the stylometry page of the server's dataset.
type styleView struct {
	Title     string
	Name      string
	Size      int
	Tokenizer string
	Tables    []template.HTML
	Figures   []figureView
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
		v.Figures = figureViews([]report.Figure{stylometry.Figure(rep)}, styleFigures, "")
	}
	s.render(w, r, http.StatusOK, "style.html", v)
}

// styleFigure serves the style page's chart in the format its file name asks for.
func (s *Server) styleFigure(w http.ResponseWriter, r *http.Request) {
	name, format, ok := figureFile(r.PathValue("file"))
	if !ok || name != stylometry.FigureName {
		s.fail(w, r, http.StatusNotFound, "The style page has no figure "+r.PathValue("file")+".", nil)
		return
	}
	rep, ok := s.measureStyle(w, r)
	if !ok {
		return
	}
	s.serveFigure(w, r, stylometry.Figure(rep), format, r.PathValue("file"))
}
