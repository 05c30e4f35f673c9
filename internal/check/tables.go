package check

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/report"
)

// Tables lays out scores as the paper's tables: QS and R per model with every dimension
// (tables 1 and 4), each dimension by sub-dimension (table 2), each dimension per case
// (tables 3, 5 and 6) with R per case, then per transcript, per question (yes-rates and
// which questions discriminate) and, with several raters, judge agreement.
func Tables(s *Scores) []report.Table {
	ts := []report.Table{modelTable(s)}
	for di, subs := range s.subs {
		if len(subs) > 0 {
			ts = append(ts, subTable(s, di))
		}
	}
	for di := range s.dims {
		ts = append(ts, caseTable(s, di))
	}
	ts = append(ts, retryTable(s), transcriptTable(s), questionTable(s))
	if s.Agreement != nil {
		ts = append(ts, agreementTable(s.Agreement))
	}
	if len(s.Skipped) > 0 {
		ts = append(ts, skippedTable(s.Skipped))
	}
	return ts
}

func skippedTable(sk []Skipped) report.Table {
	t := report.Table{Name: "skipped", Title: "Transcript files skipped (--skip-bad): not judged",
		Header: []string{"File", "First problem"}}
	for _, s := range sk {
		t.Rows = append(t.Rows, []report.Cell{report.Text(s.File), report.Text(s.Error)})
	}
	return t
}

// WriteScores writes s in format: the JSON object of spec section 4 for json, the tables
// of Tables otherwise (text, md, csv, latex).
func WriteScores(w io.Writer, s *Scores, format string) error {
	if format == report.FormatJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	if !slices.Contains(report.Formats, format) {
		return fmt.Errorf("unknown format %q: want one of %s", format, strings.Join(report.Formats, ", "))
	}
	return report.Write(w, format, Tables(s))
}

func num(v *float64) report.Cell { return report.Num(v, 2) }

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func judgesText(js []llm.ModelName) string {
	s := make([]string, len(js))
	for i, j := range js {
		s[i] = string(j)
	}
	return strings.Join(s, ", ")
}

func modelTable(s *Scores) report.Table {
	t := report.Table{Name: "table1", Title: "Table 1: Quality Score (QS) and Retry Rate (R) per model",
		Header: []string{"Model", "Transcripts", "R", "QS"}}
	var legend []string
	for i, d := range s.dims {
		t.Header = append(t.Header, "QS "+s.shorts[i])
		legend = append(legend, s.shorts[i]+" = "+d)
	}
	for _, m := range s.Models {
		row := []report.Cell{report.Text(m.Model), report.Int(m.Transcripts), report.Int(m.RetryRate), num(m.QS)}
		for _, v := range m.dim {
			row = append(row, num(v))
		}
		t.Rows = append(t.Rows, row)
	}
	row := []report.Cell{report.Text("All"), report.Int(s.Transcripts), report.Int(s.RetryRate), num(s.QS)}
	for _, v := range s.qs {
		row = append(row, num(v))
	}
	t.Rows = append(t.Rows, row)
	t.Notes = []string{
		fmt.Sprintf("Checklist %s (%s, %d questions); judges: %s; %d replicate(s); run %s.",
			shortHash(s.Checklist), cmpStr(s.ChecklistName, "unnamed"), s.Questions, judgesText(s.Judges), s.Replicates, cmpStr(string(s.Run), "-")),
		"QS = share of \"yes\" among the questions answered, per transcript, averaged over transcripts; — marks a score with nothing answered. R = total restarts. " +
			strings.Join(legend, "; ") + ".",
		fmt.Sprintf("Answers: %d yes, %d no, %d missing (asked again and never answered, or request failed; never counted as no).",
			s.Answers.Yes, s.Answers.No, s.Answers.Missing),
	}
	if s.FailedRequests > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d requests failed; run the same command again to ask them again.", s.FailedRequests))
	}
	return t
}

func subTable(s *Scores, di int) report.Table {
	t := report.Table{Name: "table2-" + slug(s.dims[di]), Title: fmt.Sprintf("Table 2: QS of %s by sub-dimension", s.dims[di]),
		Header: append([]string{"Model"}, s.subs[di]...)}
	for _, m := range s.Models {
		row := []report.Cell{report.Text(m.Model)}
		for _, v := range m.sub[di] {
			row = append(row, num(v))
		}
		t.Rows = append(t.Rows, row)
	}
	row := []report.Cell{report.Text("All")}
	for _, name := range s.subs[di] {
		row = append(row, num(s.BySubdimension[s.dims[di]][name]))
	}
	t.Rows = append(t.Rows, row)
	return t
}

func caseLabel(c string) string { return cmpStr(c, "(no case)") }

func caseTable(s *Scores, di int) report.Table {
	t := report.Table{Name: "cases-" + slug(s.dims[di]), Title: fmt.Sprintf("QS of %s per case", s.dims[di]),
		Header: []string{"Model"}}
	for _, c := range s.cases {
		t.Header = append(t.Header, caseLabel(c))
	}
	for _, m := range s.Models {
		row := []report.Cell{report.Text(m.Model)}
		for _, c := range s.cases {
			cs, ok := m.ByCase[c]
			if !ok {
				row = append(row, num(nil))
				continue
			}
			row = append(row, num(cs.dim[di]))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func retryTable(s *Scores) report.Table {
	t := report.Table{Name: "cases-retries", Title: "Retry Rate (R) per case", Header: []string{"Model"}}
	for _, c := range s.cases {
		t.Header = append(t.Header, caseLabel(c))
	}
	for _, m := range s.Models {
		row := []report.Cell{report.Text(m.Model)}
		for _, c := range s.cases {
			cs, ok := m.ByCase[c]
			if !ok {
				row = append(row, report.Text(""))
				continue
			}
			row = append(row, report.Int(cs.RetryRate))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func transcriptTable(s *Scores) report.Table {
	t := report.Table{Name: "transcripts", Title: "QS per transcript",
		Header: []string{"Trial", "Case", "Model", "R", "Completed", "QS"}}
	t.Header = append(t.Header, s.shorts...)
	t.Header = append(t.Header, "Missing")
	for _, ts := range s.PerTranscript {
		done := "?"
		if ts.Completed != nil {
			done = map[bool]string{true: "yes", false: "no"}[*ts.Completed]
		}
		row := []report.Cell{report.Text(string(ts.TrialID)), report.Text(caseLabel(ts.CaseID)), report.Text(ts.Model),
			report.Int(ts.Retries), report.Text(done), num(ts.QS)}
		for _, v := range ts.dim {
			row = append(row, num(v))
		}
		row = append(row, report.Int(ts.Answers.Missing))
		t.Rows = append(t.Rows, row)
	}
	return t
}

func questionTable(s *Scores) report.Table {
	t := report.Table{Name: "questions", Title: "Yes-rate per question",
		Header: []string{"Q", "ID", "Criterion", "Question", "Yes", "No", "Missing", "Yes rate", "Pattern"}}
	counts := map[string]int{}
	for _, q := range s.PerQuestion {
		crit := q.Dimension
		if q.Subdimension != "" {
			crit = q.Subdimension
		}
		t.Rows = append(t.Rows, []report.Cell{report.Text(fmt.Sprintf("Q%d", q.Q)), report.Text(string(q.ID)), report.Text(crit),
			report.Text(q.Text), report.Int(q.Answers.Yes), report.Int(q.Answers.No), report.Int(q.Answers.Missing),
			report.Pct(q.YesRate), report.Text(q.Pattern)})
		counts[q.Pattern]++
	}
	t.Notes = []string{fmt.Sprintf("%d questions discriminate, %d were always yes, %d always no, %d never answered. A question that is always yes over many transcripts cannot tell models apart.",
		counts[PatternDiscriminates], counts[PatternAlwaysYes], counts[PatternAlwaysNo], counts[PatternUnanswered])}
	return t
}

func agreementTable(a *Agreement) report.Table {
	t := report.Table{Name: "agreement", Title: "Agreement between judges",
		Header: []string{"Raters", "Items", "Agreement", "Kappa", "Gwet's AC1"}}
	t.Rows = append(t.Rows, []report.Cell{report.Text(fmt.Sprintf("all %d (Fleiss)", len(a.Raters))), report.Int(a.Items),
		report.Pct(a.PercentAgreement), num3(a.FleissKappa), num3(a.GwetAC1)})
	for _, p := range a.Pairs {
		t.Rows = append(t.Rows, []report.Cell{report.Text(p.A + " vs " + p.B + " (Cohen)"), report.Int(p.Items),
			report.Pct(p.PercentAgreement), num3(p.CohenKappa), num3(p.GwetAC1)})
	}
	t.Notes = append([]string{"Items are (transcript, question) pairs answered by at least two raters. With mostly-yes answers kappa can be low while agreement is high; AC1 is the steadier measure there."}, a.Notes...)
	return t
}

func num3(v *float64) report.Cell { return report.Num(v, 3) }
