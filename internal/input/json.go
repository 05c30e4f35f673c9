package input

import (
	"bytes"
	"encoding/json"
)

// DescribeJSON names the kind of a JSON value for an error line ("want text, got a
// list"), so every loader words a mistyped field the same way.
func DescribeJSON(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "text"
	case 'n':
		return "null"
	case 't', 'f':
		return "true/false"
	}
	return "a number"
}
