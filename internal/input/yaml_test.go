package input

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/input/inputtest"
)

func blockNest(depth int) string {
	var b strings.Builder
	for i := 0; i < depth; i++ {
		fmt.Fprintf(&b, "%sk%d:\n", strings.Repeat(" ", i), i)
	}
	fmt.Fprintf(&b, "%sleaf: 1\n", strings.Repeat(" ", depth))
	return b.String()
}

func TestCheckYAML(t *testing.T) {
	seqNest := func(depth int) string {
		var b strings.Builder
		for i := 0; i < depth; i++ {
			b.WriteString(strings.Repeat("  ", i) + "-\n")
		}
		b.WriteString(strings.Repeat("  ", depth) + "x\n")
		return b.String()
	}
	many := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "- q%d\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name, in string
		want     string // "" for accepted
		line     int
	}{
		{"small", "a: 1\nb: [x, y]\nc: {d: e}\n", "", 0},
		{"aliases within the limit", inputtest.Laughs(2), "", 0},
		{"billion laughs", inputtest.Laughs(9), "more than 10000 nodes", 4},
		{"flow 100 deep", strings.Repeat("[", 100) + strings.Repeat("]", 100), "", 0},
		{"flow 101 deep", strings.Repeat("[", 101) + strings.Repeat("]", 101), "nested more than 100 deep", 1},
		{"flow 100k deep", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), "nested more than 100 deep", 1},
		{"flow after block", "a:\n  b: " + strings.Repeat("[", 99) + strings.Repeat("]", 99), "nested more than 100 deep", 2},
		{"block 99 deep", blockNest(99), "", 0},
		{"block 101 deep", blockNest(101), "nested more than 100 deep", 101},
		{"sequences 100 deep", seqNest(100), "", 0},
		{"sequences 101 deep", seqNest(101), "nested more than 100 deep", 101},
		{"dashes on one line", strings.Repeat("- ", 101) + "x\n", "nested more than 100 deep", 1},
		{"deep through an alias", "a: &a " + strings.Repeat("[", 60) + strings.Repeat("]", 60) + "\nb: " + strings.Repeat("[", 50) + "*a" + strings.Repeat("]", 50) + "\n", "nested more than 100 deep", 2},
		{"10000 nodes", many(9999), "", 0},
		{"10001 nodes", many(10000), "more than 10000 nodes", 10000},
		{"a million flow items", "[" + strings.Repeat("1,", 1000000) + "1]", "more than 10000 nodes", 1},
		{"brackets in quotes and comments", `a: "[[[[" # [[[[` + "\nb: '{{{{'\nc: x[1]\n" + `d: "it's [ok"` + "\n", "", 0},
		{"brackets in a block scalar", "a: |\n  " + strings.Repeat("[", 200) + "\n  more\nb: 1\n", "", 0},
		{"not YAML at all", "a: [\n", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckYAML("f.yaml", []byte(tt.in))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("CheckYAML = %v; want nil", err)
				}
				return
			}
			fe := problemOf(t, err)
			if !strings.Contains(fe.Msg, tt.want) || fe.Line != tt.line {
				t.Errorf("CheckYAML = %v; want line %d: %q", err, tt.line, tt.want)
			}
		})
	}
}

func TestDecodeYAML(t *testing.T) {
	var v map[string]any
	if err := DecodeYAML("f.yaml", []byte("a: 1\n"), &v); err != nil || v["a"] != uint64(1) {
		t.Fatalf("DecodeYAML = %v, %v; want a: 1", v, err)
	}
	v = nil
	if err := DecodeYAML("f.yaml", []byte(inputtest.Laughs(9)), &v); err == nil || v != nil {
		t.Fatalf("DecodeYAML(billion laughs) = %v; want an error and nothing decoded", err)
	}
}

func FuzzCheckYAML(f *testing.F) {
	for _, s := range []string{"a: 1\n", inputtest.Laughs(3), blockNest(5), "a: |\n  x\n", "- - [a, {b: c}]\n", `"a\"b": 'c''d'`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Must not panic or run away; when it passes, the library must parse within the limits.
		_ = CheckYAML("f.yaml", []byte(s))
	})
}
