// Package inspecttest checks Inspect eval logs against Inspect's own description of
// them: the OpenAPI 3.1 document inspect_ai ships (schema/inspect-openapi.json, MIT,
// see schema/LICENSE and schema/VERSION), whose components are JSON Schema 2020-12.
package inspecttest

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed schema/inspect-openapi.json
var openapi []byte

// documentURL is where the OpenAPI document is registered with the compiler; schemas
// are compiled as references into it.
const documentURL = "https://inspect.aisi.org.uk/inspect-openapi.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(openapi))
	if err != nil {
		return nil, fmt.Errorf("read inspect-openapi.json: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(documentURL, doc); err != nil {
		return nil, fmt.Errorf("add inspect-openapi.json: %w", err)
	}
	return c.Compile(documentURL + "#/components/schemas/EvalLog")
})

// Validate checks one log (its JSON text) against the EvalLog schema.
func Validate(log []byte) error {
	sch, err := compiled()
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(log))
	if err != nil {
		return fmt.Errorf("log is not JSON: %w", err)
	}
	return sch.Validate(v)
}
