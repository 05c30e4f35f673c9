package input

import (
	"strings"

	"github.com/goccy/go-yaml"
)

// YAMLError is the first line of a YAML decoding error, without source excerpts: the
// one line a bad file's message names.
func YAMLError(err error) string {
	msg := strings.TrimSpace(yaml.FormatError(err, false, false))
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return msg
}
