package config

import (
	"net/url"
	"strings"
	"testing"
)

func TestScrubURL(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"},
		{"kept byte for byte", "http://h/v1/?a=1&b=%41", "http://h/v1/?a=1&b=%41"},
		{"user and password", "https://bob:hunter2hunter2@proxy.example/v1", "https://proxy.example/v1"},
		{"user only", "https://tok3nAsUser@proxy.example/v1", "https://proxy.example/v1"},
		{"azure api-key", "https://x.openai.azure.com/openai?api-version=2024-06-01&api-key=abcdef123456", "https://x.openai.azure.com/openai?api-version=2024-06-01&api-key=REDACTED"},
		{"key and token", "http://h/?key=AIzaSECRET&token=t0k3n&model=m", "http://h/?key=REDACTED&token=REDACTED&model=m"},
		{"names in other cases", "http://h/?API_KEY=s1&X-Goog-Api-Key=s2&access_token=s3&client_secret=s4&sig=s5", "http://h/?API_KEY=REDACTED&X-Goog-Api-Key=REDACTED&access_token=REDACTED&client_secret=REDACTED&sig=REDACTED"},
		{"escaped name", "http://h/?api%2Dkey=s1", "http://h/?api%2Dkey=REDACTED"},
		{"both", "http://u:p4ssw0rd@h/?api-key=s1", "http://h/?api-key=REDACTED"},
		{"unparsable with password", "http://bob:pa ss%zz@host/v1", "http://host/v1"},
		{"unparsable with @ in password", "http://bob:p@ss%zz@host:8/v1", "http://host:8/v1"},
		{"unparsable with query key", "http://[::1/v1?api-key=s3cr3t%zz&x=1", "http://[::1/v1?api-key=REDACTED&x=1"},
		{"no scheme", "bob:hunter2@host:8000", "host:8000"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ScrubURL(tt.in); got != tt.want {
				t.Errorf("ScrubURL(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestScrubText(t *testing.T) {
	in := `Post "http://h:1/v1/chat/completions?api-key=s3cr3t-value": dial tcp: connection refused; via https://u:pw-value@p/x`
	got := ScrubText(in)
	for _, secret := range []string{"s3cr3t-value", "pw-value"} {
		if strings.Contains(got, secret) {
			t.Errorf("ScrubText(%q) = %q; shows %s", in, got, secret)
		}
	}
	if !strings.Contains(got, "dial tcp: connection refused") || !strings.Contains(got, "http://h:1/v1/chat/completions?api-key=REDACTED") {
		t.Errorf("ScrubText(%q) = %q; want the rest kept", in, got)
	}
	if s := "no url here"; ScrubText(s) != s {
		t.Errorf("ScrubText changed %q", s)
	}
}

func FuzzScrubURL(f *testing.F) {
	f.Add("http://bob:secretpass@host/v1?api-key=secretkey")
	f.Add("http://bob:secret pass%zz@host/v1?token=secretkey")
	f.Fuzz(func(t *testing.T, raw string) {
		got := ScrubURL(raw)
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return
		}
		if p, ok := u.User.Password(); ok && len(p) >= 4 && strings.Contains(got, "@") && strings.Contains(got, p) {
			t.Errorf("ScrubURL(%q) = %q; shows the password", raw, got)
		}
		for name, vs := range u.Query() {
			for _, v := range vs {
				if secretParam(name) && len(v) >= 4 && strings.Contains(got, url.QueryEscape(v)) && !strings.Contains(raw, v+v) {
					g, _ := url.Parse(got)
					if g != nil && g.Query().Get(name) == v {
						t.Errorf("ScrubURL(%q) = %q; shows %s", raw, got, name)
					}
				}
			}
		}
	})
}
