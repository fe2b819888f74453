package fetch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// call is one fetch of one URL: the retry loop's state, shared by the hooks
// handed to a go-retryablehttp Client made for this call alone.
type call struct {
	h        *HTTP
	name     string
	url      string // without credentials; the only form logged
	cap      int64
	req      *retryablehttp.Request
	readBody func(*call, *http.Response) error // ReadAll's body reader, or nil

	ctx      context.Context // ends when the caller's does, or at the total bound
	cancel   context.CancelFunc
	timedOut atomic.Bool  // the total bound cancelled ctx
	overdue  atomic.Bool  // the deadline on the whole download cancelled ctx
	dlTimer  *time.Timer  // the deadline's
	received atomic.Int64 // bytes of the current body read so far
	start    time.Time
	deadline time.Time

	// The current attempt.
	attempt      int // 1-based
	attemptStart time.Time
	handled      bool // readBody has run on this attempt's answer
	decided      bool // checkRetry has settled this attempt
	retry        bool
	wait         time.Duration // before the next attempt

	// The last answer, and why the loop stopped early.
	status      int
	statusLine  string // "404 Not Found"
	lastErr     error
	rateLimited bool
	giveUp      string
	retrieved   time.Time

	logOnce sync.Once
}

// do runs the retry loop. It returns a 2xx response whose body is still to
// read (Open), or already read by readBody (ReadAll), or an *Error.
func (c *call) do() (*http.Response, error) {
	o := c.h.opts
	c.start = time.Now()
	c.deadline = c.start.Add(o.MaxTotalWait)
	timer := time.AfterFunc(o.MaxTotalWait, func() { c.timedOut.Store(true); c.cancel() })
	c.dlTimer = time.AfterFunc(o.Deadline, func() { c.overdue.Store(true); c.cancel() })
	if c.readBody != nil {
		c.req.SetResponseHandler(func(resp *http.Response) error {
			if resp.StatusCode/100 != 2 {
				return nil // judged by checkRetry
			}
			c.handled = true
			return c.readBody(c, resp)
		})
	}
	rc := &retryablehttp.Client{
		HTTPClient:     c.h.client,
		Logger:         nil, // we log each attempt ourselves, in checkRetry
		RetryWaitMin:   o.RetryWaitMin,
		RetryWaitMax:   o.RetryWaitMax,
		RetryMax:       o.RetryMax,
		RequestLogHook: c.before,
		CheckRetry:     c.checkRetry,
		// The wait checkRetry chose: DefaultBackoff's, within the bounds.
		Backoff:      func(time.Duration, time.Duration, int, *http.Response) time.Duration { return c.wait },
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
	resp, err := rc.Do(c.req)
	inTime := timer.Stop()
	if inTime && err == nil && resp != nil && resp.StatusCode/100 == 2 && c.lastErr == nil && c.giveUp == "" {
		return resp, nil
	}
	if resp != nil {
		resp.Body.Close()
	}
	e := c.failure(err)
	c.logDone(0, e)
	return nil, e
}

// stopDeadline stops the deadline on the whole download: its body is read.
func (c *call) stopDeadline() {
	if c.dlTimer != nil {
		c.dlTimer.Stop()
	}
}

// end ends the call: its deadline, and its context.
func (c *call) end() {
	c.stopDeadline()
	c.cancel()
}

// deadlineError is the error of a download that passed its deadline.
func (c *call) deadlineError() error {
	return fmt.Errorf("the download of %s did not end within its %v deadline (--deadline); %d bytes of its body received",
		label(c.name), c.h.opts.Deadline, c.received.Load())
}

// before runs before each attempt (retryablehttp's RequestLogHook).
func (c *call) before(_ retryablehttp.Logger, _ *http.Request, i int) {
	c.attempt = i + 1
	c.attemptStart = time.Now()
	c.handled, c.decided, c.retry, c.wait = false, false, false, 0
}

// checkRetry is the Client's CheckRetry: go-retryablehttp's
// DefaultRetryPolicy, with what the upstreams add (GitHub's rate limits,
// refusals another GET will not cure) and the bounds on the wait before the
// next GET. With a readBody it is called twice for a 2xx answer: before the
// body is read, when it lets the reading happen, and after, when it judges
// the read. It never returns an error: the loop's state makes the final
// error.
func (c *call) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if c.decided {
		return c.retry, nil
	}
	ok := err == nil && resp != nil && resp.StatusCode/100 == 2
	if ok && !c.handled {
		c.retrieved = c.h.opts.Now().UTC()
		if c.readBody != nil {
			return false, nil // read the body, then come back
		}
	}
	c.decided = true
	c.retry = c.decide(ctx, resp, err)
	c.logAttempt(resp, err)
	return c.retry, nil
}

// decide records an attempt's outcome and says whether to retry, setting
// c.wait when it does. DefaultRetryPolicy retries transport errors (not a
// bad TLS certificate, scheme or header, nor too many redirects), 429 and
// 5xx but 501, and nothing once ctx has ended (the caller's, the total
// bound, the deadline). Added to it: GitHub's 403 rate limits are retried
// like a 429; a refused redirect and a body over the cap are not.
func (c *call) decide(ctx context.Context, resp *http.Response, err error) bool {
	c.status, c.statusLine, c.lastErr, c.rateLimited = 0, "", nil, false
	if resp != nil {
		c.status, c.statusLine = resp.StatusCode, statusText(resp)
	}
	if err != nil {
		c.lastErr = cause(err)
		if resp == nil {
			c.lastErr = fmt.Errorf("no answer: %w", c.lastErr)
		}
	}
	retry, _ := retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	switch {
	case ctx.Err() != nil, err != nil && isPermanent(err):
		return false
	case err != nil:
		resp = nil // no answer, or a body that failed: the backoff's wait
	case isRateLimit(resp):
		c.rateLimited, retry = true, true
	}
	return retry && c.schedule(resp)
}

// isRateLimit: 429, or GitHub's 403 for an exhausted (x-ratelimit-remaining:
// 0) or secondary (Retry-After) rate limit.
func isRateLimit(resp *http.Response) bool {
	return resp.StatusCode == http.StatusTooManyRequests ||
		(resp.StatusCode == http.StatusForbidden &&
			(strings.TrimSpace(resp.Header.Get("X-Ratelimit-Remaining")) == "0" || resp.Header.Get("Retry-After") != ""))
}

// schedule sets the wait before the next attempt, or gives up when the
// wait would break a bound.
func (c *call) schedule(resp *http.Response) bool {
	if c.attempt > c.h.opts.RetryMax {
		return true // retries used up: the loop ends with this answer
	}
	wait, why := c.waitFor(resp)
	if why != "" {
		c.giveUp = why
		return false
	}
	if left := time.Until(c.deadline); wait >= left {
		c.giveUp = fmt.Sprintf("not retrying: the next wait (%v) would pass the %v bound on the whole fetch",
			wait, c.h.opts.MaxTotalWait)
		return false
	}
	c.wait = wait
	return true
}

// waitFor is the wait before the next attempt: go-retryablehttp's
// DefaultBackoff, which is RetryWaitMin doubled per retry up to
// RetryWaitMax, or the Retry-After of a 429 or 503. GitHub's rate limits
// get it too: their 403 is waited on as a 429 is, and their
// x-ratelimit-reset when they give no Retry-After. A wait the server asks
// for is bounded: longer than RetryWaitMax or the time left, it is not
// waited out, and why says so.
func (c *call) waitFor(resp *http.Response) (wait time.Duration, why string) {
	o := c.h.opts
	retry := c.attempt - 1 // DefaultBackoff counts from 0
	backoff := retryablehttp.DefaultBackoff(o.RetryWaitMin, o.RetryWaitMax, retry, nil)
	if resp == nil {
		return backoff, ""
	}
	asked := resp
	if c.rateLimited && resp.StatusCode != http.StatusTooManyRequests {
		// GitHub's 403 rate limit stands for a 429: DefaultBackoff reads
		// its Retry-After as a 429's.
		asked = &http.Response{StatusCode: http.StatusTooManyRequests, Header: resp.Header}
	}
	wait = retryablehttp.DefaultBackoff(o.RetryWaitMin, o.RetryWaitMax, retry, asked)
	header := "Retry-After: " + resp.Header.Get("Retry-After")
	if c.rateLimited && resp.Header.Get("Retry-After") == "" {
		if d, ok := parseReset(resp.Header.Get("X-Ratelimit-Reset"), time.Now()); ok && d > 0 {
			wait, header = d, "x-ratelimit-reset: "+resp.Header.Get("X-Ratelimit-Reset")
		}
	}
	if wait == backoff {
		return wait, "" // the backoff's own, or the same wait
	}
	return c.serverWait(wait, header)
}

// serverWait bounds a wait the server asks for (d; negative when its
// Retry-After is too large for a time.Duration).
func (c *call) serverWait(d time.Duration, header string) (time.Duration, string) {
	o := c.h.opts
	switch {
	case d < 0:
		return 0, fmt.Sprintf("the server asks for a wait (%s) longer than the %v retry wait cap; not waiting",
			header, o.RetryWaitMax)
	case d > o.RetryWaitMax:
		return 0, fmt.Sprintf("the server asks for a wait of %v (%s), longer than the %v retry wait cap; not waiting",
			d, header, o.RetryWaitMax)
	case d >= time.Until(c.deadline):
		return 0, fmt.Sprintf("the server asks for a wait of %v (%s), past the %v bound on the whole fetch; not waiting",
			d, header, o.MaxTotalWait)
	}
	return d, ""
}

// parseReset reads GitHub's x-ratelimit-reset (Unix seconds) as a wait.
func parseReset(v string, now time.Time) (time.Duration, bool) {
	s, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || s <= 0 {
		return 0, false
	}
	return max(time.Unix(s, 0).Sub(now), 0), true
}

// failure is the error for a loop that ended without a usable answer.
func (c *call) failure(doErr error) *Error {
	e := &Error{URL: c.url, Status: c.status, Attempts: c.attempt}
	if c.overdue.Load() {
		e.Err = c.deadlineError()
		return e
	}
	timedOut := c.timedOut.Load()
	detail := c.giveUp
	if timedOut && detail == "" {
		detail = fmt.Sprintf("gave up at the %v bound on the whole fetch", c.h.opts.MaxTotalWait)
	}
	if c.rateLimited {
		msg := "rate limited (" + c.statusLine + ")"
		if detail != "" {
			msg += ": " + detail
		}
		e.Err = errors.New(msg)
		return e
	}
	cancelled := func(err error) bool { return timedOut && errors.Is(err, context.Canceled) }
	var base error
	switch {
	case doErr != nil && c.lastErr == nil && !timedOut && c.ctx.Err() != nil:
		// The caller's context ended while we waited to retry.
		base = fmt.Errorf("%w while waiting to retry (last answer %s)", doErr, c.statusLine)
	case c.lastErr != nil && !cancelled(c.lastErr):
		base = c.lastErr
	case c.status != 0 && c.status/100 != 2:
		base = errors.New(c.statusLine)
	case doErr != nil && !cancelled(doErr):
		base = cause(doErr)
	}
	switch {
	case base == nil && detail == "":
		e.Err = errors.New("no answer")
	case base == nil:
		e.Err = errors.New(detail)
	case detail == "":
		e.Err = base
	default:
		e.Err = fmt.Errorf("%w; %s", base, detail)
	}
	return e
}

// logAttempt logs one GET. The URL is logged without credentials and the
// request headers (the token) never are.
func (c *call) logAttempt(resp *http.Response, err error) {
	level := slog.LevelDebug
	attrs := []slog.Attr{
		slog.String("url", c.url),
		slog.Int("attempt", c.attempt),
		slog.Int("status", c.status),
		slog.Duration("duration", time.Since(c.attemptStart)),
	}
	if err != nil || resp == nil || resp.StatusCode/100 != 2 {
		level = slog.LevelWarn
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", cause(err).Error()))
	}
	if c.retry {
		attrs = append(attrs, slog.Duration("retry_in", c.wait))
	} else if c.giveUp != "" {
		attrs = append(attrs, slog.String("giving_up", c.giveUp))
	}
	c.h.opts.Logger.LogAttrs(context.Background(), level, "fetch attempt", attrs...)
}

// logDone logs the outcome of the fetch, once.
func (c *call) logDone(n int64, err error) {
	c.logOnce.Do(func() {
		attrs := []slog.Attr{
			slog.String("url", c.url),
			slog.Int("status", c.status),
			slog.Int64("bytes", n),
			slog.Int("attempts", c.attempt),
			slog.Duration("duration", time.Since(c.start)),
		}
		if err != nil {
			attrs = append(attrs, slog.String("error", err.Error()))
			c.h.opts.Logger.LogAttrs(context.Background(), slog.LevelError, "fetch failed", attrs...)
			return
		}
		c.h.opts.Logger.LogAttrs(context.Background(), slog.LevelInfo, "fetch done", attrs...)
	})
}

// logClosedEarly logs an Open body closed before its end, unless the
// outcome is logged already.
func (c *call) logClosedEarly(n int64) {
	c.logOnce.Do(func() {
		c.h.opts.Logger.LogAttrs(context.Background(), slog.LevelInfo, "fetch closed before the end of the body",
			slog.String("url", c.url),
			slog.Int("status", c.status),
			slog.Int64("bytes", n),
			slog.Int("attempts", c.attempt),
			slog.Duration("duration", time.Since(c.start)))
	})
}
