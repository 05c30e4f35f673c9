package check

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/store"
)

// The kinds of run the pipeline's stages record (RunKind, in judge.go, is the judge's).
const (
	AugmentKind store.Kind = "check-augment"
	FilterKind  store.Kind = "check-filter"
)

// repairTurn is the user turn that asks again for a reply that was not valid.
func repairTurn(problems []string) string {
	return render("repair", struct{ Problems []string }{problems})
}

// jsonObject finds the JSON object in a reply: the whole reply, or the text between the
// first "{" and the last "}" (models wrap JSON in fences and prose).
func jsonObject(reply string, v any) error {
	s := stripFence(reply)
	if err := json.Unmarshal([]byte(s), v); err == nil {
		return nil
	}
	i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}')
	if i < 0 || j <= i {
		return fmt.Errorf("no JSON object in the reply")
	}
	if err := json.Unmarshal([]byte(s[i:j+1]), v); err != nil {
		return fmt.Errorf("the JSON object does not parse: %v", err)
	}
	return nil
}
