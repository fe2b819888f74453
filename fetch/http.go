package fetch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Defaults for the zero fields of HTTPOptions.
const (
	DefaultRetryMax     = 4                // retries after the first GET
	DefaultRetryWaitMin = time.Second      // first backoff; doubles per retry
	DefaultRetryWaitMax = 30 * time.Second // longest single wait, Retry-After included
	DefaultMaxTotalWait = 2 * time.Minute  // all attempts and waits of one fetch
	DefaultTimeout      = 60 * time.Second // per GET: headers, and any stall in the body
	DefaultDeadline     = 10 * time.Minute // one download whole: every GET and wait, and the body to its end
	DefaultMaxBytes     = 16 << 20         // decoded cap for every file but Ember's
	DefaultMaxBytesCSV  = 256 << 20        // decoded cap for Ember's CSV (about 16 MB in the July 2026 layout, 50 MB in the long one)
	DefaultUserAgent    = "greentokens-fetch (+https://github.com/leadgreen/greentokens)"
)

// HTTPOptions configure an HTTP source. The zero value of every field means
// its default.
type HTTPOptions struct {
	// Origins maps source names to URLs. Zero: DefaultOrigins().
	Origins Origins

	// RetryMax is how many times a failed GET is retried (so at most
	// RetryMax+1 GETs). Zero: DefaultRetryMax; negative: no retries.
	// Retried: transport errors, 5xx but 501, 429, and GitHub rate-limit
	// answers (403 with x-ratelimit-remaining: 0 or with Retry-After). Not
	// retried: other 4xx, refused redirects, bodies over the cap.
	RetryMax int
	// RetryWaitMin is the first backoff, doubled per retry up to
	// RetryWaitMax (go-retryablehttp's DefaultBackoff). RetryWaitMax also
	// caps the wait a server asks for (the Retry-After of a 429, a 503 or
	// GitHub's rate-limit 403; x-ratelimit-reset when a rate limit gives no
	// Retry-After): when it asks for a longer wait, the fetch fails at
	// once, quoting the header ("rate limited" for a 429 and GitHub's
	// limits), rather than waiting it out.
	RetryWaitMin, RetryWaitMax time.Duration
	// MaxTotalWait bounds one fetch from its first GET to its last answer
	// (for ReadAll, to the end of the last body), waits included. A retry
	// whose wait would pass the bound is not made.
	MaxTotalWait time.Duration
	// Timeout bounds each GET's wait for response headers, and any stall
	// while reading a body (no bytes for Timeout). It does not bound the
	// time to stream a large body that keeps flowing.
	Timeout time.Duration
	// Deadline bounds one download whole, from its first GET to the last
	// byte of its body, retries and waits included: a body that keeps
	// trickling in (never stalling for Timeout) still ends there. For a
	// streamed body (Open, the Ember CSV) it runs until the body is read
	// to its end or closed. Passing it fails with an error naming the file
	// and the bytes received.
	Deadline time.Duration

	// MaxBytes caps the decoded size of each body but Ember's CSV's;
	// MaxBytesCSV caps Ember's CSV's. Reading past the cap fails with
	// ErrTooLarge ("larger than the 16 MiB cap"); gzip bodies are capped on
	// their decoded size.
	MaxBytes, MaxBytesCSV int64

	// AllowHTTP permits plain http:// URLs (tests on loopback). Without it
	// only https:// is fetched, redirects included.
	AllowHTTP bool

	// RedirectHosts are the hosts, besides the URL's own, that a redirect
	// may lead to (a file server that hands its downloads to a CDN), as a
	// URL names them: "cdn.example.org", with ":port" when the URL has
	// one; compared without regard to case. A redirect to any other host
	// is refused (not retried): a changed upstream is a maintainer's call.
	RedirectHosts []string

	// GitHubToken, when set, is sent as "Authorization: Bearer TOKEN" to
	// requests whose host is the host of Origins.GitHubAPI, and to no
	// other. It is never logged.
	GitHubToken string

	// UserAgent is sent with every request. Zero: DefaultUserAgent.
	UserAgent string

	// Logger receives one record per GET and one per fetch. Nil: discard.
	Logger *slog.Logger

	// Now stamps Body.Retrieved (converted to UTC). Nil: time.Now.
	Now func() time.Time

	// Transport, when set, replaces the default transport (a clone of
	// http.DefaultTransport with Timeout on dialing, TLS and response
	// headers, and without its transparent gzip). Timeout then bounds only
	// the stalls in a body; it must not decode gzip itself.
	Transport http.RoundTripper
}

// HTTP is a Source that GETs upstream files with bounded retries: a
// go-retryablehttp Client with its DefaultRetryPolicy and DefaultBackoff,
// to which HTTP adds GitHub's rate limits, the bounds of HTTPOptions on
// every wait, and the checks of a body (caps, stalls, a short body). Make
// one with NewHTTP; it is safe for concurrent use.
type HTTP struct {
	opts    HTTPOptions
	apiHost string // host of Origins.GitHubAPI; gets the token
	client  *http.Client
}

var _ ReadAllSource = (*HTTP)(nil)

// NewHTTP returns an HTTP source with opts' zero fields set to defaults.
func NewHTTP(opts HTTPOptions) *HTTP {
	if opts.Origins == (Origins{}) {
		opts.Origins = DefaultOrigins()
	}
	switch {
	case opts.RetryMax == 0:
		opts.RetryMax = DefaultRetryMax
	case opts.RetryMax < 0:
		opts.RetryMax = 0
	}
	if opts.RetryWaitMin <= 0 {
		opts.RetryWaitMin = DefaultRetryWaitMin
	}
	if opts.RetryWaitMax <= 0 {
		opts.RetryWaitMax = DefaultRetryWaitMax
	}
	opts.RetryWaitMax = max(opts.RetryWaitMax, opts.RetryWaitMin)
	if opts.MaxTotalWait <= 0 {
		opts.MaxTotalWait = DefaultMaxTotalWait
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Deadline <= 0 {
		opts.Deadline = DefaultDeadline
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.MaxBytesCSV <= 0 {
		opts.MaxBytesCSV = DefaultMaxBytesCSV
	}
	if opts.UserAgent == "" {
		opts.UserAgent = DefaultUserAgent
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	h := &HTTP{opts: opts}
	if u, err := url.Parse(opts.Origins.GitHubAPI); err == nil {
		h.apiHost = u.Host
	}
	transport := opts.Transport
	if transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.DialContext = (&net.Dialer{Timeout: opts.Timeout, KeepAlive: 30 * time.Second}).DialContext
		t.TLSHandshakeTimeout = min(opts.Timeout, 10*time.Second)
		t.ResponseHeaderTimeout = opts.Timeout
		t.DisableCompression = true // we ask for gzip and decode it ourselves, under the cap
		transport = t
	}
	h.client = &http.Client{Transport: transport, CheckRedirect: h.checkRedirect}
	return h
}

// Open implements Source: it GETs the named file, retrying within the
// bounds, and returns its body once a 2xx answer's headers are in. Reading
// the body fails, naming the URL, when it passes the cap, stalls for
// Timeout, or ends before its announced length (a dropped connection).
// Open does not retry such failures (the caller may have used the bytes);
// ReadAll does.
func (h *HTTP) Open(ctx context.Context, name string) (*Body, error) {
	c, err := h.newCall(ctx, name, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.do()
	if err != nil {
		c.end()
		return nil, err
	}
	b, err := c.openBody(resp, true)
	if err != nil {
		resp.Body.Close()
		c.end()
		err = &Error{URL: c.url, Status: c.status, Attempts: c.attempt, Err: err}
		c.logDone(0, err)
		return nil, err
	}
	return &Body{ReadCloser: b, URL: c.url, FinalURL: finalURL(resp), Retrieved: c.retrieved, Size: max(b.size, 0)}, nil
}

// ReadAll implements ReadAllSource: it GETs the named file and reads all
// of it, retrying the whole GET when the body fails mid-way, within the same
// bounds as Open, and checks that a .json file holds JSON (see ReadAll).
func (h *HTTP) ReadAll(ctx context.Context, name string) (*File, error) {
	f, status, err := h.readAll(ctx, name)
	if err != nil {
		return nil, err
	}
	if err := checkJSON(f, status); err != nil {
		return nil, err
	}
	return f, nil
}

// readAll is ReadAll without its JSON check. It returns the last status.
func (h *HTTP) readAll(ctx context.Context, name string) (*File, int, error) {
	var data []byte
	var final string
	c, err := h.newCall(ctx, name, func(c *call, resp *http.Response) error {
		data, final = nil, finalURL(resp)
		b, err := c.openBody(resp, false)
		if err != nil {
			return err
		}
		defer b.Close()
		data, err = readBody(b, b.size)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	defer c.end()
	resp, err := c.do()
	if err != nil {
		return nil, c.status, err
	}
	resp.Body.Close()
	c.logDone(int64(len(data)), nil)
	return &File{Name: name, URL: c.url, FinalURL: final, Retrieved: c.retrieved, Data: data}, c.status, nil
}

// finalURL is the URL that gave the answer, after any redirects, without
// credentials. A URL reached by a redirect is recorded without its query
// and fragment: a signed download link (a CDN's) carries its signature and
// expiry there, which must not be published, and which would make two
// fetches of the same bytes record different manifests.
func finalURL(resp *http.Response) string {
	if resp.Request == nil || resp.Request.URL == nil {
		return ""
	}
	u := *resp.Request.URL
	if resp.Request.Response != nil { // reached by a redirect
		u.User = nil
		u.RawQuery, u.ForceQuery = "", false
		u.Fragment, u.RawFragment = "", ""
	}
	return u.Redacted()
}

// checkRedirect follows redirects to the same host or to one of
// RedirectHosts only, and to https unless plain http is allowed. The
// GitHub token goes to the API's host only: net/http would pass it on to
// the same host name on another port, or to a subdomain.
func (h *HTTP) checkRedirect(req *http.Request, via []*http.Request) error {
	from := via[len(via)-1].URL
	switch {
	case len(via) >= 10:
		return redirectError{from.Redacted(), req.URL.Redacted(), "stopped after 10 redirects"}
	case !h.schemeOK(req.URL):
		return redirectError{from.Redacted(), req.URL.Redacted(), "it is not https"}
	case !strings.EqualFold(req.URL.Host, via[0].URL.Host) && !h.redirectHostOK(req.URL.Host):
		return redirectError{from.Redacted(), req.URL.Redacted(),
			fmt.Sprintf("it leaves host %s for host %s (--allow-redirect-host %s follows it)", via[0].URL.Host, req.URL.Host, req.URL.Host)}
	}
	if !strings.EqualFold(req.URL.Host, h.apiHost) {
		req.Header.Del("Authorization")
	}
	return nil
}

func (h *HTTP) redirectHostOK(host string) bool {
	for _, ok := range h.opts.RedirectHosts {
		if strings.EqualFold(host, ok) {
			return true
		}
	}
	return false
}

func (h *HTTP) schemeOK(u *url.URL) bool {
	return u.Scheme == "https" || (u.Scheme == "http" && h.opts.AllowHTTP)
}

// newCall checks the name's URL and prepares one fetch of it. readBody, when
// set, reads each 2xx body inside the retry loop (ReadAll).
func (h *HTTP) newCall(ctx context.Context, name string, readBody func(*call, *http.Response) error) (*call, error) {
	raw, err := h.opts.Origins.URL(name)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: bad URL: %w", name, err)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("fetch %s: URL %q has no host", name, u.Redacted())
	}
	if !h.schemeOK(u) {
		why := "only https is fetched"
		if u.Scheme == "http" {
			why = "plain http is refused (AllowHTTP is off); only https is fetched"
		}
		return nil, fmt.Errorf("fetch %s: %s", u.Redacted(), why)
	}
	cctx, cancel := context.WithCancel(ctx)
	req, err := retryablehttp.NewRequestWithContext(cctx, http.MethodGet, raw, nil)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("fetch %s: %w", u.Redacted(), err)
	}
	c := &call{h: h, name: name, url: u.Redacted(), cap: h.capFor(name),
		ctx: cctx, cancel: cancel, req: req, readBody: readBody}
	req.Header.Set("User-Agent", h.opts.UserAgent)
	req.Header.Set("Accept-Encoding", "gzip")
	if u.Host == h.apiHost {
		req.Header.Set("Accept", "application/vnd.github+json")
		req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
		if h.opts.GitHubToken != "" {
			req.Header.Set("Authorization", "Bearer "+h.opts.GitHubToken)
		}
	}
	return c, nil
}

func (h *HTTP) capFor(name string) int64 {
	if IsEmber(name) {
		return h.opts.MaxBytesCSV
	}
	return h.opts.MaxBytes
}

// isPermanent reports errors that another GET will not cure.
func isPermanent(err error) bool {
	var re redirectError
	var ce capError
	return errors.As(err, &re) || errors.As(err, &ce)
}

// cause strips net/http's `Get "URL": ` wrapper, since our errors name the
// URL themselves.
func cause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}
