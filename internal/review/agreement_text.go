package review

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText writes the agreement as a table of plain text for the terminal.
func (ag *Agreement) WriteText(w io.Writer) error {
	num := func(v *float64) string {
		if v == nil {
			return "—"
		}
		return fmt.Sprintf("%.3f", *v)
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "samples\t%d\ndecided\t%d\ndouble reviewed\t%d\nthird reviewed\t%d\n", ag.Samples, ag.Decided, ag.DoubleReviewed, ag.ThirdReviewed)
	fmt.Fprintf(tw, "raw agreement\t%s\nkappa (decision)\t%s\nkappa (requires_roll)\t%s\n", num(ag.RawAgreement), num(ag.Kappa), num(ag.GroundTruth.Kappa))
	for _, c := range ag.ByCategory {
		fmt.Fprintf(tw, "%s\tn=%d raw %s kappa %s\n", c.Category, c.N, num(c.RawAgreement), num(c.Kappa))
	}
	for _, r := range ag.Reviewers {
		fmt.Fprintf(tw, "reviewer %s\t%d/%d decided\n", r.Reviewer, r.Decided, r.Assigned)
	}
	ids := make([]string, len(ag.Disagreements))
	for i, id := range ag.Disagreements {
		ids[i] = string(id)
	}
	fmt.Fprintf(tw, "disagreements\t%d %s\n", len(ids), strings.Join(ids, " "))
	return tw.Flush()
}
