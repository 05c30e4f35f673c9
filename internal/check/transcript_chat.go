package check

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Chat messages are how multi-agent frameworks (AutoGen group chats, court simulators)
// log a session: {"role", "content", "name"} objects, where name (else role) is the
// speaker and content the text. Spec section 1 reads them as turns.

// messageList reports whether a JSON list holds chat messages rather than transcripts or
// turns of spec section 1: some entry has content, and none has turns, messages or
// speaker.
func messageList(elems []json.RawMessage) bool {
	content := false
	for _, e := range elems {
		var m map[string]json.RawMessage
		if json.Unmarshal(e, &m) != nil {
			continue
		}
		for _, k := range []string{"turns", "messages", "speaker"} {
			if _, ok := m[k]; ok {
				return false
			}
		}
		if _, ok := m["content"]; ok {
			content = true
		}
	}
	return content
}

// chatTurns reads chat messages as t's turns. An entry that is not a turn (not an
// object, no text, no speaker: a trailing verdict object, a tool call) is left out; an
// empty content is an empty turn, kept.
func (p *tparser) chatTurns(t *Transcript, elems []json.RawMessage, offs []int, where string) bool {
	prefix := ""
	if where != "" {
		prefix = where + ": "
	}
	raws := make([]rawTurn, 0, len(elems))
	for i, e := range elems {
		var m struct {
			Role    json.RawMessage `json:"role"`
			Name    json.RawMessage `json:"name"`
			Content json.RawMessage `json:"content"`
			Player  *bool           `json:"player"`
		}
		if json.Unmarshal(e, &m) != nil {
			continue
		}
		text, ok := messageText(m.Content)
		if !ok {
			continue
		}
		role, name := jsonString(m.Role), jsonString(m.Name)
		speaker := name
		if speaker == "" {
			speaker = role
		}
		if speaker == "" {
			continue
		}
		raws = append(raws, rawTurn{speaker: speaker, role: role, text: text, player: m.Player,
			line: p.lineAt(offs[i]), field: prefix + "message " + strconv.Itoa(i+1)})
	}
	if len(raws) == 0 {
		line := 0
		if len(offs) > 0 {
			line = p.lineAt(offs[0])
		}
		p.errs.Addf(p.file, line, strings.TrimSuffix(prefix, ": "), "no chat message with a speaker (name or role) and a content")
		return false
	}
	return p.placeTurns(t, raws, formChat, true)
}

// messageText reads a message's content: a string, or a list of parts whose text fields
// (or the parts themselves, when strings) join, one a line.
func messageText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s), true
	}
	var parts []json.RawMessage
	if json.Unmarshal(raw, &parts) != nil {
		return "", false
	}
	var texts []string
	found := false
	for _, part := range parts {
		if json.Unmarshal(part, &s) == nil {
			texts, found = append(texts, s), true
			continue
		}
		var obj struct {
			Text *string `json:"text"`
		}
		if json.Unmarshal(part, &obj) == nil && obj.Text != nil {
			texts, found = append(texts, *obj.Text), true
		}
	}
	return strings.TrimSpace(strings.Join(texts, "\n")), found
}

// jsonString is raw as trimmed text when it is a JSON string, else "".
func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return strings.TrimSpace(s)
}
