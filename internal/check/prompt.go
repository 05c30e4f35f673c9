package check

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"text/template"

	"github.com/arbiter-eval/arbiter/internal/store"
)

// The prompts are data (data/prompts/*.tmpl), written in this project's own words from
// the constraints of the paper's appendix A.
//
//go:embed data/prompts/*.tmpl
var promptFS embed.FS

var templates = sync.OnceValue(func() *template.Template {
	funcs := template.FuncMap{
		"oneLine": oneLine,
		"inc":     func(i int) int { return i + 1 },
	}
	return template.Must(template.New("prompts").Funcs(funcs).ParseFS(promptFS, "data/prompts/*.tmpl"))
})

// render executes a prompt template. The templates and their data are this package's
// own, so a failure is a defect.
func render(name string, data any) string {
	var b strings.Builder
	if err := templates().ExecuteTemplate(&b, name+".tmpl", data); err != nil {
		panic("check: prompt " + name + ": " + err.Error())
	}
	return strings.TrimSpace(b.String()) + "\n"
}

var promptHash = sync.OnceValue(func() string {
	names, err := fs.Glob(promptFS, "data/prompts/*.tmpl")
	if err != nil {
		panic(err)
	}
	sort.Strings(names)
	var all []byte
	for _, n := range names {
		b, err := promptFS.ReadFile(n)
		if err != nil {
			panic(err)
		}
		all = append(all, n...)
		all = append(all, 0)
		all = append(all, b...)
	}
	return store.Hash(all)
})

// PromptHash identifies the prompt templates, so a run records which wording it used.
func PromptHash() string { return promptHash() }
