package report

import (
	"bufio"
	"io"
	"path/filepath"
	"regexp"
	"strings"
)

// figureNumber is the "Figure 4: " a paper figure's title starts with; LaTeX numbers its
// figures itself, so its captions drop it.
var figureNumber = regexp.MustCompile(`^Figure [0-9]+: `)

// WriteFigureList tells a reader of a report in format where its figures were written
// (dir, in formats) and what each shows, its caption saying what its whiskers are: a
// list in text, images in Markdown, figure environments in LaTeX. CSV and JSON carry no
// figures, so nothing is written for them.
func WriteFigureList(w io.Writer, format, dir string, figs []Figure, formats []Format) error {
	if len(figs) == 0 || len(formats) == 0 {
		return nil
	}
	bw := bufio.NewWriter(w)
	file := func(f Figure, format Format) string { return filepath.Join(dir, f.Name+"."+string(format)) }
	switch format {
	case FormatText:
		bw.WriteString("\nFigures\n")
		for _, f := range figs {
			bw.WriteString("  " + file(f, formats[0]))
			for _, other := range formats[1:] {
				bw.WriteString(", " + string(other))
			}
			bw.WriteString(": " + oneLine(f.Caption) + "\n")
		}
	case FormatMarkdown:
		bw.WriteString("\n### Figures\n")
		for _, f := range figs {
			// An image in Markdown wants SVG or PNG; a PDF is only linked.
			shown := formats[0]
			for _, g := range formats {
				if g != PDF {
					shown = g
					break
				}
			}
			if shown == PDF {
				bw.WriteString("\n[" + mdEscape.Replace(oneLine(f.Title)) + "](" + mdLink(file(f, PDF)) + ")\n")
			} else {
				bw.WriteString("\n![" + mdEscape.Replace(oneLine(f.Title)) + "](" + mdLink(file(f, shown)) + ")\n")
			}
			bw.WriteString("\n*" + mdEscape.Replace(oneLine(f.Caption)) + "*\n")
		}
	case FormatLaTeX:
		for _, f := range figs {
			// pdflatex includes PDF and PNG; an SVG needs the svg package, so it is
			// named only when nothing else was written.
			inc := formats[0]
			for _, g := range []Format{PDF, PNG} {
				if containsFormat(formats, g) {
					inc = g
					break
				}
			}
			bw.WriteString("\n\\begin{figure*}[t]\n\\centering\n")
			if inc == SVG {
				bw.WriteString("% needs \\usepackage{svg}; pass --figure-format pdf for \\includegraphics\n")
				bw.WriteString(includeLine("\\includesvg[width=\\textwidth]", file(f, SVG)))
			} else {
				bw.WriteString(includeLine("\\includegraphics[width=\\textwidth]", file(f, inc)))
			}
			bw.WriteString("\\caption{" + LaTeXEscape(figureNumber.ReplaceAllString(oneLine(f.Caption), "")) + "}\n")
			bw.WriteString("\\label{fig:" + LaTeXEscape(f.Name) + "}\n\\end{figure*}\n")
		}
	}
	return bw.Flush()
}

// mdLink keeps a file path inside a Markdown link's parentheses.
func mdLink(p string) string { return mdPath.Replace(filepath.ToSlash(p)) }

var mdPath = strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E")

// latexUnsafe are the characters that end or break \includegraphics's argument.
const latexUnsafe = "{}%#\\"

// includeLine is the line including path, or a comment saying why it cannot be when
// the path holds a character LaTeX would read as markup.
func includeLine(cmd, path string) string {
	path = filepath.ToSlash(path)
	if strings.ContainsAny(path, latexUnsafe) {
		return "% " + cmd + ": the path holds one of " + latexUnsafe + "; write the figures to a folder named without them\n"
	}
	return cmd + "{" + path + "}\n"
}
