// Package inputtest makes hostile input files for the tests of every reader of user
// files.
package inputtest

import (
	"fmt"
	"strings"
)

// Laughs is a billion-laughs YAML of the given levels: each level holds ten aliases of
// the one below, 10^(levels+1) nodes from a few hundred bytes. Four levels are plenty
// past the 10,000-node limit.
func Laughs(levels int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}
