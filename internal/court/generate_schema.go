package court

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
)

// schema is the part of JSON Schema a case record needs. It is a Go value, marshalled
// once, so that it can be read, and tested against Validate, field by field.
type schema struct {
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	// Properties keep their order: a model writing to the schema writes the fields in
	// it, and a summary written before the witnesses gives them something to agree on.
	Properties           props    `json:"properties,omitempty"`
	Required             []string `json:"required,omitempty"`
	AdditionalProperties *bool    `json:"additionalProperties,omitempty"`
	Items                *schema  `json:"items,omitempty"`
	Enum                 []string `json:"enum,omitempty"`
	Pattern              string   `json:"pattern,omitempty"`
	MinItems             int      `json:"minItems,omitempty"`
}

type prop struct {
	Name   string
	Schema *schema
}

// props is an object's properties in order.
type props []prop

func (ps props) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(p.Name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(p.Schema)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func schemaText(desc string) *schema { return &schema{Type: "string", Description: desc} }

// schemaList is a non-empty array. Its other bounds are said in words: Anthropic's
// structured output refuses a schema with maxItems, or with minItems above 1, and
// Generate checks the sizes itself.
func schemaList(item *schema, desc string) *schema {
	return &schema{Type: "array", Items: item, Description: desc, MinItems: 1}
}

// schemaObject is a closed object whose every property is required, as strict structured
// output asks.
func schemaObject(desc string, ps ...prop) *schema {
	no := false
	s := &schema{Type: "object", Description: desc, Properties: ps, AdditionalProperties: &no}
	for _, p := range ps {
		s.Required = append(s.Required, p.Name)
	}
	return s
}

// caseSchema is the schema of a generated case record, spec section 1. It leaves out
// prior, which Generate sets, and uses only keywords that OpenAI, Anthropic and Gemini
// all accept in structured output: types, enums, required, closed objects, simple
// patterns and minItems 1; the 64-character bound of case_id is Validate's.
func caseSchema() *schema {
	return schemaObject("One case record for the courtroom game.",
		prop{"case_id", &schema{Type: "string", Pattern: witnessIDPattern.String(), Description: "a slug of at most 64 lowercase letters, digits and hyphens"}},
		prop{"title", schemaText("the name the case is known by")},
		prop{"kind", &schema{Type: "string", Enum: []string{string(Criminal), string(Civil)}}},
		prop{"charge", schemaText("the criminal charge, or the civil claim")},
		prop{"defendant", schemaObject("the party on trial",
			prop{"name", schemaText("")},
			prop{"description", schemaText("")})},
		prop{"summary", schemaText("the facts both sides accept")},
		prop{"evidence", schemaList(schemaObject("one item of evidence",
			prop{"id", schemaText("E1, E2, …; unique")},
			prop{"name", schemaText("")},
			prop{"description", schemaText("what it shows and what it leaves unclear")}),
			fmt.Sprintf("%d to %d items of evidence", GenMinEvidence, GenMaxEvidence))},
		prop{"witnesses", schemaList(schemaObject("one witness",
			prop{"id", &schema{Type: "string", Pattern: witnessIDPattern.String(), Description: "unique; lowercase letters, digits and hyphens"}},
			prop{"name", schemaText("")},
			prop{"occupation", schemaText("")},
			prop{"called_by", &schema{Type: "string", Enum: []string{string(CalledByProsecution), string(CalledByDefense), string(CalledByCourt)}}},
			prop{"personality", schemaText("")},
			prop{"knows", schemaList(schemaText("one specific thing the witness can testify to"),
				"everything the witness may testify to; some items disagree with other witnesses or the evidence")}),
			fmt.Sprintf("%d to %d witnesses", GenMinWitnesses, GenMaxWitnesses))},
		prop{"defense_goal", schemaText("what the defense is trying to achieve")},
		prop{"contradictions", schemaList(schemaObject("a false claim a witness holds to until the defense presents an item of evidence that breaks it",
			prop{"id", schemaText("C1, C2, …; unique")},
			prop{"witness", &schema{Type: "string", Pattern: witnessIDPattern.String(), Description: "the id of the witness who makes the claim"}},
			prop{"claim", schemaText("what the witness says, which is false")},
			prop{"evidence", schemaList(schemaText("the id of an item of evidence"), "the items that break the claim")},
			prop{"explanation", schemaText("why those items show the claim false")}),
			"at least one; better two, on different witnesses")},
	)
}

var caseSchemaJSON = sync.OnceValue(func() json.RawMessage {
	b, err := json.Marshal(caseSchema())
	if err != nil {
		// The schema is a constant value of strings, numbers and bools.
		panic(err)
	}
	return b
})

// CaseSchema is the JSON Schema of a generated case record, as Generate sends it in
// llm.Request.JSONSchema. A record that has the schema's required fields, with values of
// its types, passes Validate. Callers must not modify the bytes.
func CaseSchema() json.RawMessage { return caseSchemaJSON() }
