package input

import "testing"

func TestErrors(t *testing.T) {
	tests := []struct {
		e    FieldError
		want string
	}{
		{FieldError{"d.jsonl", 3, "setting", `"Mars" is not a setting`}, `d.jsonl:3: setting: "Mars" is not a setting`},
		{FieldError{"c.yaml", 0, "version", "missing"}, "c.yaml: version: missing"},
		{FieldError{"t.txt", 2, "", "no speaker"}, "t.txt:2: no speaker"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("FieldError%+v.Error() = %q; want %q", tt.e, got, tt.want)
		}
	}
	v := &ValidationError{Errs: []FieldError{tests[0].e, tests[1].e}}
	if got, want := v.Error(), tests[0].want+"\n"+tests[1].want; got != want {
		t.Errorf("ValidationError.Error() = %q; want %q", got, want)
	}
}
