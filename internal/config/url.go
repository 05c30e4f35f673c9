package config

import (
	"net/url"
	"regexp"
	"strings"
)

// ScrubURL is the one way a URL is made fit to store or show: user info (a proxy's
// user:password@) is removed, and the values of query parameters that carry credentials
// (api-key, key, token, access_token, client_secret, sig, …) become REDACTED. It copes
// with a URL that does not parse, since that is when an error message would otherwise
// echo it: everything between "//" and the last "@" goes, and the query is redacted as
// text. A URL with nothing to remove comes back byte for byte, so ids derived from it
// do not change. The URL a request is sent to is never scrubbed; only its record.
func ScrubURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Opaque == "" && u.Host != "" {
		q := scrubQuery(u.RawQuery)
		if u.User == nil && q == u.RawQuery {
			return raw
		}
		u.User, u.RawQuery = nil, q
		return u.String()
	}
	s := raw
	if i := strings.Index(s, "//"); i >= 0 {
		if j := strings.LastIndexByte(s[i+2:], '@'); j >= 0 {
			s = s[:i+2] + s[i+2+j+1:]
		}
	} else if j := strings.LastIndexByte(s, '@'); j >= 0 {
		s = s[j+1:]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		s = s[:i+1] + scrubQuery(s[i+1:])
	}
	return s
}

// urlInText finds URLs inside a message: a scheme, "://", and everything up to a space
// or a quote.
var urlInText = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>]+`)

// ScrubText applies ScrubURL to every URL inside s, for error messages that quote the
// URL a request went to (Go's *url.Error, SDK errors).
func ScrubText(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	return urlInText.ReplaceAllStringFunc(s, ScrubURL)
}

// scrubQuery redacts the credential parameters of a raw query, keeping its order and
// every other byte.
func scrubQuery(q string) string {
	if q == "" {
		return q
	}
	parts := strings.Split(q, "&")
	changed := false
	for i, p := range parts {
		name, _, hasValue := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if hasValue && secretParam(name) {
			parts[i] = p[:strings.IndexByte(p, '=')] + "=REDACTED"
			changed = true
		}
	}
	if !changed {
		return q
	}
	return strings.Join(parts, "&")
}

// secretParam says whether a query parameter's name is one that carries a credential:
// key, token, secret, password or signature, alone or as the end of a longer name
// (api-key, x-goog-api-key, access_token, client_secret), and a few short forms.
func secretParam(name string) bool {
	n := strings.ToLower(strings.NewReplacer("-", "", "_", "", ".", "").Replace(name))
	switch n {
	case "sig", "auth", "authorization", "pass", "pwd", "credential", "credentials":
		return true
	}
	for _, end := range []string{"key", "token", "secret", "password", "signature"} {
		if strings.HasSuffix(n, end) {
			return true
		}
	}
	return false
}
