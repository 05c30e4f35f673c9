package llm

import "net/http"

// NewHTTPClient is the HTTP client provider adapters use unless given one: the standard
// transport, but keeping enough idle connections per host for arbiter's concurrency (the
// standard library keeps two, so a run at concurrency 64 would keep reconnecting).
func NewHTTPClient() *http.Client {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return &http.Client{}
	}
	t = t.Clone()
	t.MaxIdleConnsPerHost = 256
	return &http.Client{Transport: t}
}
