package web

import (
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/report"
)

// binaryCSP is the policy of a PDF or PNG figure: it is downloaded, never run, so it
// may load and run nothing.
const binaryCSP = "default-src 'none'; frame-ancestors 'none'; sandbox"

// figureView is one figure on a page: the SVG the page shows, the caption under it
// (what its whiskers are) and a link per format to download.
type figureView struct {
	Title, Caption, SVG string
	Downloads           []figureDownload
}

// figureDownload is a link to one rendering of a figure.
type figureDownload struct {
	Label, URL, File string
}

// figureViews lays out figs for a page whose figures are served under base
// ("/runs/ID/figures"); prefix starts each download's file name ("ID-").
func figureViews(figs []report.Figure, base, prefix string) []figureView {
	out := make([]figureView, 0, len(figs))
	for _, f := range figs {
		v := figureView{Title: f.Title, Caption: f.Caption, SVG: figureURL(base, f.Name, report.SVG)}
		for _, format := range report.FigureFormats {
			v.Downloads = append(v.Downloads, figureDownload{
				Label: strings.ToUpper(string(format)),
				URL:   figureURL(base, f.Name, format),
				File:  prefix + f.Name + "." + string(format),
			})
		}
		out = append(out, v)
	}
	return out
}

// figureURL is where the figure named name is served in format.
func figureURL(base, name string, format report.Format) string {
	return base + "/" + url.PathEscape(name+"."+string(format))
}

// figureFile splits a requested file name ("figure4.pdf") into the figure's name and
// format; false when the extension is not a figure format.
func figureFile(file string) (string, report.Format, bool) {
	ext := path.Ext(file)
	formats, err := report.ParseFormats([]string{strings.TrimPrefix(ext, ".")})
	if ext == "" || err != nil || ext != "."+string(formats[0]) {
		return "", "", false
	}
	return strings.TrimSuffix(file, ext), formats[0], true
}

// serveFigure answers with f drawn in format at the default size. The SVG is shown
// inline (an <img> on the page, or the file opened on its own under a policy that
// allows its inline styles alone); a PDF or a PNG comes as a download named file.
func (s *Server) serveFigure(w http.ResponseWriter, r *http.Request, f report.Figure, format report.Format, file string) {
	b, err := f.Render(format, report.DefaultSize)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "", err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", format.ContentType())
	h.Set("Cache-Control", "no-store")
	if format == report.SVG {
		h.Set("Content-Security-Policy", svgCSP)
	} else {
		h.Set("Content-Security-Policy", binaryCSP)
		h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": file}))
	}
	w.Write(b)
}
