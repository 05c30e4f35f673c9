package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// IsLog reports whether b is an Inspect eval log rather than predictions JSONL: one
// JSON object with an "eval" object naming a model, and a "samples" list.
func IsLog(b []byte) bool {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	var shape struct {
		Eval *struct {
			Model *string `json:"model"`
		} `json:"eval"`
		Samples *[]json.RawMessage `json:"samples"`
	}
	// A JSONL file of several objects fails to decode as one and is not a log.
	if json.Unmarshal(b, &shape) != nil {
		return false
	}
	return shape.Eval != nil && shape.Eval.Model != nil && shape.Samples != nil
}

// readSample is what a prediction needs of an Inspect sample.
type readSample struct {
	ID     json.RawMessage `json:"id"`
	Epoch  int             `json:"epoch"`
	Output *struct {
		Completion string `json:"completion"`
		Choices    []struct {
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		} `json:"choices"`
		Error string `json:"error"`
	} `json:"output"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// predictionLine is one line of CoC-Seduce's predictions JSONL (spec section 2).
type predictionLine struct {
	ID        string  `json:"id"`
	Model     string  `json:"model"`
	Replicate int     `json:"replicate,omitempty"`
	Text      *string `json:"text,omitempty"`
	Err       string  `json:"error,omitempty"`
}

// SeducePredictions turns an Inspect log's samples into CoC-Seduce predictions JSONL, to
// be read as any predictions file (seduce.ReadPredictionsWith), so that the replies are
// read by arbiter's parser: the model is eval.model, the id the sample's id, the
// replicate its epoch less one, and the text the first choice's message (its text
// parts) or else output.completion. A sample with an error, or with no output, is a
// failed request.
func SeducePredictions(b []byte) ([]byte, error) {
	var log struct {
		Eval struct {
			Model string `json:"model"`
		} `json:"eval"`
		Samples []readSample `json:"samples"`
	}
	if err := json.Unmarshal(b, &log); err != nil {
		return nil, fmt.Errorf("inspect log: %w", err)
	}
	if log.Eval.Model == "" {
		return nil, fmt.Errorf("inspect log: eval.model is empty")
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	for i, s := range log.Samples {
		id, err := sampleID(s.ID)
		if err != nil {
			return nil, fmt.Errorf("inspect log: samples[%d]: %w", i, err)
		}
		p := predictionLine{ID: id, Model: log.Eval.Model, Replicate: max(s.Epoch, 1) - 1}
		switch {
		case s.Error != nil:
			p.Err = orString(s.Error.Message, "error")
		case s.Output == nil || s.Output.Error != "":
			p.Err = "no output"
			if s.Output != nil {
				p.Err = s.Output.Error
			}
		default:
			text := s.Output.Completion
			if len(s.Output.Choices) > 0 {
				if t, ok := contentText(s.Output.Choices[0].Message.Content); ok {
					text = t
				}
			}
			p.Text = &text
		}
		if err := enc.Encode(p); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}

func orString(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

// sampleID reads an Inspect sample id, a string or an integer.
func sampleID(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		if _, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
			return n.String(), nil
		}
	}
	return "", fmt.Errorf("id %s: want a string or an integer", raw)
}

// contentText is a message's text: the string, or its text parts joined (reasoning
// parts are not the answer).
func contentText(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return "", false
	}
	var texts []string
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n"), true
}
