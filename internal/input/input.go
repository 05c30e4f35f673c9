// Package input owns how arbiter reads the files a user gives it (datasets, transcripts,
// checklists, dimension, taxonomy, experiment and config files) and how it reports their
// problems.
//
// Reading: Open refuses anything but a regular file (a FIFO, a device, a socket) at once;
// ReadFile and ReadAll read at most MaxFileBytes, stop at a line over MaxLineBytes, strip a
// UTF-8 byte order mark, refuse text that is not UTF-8 and check the context between
// chunks; Lines does the same line by line for streams such as stdin. CheckYAML and
// DecodeYAML bound a YAML input to MaxYAMLNodes nodes (aliases expanded) and MaxYAMLDepth
// levels before any YAML library sees it.
//
// Reporting: one FieldError per problem, reading "file:line: field: what is wrong",
// gathered by an Errors collector into a ValidationError that rejects the file whole and
// lists at most MaxErrors problems, then how many more there were.
package input

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// The limits of cli.md "Robustness".
const (
	// MaxLineBytes is the longest line any input file may hold.
	MaxLineBytes = 1 << 20
	// MaxFileBytes is the largest input file read: far beyond any dataset or transcript
	// set, it only stops a runaway file from exhausting memory.
	MaxFileBytes = 1 << 30
	// MaxErrors is how many problems one error lists; the rest are counted.
	MaxErrors = 50
)

// FieldError is one problem in an input file, located by line and field.
type FieldError struct {
	File  string
	Line  int
	Field string
	Msg   string
}

// Error reads "file:line: field: what is wrong"; the line and the field are left out
// when unknown.
func (e FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// ValidationError lists every problem found in one input. An input with any problem is
// rejected whole.
type ValidationError struct {
	Errs []FieldError
	// More counts problems found but not kept in Errs.
	More int
}

// Error lists the problems one per line, at most MaxErrors of them, then one line saying
// how many more there are.
func (e *ValidationError) Error() string {
	n := min(len(e.Errs), MaxErrors)
	lines := make([]string, n, n+1)
	for i, fe := range e.Errs[:n] {
		lines[i] = fe.Error()
	}
	if more := e.More + len(e.Errs) - n; more > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more %s", more, plural(more, "error", "errors")))
	}
	return strings.Join(lines, "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Problem is a ValidationError holding one problem.
func Problem(file string, line int, field, format string, args ...any) *ValidationError {
	return &ValidationError{Errs: []FieldError{{File: file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}}}
}

// Errors collects the problems of one or more input files. It keeps the MaxErrors
// problems with the lowest line numbers (in the order they were added) and counts the
// rest, so a file of millions of bad lines costs neither memory nor a flood of output.
// The zero value is ready to use.
type Errors struct {
	kept  []FieldError
	seq   []int // order of addition of kept[i], to keep equal lines in order
	next  int
	extra int
}

// Add records one problem.
func (e *Errors) Add(fe FieldError) {
	e.next++
	if len(e.kept) < MaxErrors {
		e.kept = append(e.kept, fe)
		e.seq = append(e.seq, e.next)
		return
	}
	e.extra++
	// Replace the kept problem with the highest line (the latest of those) when this one
	// comes earlier in the file: problems are often found out of line order.
	worst := -1
	for i, k := range e.kept {
		if k.File != fe.File {
			continue
		}
		if worst < 0 || k.Line > e.kept[worst].Line || (k.Line == e.kept[worst].Line && e.seq[i] > e.seq[worst]) {
			worst = i
		}
	}
	if worst >= 0 && fe.Line < e.kept[worst].Line {
		e.kept[worst], e.seq[worst] = fe, e.next
	}
}

// Addf records one problem of file.
func (e *Errors) Addf(file string, line int, field, format string, args ...any) {
	e.Add(FieldError{File: file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// Merge records every problem of err when it is a *ValidationError and reports whether
// it was one.
func (e *Errors) Merge(err error) bool {
	ve, ok := err.(*ValidationError)
	if !ok {
		return false
	}
	for _, fe := range ve.Errs {
		e.Add(fe)
	}
	e.extra += ve.More
	e.next += ve.More
	return true
}

// Len is how many problems were recorded, kept or not.
func (e *Errors) Len() int { return len(e.kept) + e.extra }

// Err returns nil when nothing was recorded, else a *ValidationError with the kept
// problems in file order (by file as first added, then by line).
func (e *Errors) Err() error {
	if e.Len() == 0 {
		return nil
	}
	fileOrder := map[string]int{}
	type item struct {
		fe  FieldError
		seq int
	}
	items := make([]item, len(e.kept))
	for i, fe := range e.kept {
		items[i] = item{fe, e.seq[i]}
	}
	slices.SortFunc(items, func(a, b item) int { return a.seq - b.seq })
	for _, it := range items {
		if _, ok := fileOrder[it.fe.File]; !ok {
			fileOrder[it.fe.File] = len(fileOrder)
		}
	}
	slices.SortStableFunc(items, func(a, b item) int {
		return cmp.Or(fileOrder[a.fe.File]-fileOrder[b.fe.File], a.fe.Line-b.fe.Line)
	})
	out := &ValidationError{Errs: make([]FieldError, len(items)), More: e.extra}
	for i, it := range items {
		out.Errs[i] = it.fe
	}
	return out
}
