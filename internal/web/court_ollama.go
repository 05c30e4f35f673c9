package web

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ollamaWait bounds how long the menu's question to a local Ollama may take.
const ollamaWait = 1500 * time.Millisecond

// apiOllama (GET /api/court/ollama) says whether a local Ollama answers at the
// configured address (Options.OllamaURL, from OLLAMA_HOST) and which models it has, so
// a menu without a court model can say exactly what to run:
//
//	{"host": "http://127.0.0.1:11434", "answers": true, "models": ["ollama/llama3.1:8b"]}
//
// Only a loopback address is asked, with a short timeout; "answers" is false otherwise.
func (s *Server) apiOllama(w http.ResponseWriter, r *http.Request) {
	out := map[string]any{"host": s.court.ollama, "answers": false, "models": []string{}}
	u, err := url.Parse(s.court.ollama)
	if s.court.ollama == "" || err != nil || !loopbackHost(u.Hostname()) {
		writeJSON(w, http.StatusOK, out)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), ollamaWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(s.court.ollama, "/")+"/api/tags", nil)
	if err != nil {
		writeJSON(w, http.StatusOK, out)
		return
	}
	res, err := (&http.Client{Timeout: ollamaWait, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		writeJSON(w, http.StatusOK, out)
		return
	}
	defer res.Body.Close()
	var tags struct {
		Models []struct {
			Name string `json:"name"`
		} `json:"models"`
	}
	if res.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&tags) != nil {
		writeJSON(w, http.StatusOK, out)
		return
	}
	var names []string
	for _, m := range tags.Models {
		if m.Name != "" && len(names) < 50 {
			names = append(names, "ollama/"+m.Name)
		}
	}
	out["answers"] = true
	if names != nil {
		out["models"] = names
	}
	writeJSON(w, http.StatusOK, out)
}

// loopbackHost reports whether host names this machine.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
