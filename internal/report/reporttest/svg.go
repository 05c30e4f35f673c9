// Package reporttest reads the figures the reports draw, for the tests of every package
// that writes or serves them.
package reporttest

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"
)

// SVG parses an SVG document: its root's width and height in points and the text of each
// text element. It fails the test unless b is well-formed XML with an <svg> root.
func SVG(t testing.TB, b []byte) (w, h float64, texts []string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	root, inText := true, false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%.200s", err, b)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root {
				if tok.Name.Local != "svg" {
					t.Fatalf("root element is <%s>; want <svg>", tok.Name.Local)
				}
				for _, a := range tok.Attr {
					v, _ := strconv.ParseFloat(strings.TrimSuffix(a.Value, "pt"), 64)
					switch a.Name.Local {
					case "width":
						w = v
					case "height":
						h = v
					}
				}
				root = false
			}
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				texts = append(texts, string(tok))
			}
		}
	}
	if root {
		t.Fatal("SVG has no root element")
	}
	return w, h, texts
}
