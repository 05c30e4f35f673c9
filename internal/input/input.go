// Package input owns how arbiter reports problems in the files a user gives it
// (datasets, transcripts, checklists, dimension files): one FieldError per problem,
// reading "file:line: field: what is wrong", gathered in a ValidationError that rejects
// the file whole.
package input

import (
	"fmt"
	"strings"
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
}

// Error lists the problems one per line.
func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Errs))
	for i, fe := range e.Errs {
		lines[i] = fe.Error()
	}
	return strings.Join(lines, "\n")
}
