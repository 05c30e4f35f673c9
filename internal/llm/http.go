package llm

import (
	"errors"
	"io"
	"net/http"
	"net/url"
)

// MaxReplyBytes is the most of a response body an adapter reads. A provider, a proxy or
// a stand-in gone wrong can send a body that never ends; past this size the read stops
// and the request fails without a retry, instead of the process running out of memory.
// It bounds the whole body, streams included: no reply arbiter asks for comes near it.
const MaxReplyBytes = 8 << 20

// ErrReplyTooLarge is what reading a response body past MaxReplyBytes returns. Adapters
// map it (errors.Is) to ReplyTooLarge.
var ErrReplyTooLarge = errors.New("reply body is over 8 MiB")

// NewHTTPClient is the HTTP client provider adapters use unless given one: the standard
// transport, but keeping enough idle connections per host for arbiter's concurrency (the
// standard library keeps two, so a run at concurrency 64 would keep reconnecting), and
// with every response body capped at MaxReplyBytes.
func NewHTTPClient() *http.Client {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return CapReplies(&http.Client{})
	}
	t = t.Clone()
	t.MaxIdleConnsPerHost = 256
	return CapReplies(&http.Client{Transport: t})
}

// CapReplies returns the client an adapter sends with: a copy of c (NewHTTPClient when c
// is nil) whose response bodies fail with ErrReplyTooLarge past MaxReplyBytes. Adapters
// call it on whatever client they are given, so a caller's own client is capped too;
// capping a capped client changes nothing.
func CapReplies(c *http.Client) *http.Client {
	if c == nil {
		return NewHTTPClient()
	}
	if _, ok := c.Transport.(capTransport); ok {
		return c
	}
	cc := *c
	next := cc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	cc.Transport = capTransport{next: next, limit: MaxReplyBytes}
	return &cc
}

// capTransport wraps each response body in a cappedBody.
type capTransport struct {
	next  http.RoundTripper
	limit int64
}

func (t capTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(inMemoryBody(req))
	if resp != nil && resp.Body != nil {
		resp.Body = &cappedBody{rc: resp.Body, left: t.limit}
	}
	return resp, err
}

// maxInMemoryBody bounds the request bodies inMemoryBody sends from a fresh copy.
const maxInMemoryBody = 1 << 20

// inMemoryBody returns req to send with its body taken afresh from GetBody when the SDK
// gave one: the SDKs wrap a request's body (to close it once) in a type the standard
// transport cannot tell is in memory, so it flushed the headers in a write of their own
// and then copied the body through a buffer it allocated for each request; a body of the
// SDK's own GetBody (a bytes.Reader) goes out with the headers in one write. The request
// is a shallow copy; req itself, and its body, are left to their owner.
func inMemoryBody(req *http.Request) *http.Request {
	if req.GetBody == nil || req.Body == nil || req.Body == http.NoBody || req.ContentLength <= 0 || req.ContentLength > maxInMemoryBody {
		return req
	}
	body, err := req.GetBody()
	if err != nil {
		return req
	}
	r := *req
	r.Body = body
	return &r
}

// cappedBody reads at most left bytes of rc. A read that would go past them returns
// what fits and ErrReplyTooLarge, closes rc so the connection is not drained, and every
// later read fails the same way.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
	err  error
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	// Ask for one byte more than is allowed: getting it proves the body is too long.
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	if int64(n) <= b.left {
		b.left -= int64(n)
		return n, err
	}
	n = int(b.left)
	b.left = 0
	b.err = ErrReplyTooLarge
	b.rc.Close()
	return n, b.err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// BaseQuery takes the query off an endpoint's base URL, for servers that want their key
// there (Azure-style ?api-key=…): the SDKs build each request URL from the base URL's
// path and drop its query, so the returned client adds those parameters to every
// request instead. Without a query, c and base come back as they are.
func BaseQuery(c *http.Client, base string) (*http.Client, string) {
	u, err := url.Parse(base)
	if err != nil || u.RawQuery == "" {
		return c, base
	}
	q := u.Query()
	u.RawQuery, u.ForceQuery = "", false
	cc := *c
	next := cc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	cc.Transport = queryTransport{next: next, query: q}
	return &cc, u.String()
}

// queryTransport adds query parameters to each request that does not set them itself.
type queryTransport struct {
	next  http.RoundTripper
	query url.Values
}

func (t queryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	q := r.URL.Query()
	for k, vs := range t.query {
		if !q.Has(k) {
			q[k] = vs
		}
	}
	r.URL.RawQuery = q.Encode()
	return t.next.RoundTrip(r)
}
