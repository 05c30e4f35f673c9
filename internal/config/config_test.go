package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fake = "sk-config-FAKE-0123456789"

func TestSecretNeverPrints(t *testing.T) {
	s := Secret(fake)
	var logs bytes.Buffer
	slog.New(slog.NewTextHandler(&logs, nil)).Info("key", "k", s, "ep", Endpoint{Key: s})
	j, _ := json.Marshal(struct{ K Secret }{s})
	//lint:ignore S1025 the %s verb is the case under test
	plain := fmt.Sprintf("%s", s)
	for name, out := range map[string]string{
		"%v": fmt.Sprintf("%v", s), "%s": plain, "%#v": fmt.Sprintf("%#v", s),
		"struct %+v": fmt.Sprintf("%+v", Endpoint{Key: s}), "slog": logs.String(), "json": string(j),
	} {
		if strings.Contains(out, fake) {
			t.Errorf("%s shows the key: %s", name, out)
		}
	}
	if s.Reveal() != fake {
		t.Error("Reveal lost the key")
	}
}

func TestRead(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": " k1 ", "GOOGLE_API_KEY": "g", "XDG_DATA_HOME": "/data"}
	e := Read(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if e.OpenAI.Key.Reveal() != "k1" || e.Google.Key.Reveal() != "g" || e.Google.KeyVar != "GOOGLE_API_KEY" {
		t.Errorf("keys = %q %q (%s)", e.OpenAI.Key.Reveal(), e.Google.Key.Reveal(), e.Google.KeyVar)
	}
	if e.Ollama.BaseURL != "http://127.0.0.1:11434" || e.DBPath != "/data/arbiter/arbiter.db" {
		t.Errorf("defaults: ollama %q, db %q", e.Ollama.BaseURL, e.DBPath)
	}
	if _, err := e.Endpoint("acme"); err == nil || !strings.Contains(err.Error(), "unknown provider") {
		t.Errorf("Endpoint(acme) = %v", err)
	}
}

func TestOllamaHost(t *testing.T) {
	tests := []struct{ host, want string }{
		{"", "http://127.0.0.1:11434"},
		{"http://gpu-box:11434", "http://gpu-box:11434"},
		{"0.0.0.0:11434", "http://0.0.0.0:11434"},
		{"localhost:8080", "http://localhost:8080"},
		{"gpu-box", "http://gpu-box:11434"},
		{"::1", "http://[::1]:11434"},
		{"[::1]:9000", "http://[::1]:9000"},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			e := Read(func(k string) (string, bool) { return tt.host, k == "OLLAMA_HOST" })
			if got := e.Ollama.BaseURL; got != tt.want {
				t.Errorf("OLLAMA_HOST=%q: BaseURL = %q; want %q", tt.host, got, tt.want)
			}
		})
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	os.WriteFile(keyFile, []byte(fake+"\n"), 0o600)
	write := func(body string) string {
		p := filepath.Join(dir, "c.yaml")
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	look := func(k string) (string, bool) { return map[string]string{"DS_KEY": "dk"}[k], k == "DS_KEY" }
	f, eps, err := LoadFile(write("endpoints:\n  deepseek: {base_url: https://api.example/v1, key_env: DS_KEY}\n  qwen: {base_url: http://q/v1, key_file: "+keyFile+"}\nlimits:\n  openai/gpt-4.1: {rpm: 60}\n"), look)
	if err != nil {
		t.Fatal(err)
	}
	if len(eps) != 2 || f.Limits["openai/gpt-4.1"].RPM != 60 {
		t.Fatalf("endpoints %v, limits %v", eps, f.Limits)
	}
	for _, ep := range eps {
		want := map[string]string{"deepseek": "dk", "qwen": fake}[ep.Provider]
		if ep.Key.Reveal() != want {
			t.Errorf("%s key = %q; want %q", ep.Provider, ep.Key.Reveal(), want)
		}
	}
	for name, body := range map[string]string{
		"unknown field":    "endpoints:\n  x: {base_url: http://x, kee_env: K}\n",
		"built-in name":    "endpoints:\n  openai: {base_url: http://x}\n",
		"missing base_url": "endpoints:\n  x: {key_env: K}\n",
		"missing key file": "endpoints:\n  x: {base_url: http://x, key_file: /nonexistent/key}\n",
	} {
		if _, _, err := LoadFile(write(body), look); err == nil || !strings.Contains(err.Error(), "c.yaml") {
			t.Errorf("%s: err = %v; want an error naming the file", name, err)
		}
	}
}
