package fetch_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/fetch/fetchtest"
)

var rateLimited = http.Header{"X-Ratelimit-Remaining": {"0"}}

func resetIn(d time.Duration) http.Header {
	return http.Header{
		"X-Ratelimit-Remaining": {"0"},
		"X-Ratelimit-Reset":     {strconv.FormatInt(time.Now().Add(d).Unix(), 10)},
	}
}

// A fault that clears up is retried until the file comes. The test runs in a
// synctest bubble, so that the timeout on headers passes in the bubble's
// time, not the machine's.
func TestHTTPRetriesThenSucceeds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		faults   func() []fetchtest.Fault // made in the bubble, on its clock
		wantHits int
	}{
		{"503 then 200", faults(fetchtest.Fault{Status: 503, Times: 1}), 2},
		{"500, 502 then 200", faults(fetchtest.Fault{Status: 500, Times: 1}, fetchtest.Fault{Status: 502, Times: 1}), 3},
		{"429 without Retry-After then 200", faults(fetchtest.Fault{Status: 429, Times: 1}), 2},
		{"503 with Retry-After 0 then 200", faults(fetchtest.Fault{Status: 503, RetryAfter: "0", Times: 1}), 2},
		{"GitHub 403 rate limit, reset passed, then 200",
			func() []fetchtest.Fault {
				return []fetchtest.Fault{{Status: 403, Header: resetIn(-time.Minute), Times: 1}}
			}, 2},
		{"GitHub 403 secondary rate limit (Retry-After 0) then 200",
			faults(fetchtest.Fault{Status: 403, RetryAfter: "0", Times: 1}), 2},
		{"no headers within the timeout, then 200", faults(fetchtest.Fault{Delay: time.Hour, Times: 1}), 2},
		{"connection closed without an answer, twice, then 200", faults(fetchtest.Fault{Hangup: true, Times: 2}), 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				s := newMemoryServer(t)
				s.Fault(indexPath, tt.faults()...)
				src := s.Source(fetch.HTTPOptions{Timeout: 100 * time.Millisecond})
				body, err := src.Open(t.Context(), fetch.LeaderboardIndex)
				if err != nil {
					t.Fatal(err)
				}
				defer body.Close()
				data, err := io.ReadAll(body)
				if err != nil {
					t.Fatal(err)
				}
				if got := string(data); got != indexJSON {
					t.Errorf("body = %q, want %q", got, indexJSON)
				}
				if got := s.Hits(indexPath); got != tt.wantHits {
					t.Errorf("server saw %d requests, want %d", got, tt.wantHits)
				}
			})
		})
	}
}

// faults returns fs, for a table of faults made in a bubble.
func faults(fs ...fetchtest.Fault) func() []fetchtest.Fault {
	return func() []fetchtest.Fault { return fs }
}

func TestHTTPGivesUp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		opts     fetch.HTTPOptions
		fault    fetchtest.Fault
		wantErr  string // the whole message, URL replaced by "URL"
		wantHits int
	}{
		{name: "404 is not retried",
			fault: fetchtest.Fault{Status: 404}, wantErr: "fetch URL: 404 Not Found after 1 attempt", wantHits: 1},
		{name: "plain 403 is not retried",
			fault: fetchtest.Fault{Status: 403}, wantErr: "fetch URL: 403 Forbidden after 1 attempt", wantHits: 1},
		{name: "400 is not retried",
			fault: fetchtest.Fault{Status: 400}, wantErr: "fetch URL: 400 Bad Request after 1 attempt", wantHits: 1},
		{name: "501 is not retried",
			fault: fetchtest.Fault{Status: 501}, wantErr: "fetch URL: 501 Not Implemented after 1 attempt", wantHits: 1},
		{name: "503 until retries run out", opts: fetch.HTTPOptions{RetryMax: 2},
			fault: fetchtest.Fault{Status: 503}, wantErr: "fetch URL: 503 Service Unavailable after 3 attempts", wantHits: 3},
		{name: "no retries", opts: fetch.HTTPOptions{RetryMax: -1},
			fault: fetchtest.Fault{Status: 503}, wantErr: "fetch URL: 503 Service Unavailable after 1 attempt", wantHits: 1},
		{name: "connection closed without an answer until retries run out", opts: fetch.HTTPOptions{RetryMax: 1},
			fault: fetchtest.Fault{Hangup: true}, wantErr: "fetch URL: no answer: EOF after 2 attempts", wantHits: 2},
		{name: "429 until retries run out", opts: fetch.HTTPOptions{RetryMax: 2},
			fault:   fetchtest.Fault{Status: 429},
			wantErr: "fetch URL: rate limited (429 Too Many Requests) after 3 attempts", wantHits: 3},
		{name: "GitHub 403 rate limit until retries run out", opts: fetch.HTTPOptions{RetryMax: 2},
			fault:   fetchtest.Fault{Status: 403, Header: rateLimited},
			wantErr: "fetch URL: rate limited (403 Forbidden) after 3 attempts", wantHits: 3},
		{name: "429 Retry-After longer than the wait cap", opts: fetch.HTTPOptions{RetryWaitMax: 100 * time.Millisecond},
			fault:    fetchtest.Fault{Status: 429, RetryAfter: "1"},
			wantErr:  "fetch URL: rate limited (429 Too Many Requests): the server asks for a wait of 1s (Retry-After: 1), longer than the 100ms retry wait cap; not waiting after 1 attempt",
			wantHits: 1},
		{name: "Retry-After past the total bound",
			opts:     fetch.HTTPOptions{RetryWaitMax: time.Minute, MaxTotalWait: 300 * time.Millisecond},
			fault:    fetchtest.Fault{Status: 429, RetryAfter: "1"},
			wantErr:  "fetch URL: rate limited (429 Too Many Requests): the server asks for a wait of 1s (Retry-After: 1), past the 300ms bound on the whole fetch; not waiting after 1 attempt",
			wantHits: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				s := newMemoryServer(t)
				s.Fault(indexPath, tt.fault)
				url := s.URL + indexPath
				start := time.Now()
				_, err := s.Source(tt.opts).Open(t.Context(), fetch.LeaderboardIndex)
				// The bubble's clock moves only with the waits; the shortest
				// wait refused here is a second.
				if elapsed := time.Since(start); elapsed >= time.Second {
					t.Errorf("took %v; a refused wait must not be waited out", elapsed)
				}
				if err == nil {
					t.Fatal("no error")
				}
				if got, want := err.Error(), strings.ReplaceAll(tt.wantErr, "URL", url); got != want {
					t.Errorf("error:\n got %s\nwant %s", got, want)
				}
				var fe *fetch.Error
				if !errors.As(err, &fe) {
					t.Fatalf("%T is not a *fetch.Error", err)
				}
				if got := s.Hits(indexPath); got != tt.wantHits || fe.Attempts != tt.wantHits {
					t.Errorf("server saw %d requests and the error counts %d attempts; want %d", got, fe.Attempts, tt.wantHits)
				}
				if fe.Status != tt.fault.Status {
					t.Errorf("Error.Status = %d, want %d", fe.Status, tt.fault.Status)
				}
			})
		})
	}
}

// A server cannot make a fetch wait longer than the retry wait cap: with the
// default bounds, a wait of an hour asked for by Retry-After (seconds or a
// date, on a 429 or a 503), by one too large for a time.Duration, or by
// GitHub's x-ratelimit-reset, is refused at once, in an error that names
// the URL and quotes the header; a 500's Retry-After is not read (the
// backoff's wait is), and a wait at the cap is waited out. The test
// runs in a synctest bubble: a wait would pass in the bubble's time, which
// the test reads exactly.
func TestHTTPRetryAfterBound(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		source  string
		path    string
		fault   func() fetchtest.Fault // made in the bubble, on its clock
		want    string                 // the error, URL for the URL, "" for none
		elapsed time.Duration
		hits    int
	}{
		{name: "429 Retry-After: 3600", source: fetch.LeaderboardIndex, path: indexPath,
			fault: func() fetchtest.Fault { return fetchtest.Fault{Status: 429, RetryAfter: "3600"} },
			want:  "fetch URL: rate limited (429 Too Many Requests): the server asks for a wait of 1h0m0s (Retry-After: 3600), longer than the 30s retry wait cap; not waiting after 1 attempt",
			hits:  1},
		{name: "503 Retry-After an hour ahead, Ember's CSV", source: fetch.EmberYearly, path: fetchtest.EmberPath,
			fault: func() fetchtest.Fault {
				return fetchtest.Fault{Status: 503, RetryAfter: time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)}
			},
			want: "fetch URL: 503 Service Unavailable; the server asks for a wait of 1h0m0s (Retry-After: " +
				"Sat, 01 Jan 2000 01:00:00 GMT), longer than the 30s retry wait cap; not waiting after 1 attempt",
			hits: 1},
		{name: "429 Retry-After past what a time.Duration holds", source: fetch.LeaderboardIndex, path: indexPath,
			fault: func() fetchtest.Fault { return fetchtest.Fault{Status: 429, RetryAfter: "10000000000"} },
			want:  "fetch URL: rate limited (429 Too Many Requests): the server asks for a wait (Retry-After: 10000000000) longer than the 30s retry wait cap; not waiting after 1 attempt",
			hits:  1},
		{name: "GitHub 403 rate limit resetting in an hour", source: fetch.LeaderboardCommits, path: fetchtest.CommitsPath,
			fault: func() fetchtest.Fault { return fetchtest.Fault{Status: 403, Header: resetIn(time.Hour)} },
			want: fmt.Sprintf("fetch URL: rate limited (403 Forbidden): the server asks for a wait of 1h0m0s (x-ratelimit-reset: %d), "+
				"longer than the 30s retry wait cap; not waiting after 1 attempt", time.Date(2000, 1, 1, 1, 0, 0, 0, time.UTC).Unix()),
			hits: 1},
		{name: "500 Retry-After: 3600 is not read: the backoff's wait", source: fetch.LeaderboardIndex, path: indexPath,
			fault:   func() fetchtest.Fault { return fetchtest.Fault{Status: 500, RetryAfter: "3600", Times: 1} },
			elapsed: time.Second, hits: 2},
		{name: "429 Retry-After at the cap is waited out", source: fetch.LeaderboardIndex, path: indexPath,
			fault:   func() fetchtest.Fault { return fetchtest.Fault{Status: 429, RetryAfter: "30", Times: 1} },
			elapsed: 30 * time.Second, hits: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				s := newMemoryServer(t)
				s.Map(fetchtest.EmberPath, writeTree(t, map[string]string{"y.csv": "Area,Year\n"})+"/y.csv")
				s.Fault(tt.path, tt.fault())
				// The documented bounds, not fetchtest's millisecond ones.
				src := s.Source(fetch.HTTPOptions{RetryWaitMin: fetch.DefaultRetryWaitMin,
					RetryWaitMax: fetch.DefaultRetryWaitMax, MaxTotalWait: fetch.DefaultMaxTotalWait})
				start := time.Now()
				var err error
				if fetch.IsEmber(tt.source) {
					var body *fetch.Body
					if body, err = src.Open(t.Context(), tt.source); err == nil {
						_, err = io.ReadAll(body)
						body.Close()
					}
				} else {
					_, err = fetch.ReadAll(t.Context(), src, tt.source)
				}
				if elapsed := time.Since(start); elapsed != tt.elapsed {
					t.Errorf("took %v, want %v", elapsed, tt.elapsed)
				}
				switch {
				case tt.want == "" && err != nil:
					t.Errorf("error %v, want none", err)
				case tt.want != "":
					url, _ := s.Origins().URL(tt.source)
					if got, want := fmt.Sprint(err), strings.ReplaceAll(tt.want, "URL", url); got != want {
						t.Errorf("error:\n got %s\nwant %s", got, want)
					}
				}
				if got := s.Hits(tt.path); got != tt.hits {
					t.Errorf("server saw %d requests, want %d", got, tt.hits)
				}
			})
		})
	}
}

// A Retry-After within the bounds is waited out, then the fetch succeeds.
// The test runs in a synctest bubble: the wait is the bubble's time,
// exactly what the server asked for.
func TestHTTPRetryAfterHonoured(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		status     int
		retryAfter func() string // made in the bubble, on its clock
		header     func() http.Header
		wait       time.Duration
	}{
		{"429 Retry-After: 1", 429, func() string { return "1" }, nil, time.Second},
		// x-ratelimit-reset has whole seconds; the bubble's clock starts on
		// one. (Retry-After as an HTTP date, and on 503, are read too: see
		// TestHTTPGivesUp, where they are too long to wait.)
		{"GitHub 403 x-ratelimit-reset", 403, nil, func() http.Header { return resetIn(2 * time.Second) }, 2 * time.Second},
		{"429 Retry-After date in the past", 429, func() string { return time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat) }, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				s := newMemoryServer(t)
				fault := fetchtest.Fault{Status: tt.status, Times: 1}
				if tt.retryAfter != nil {
					fault.RetryAfter = tt.retryAfter()
				}
				if tt.header != nil {
					fault.Header = tt.header()
				}
				s.Fault(indexPath, fault)
				src := s.Source(fetch.HTTPOptions{RetryWaitMax: 3 * time.Second})
				start := time.Now()
				f, err := fetch.ReadAll(t.Context(), src, fetch.LeaderboardIndex)
				elapsed := time.Since(start)
				if err != nil {
					t.Fatal(err)
				}
				if string(f.Data) != indexJSON {
					t.Errorf("data = %q", f.Data)
				}
				if elapsed != tt.wait {
					t.Errorf("took %v; want the server's wait, %v", elapsed, tt.wait)
				}
				if got := s.Hits(indexPath); got != 2 {
					t.Errorf("server saw %d requests, want 2", got)
				}
			})
		})
	}
}

// Retries stop at the total bound however many are left. The test runs in
// a synctest bubble, whose clock moves only with the waits: an answer takes
// no time, and the ends are exact.
func TestHTTPTotalBound(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opts    fetch.HTTPOptions
		fault   fetchtest.Fault
		want    string
		elapsed time.Duration
		hits    int
	}{
		{"503 forever, many retries allowed",
			fetch.HTTPOptions{RetryMax: 1000, RetryWaitMin: 30 * time.Millisecond, RetryWaitMax: 30 * time.Millisecond, MaxTotalWait: 200 * time.Millisecond},
			fetchtest.Fault{Status: 503},
			"503 Service Unavailable; not retrying: the next wait (30ms) would pass the 200ms bound on the whole fetch after 7 attempts",
			180 * time.Millisecond, 7},
		{"503 forever, the documented bounds: 4 retries, waits of 1s doubling",
			fetch.HTTPOptions{RetryWaitMin: fetch.DefaultRetryWaitMin, RetryWaitMax: fetch.DefaultRetryWaitMax, MaxTotalWait: fetch.DefaultMaxTotalWait},
			fetchtest.Fault{Status: 503},
			"503 Service Unavailable after 5 attempts",
			15 * time.Second, 5},
		{"no answer, the documented bounds: a second GET after the timeout, cut at the total bound",
			fetch.HTTPOptions{RetryWaitMin: fetch.DefaultRetryWaitMin, RetryWaitMax: fetch.DefaultRetryWaitMax, MaxTotalWait: fetch.DefaultMaxTotalWait, Timeout: fetch.DefaultTimeout},
			fetchtest.Fault{Delay: time.Hour},
			"gave up at the 2m0s bound on the whole fetch after 2 attempts",
			2 * time.Minute, 2},
		{"no answer before the bound",
			fetch.HTTPOptions{MaxTotalWait: 150 * time.Millisecond, Timeout: 5 * time.Second},
			fetchtest.Fault{Delay: time.Hour},
			"gave up at the 150ms bound on the whole fetch after 1 attempt",
			150 * time.Millisecond, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				s := newMemoryServer(t)
				s.Fault(indexPath, tt.fault)
				start := time.Now()
				_, err := fetch.ReadAll(t.Context(), s.Source(tt.opts), fetch.LeaderboardIndex)
				if elapsed := time.Since(start); elapsed != tt.elapsed {
					t.Errorf("took %v, want %v (bound %v)", elapsed, tt.elapsed, tt.opts.MaxTotalWait)
				}
				wantErr(t, err, "fetch "+s.URL+indexPath+": "+tt.want)
				if hits := s.Hits(indexPath); hits != tt.hits {
					t.Errorf("%d requests, want %d", hits, tt.hits)
				}
			})
		})
	}
}

// Timeout bounds the wait for headers and any stall in the body.
func TestHTTPTimeout(t *testing.T) {
	t.Parallel()
	opts := fetch.HTTPOptions{Timeout: 50 * time.Millisecond, RetryMax: 1}

	t.Run("no headers within the timeout", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			s := newMemoryServer(t)
			s.Fault(indexPath, fetchtest.Fault{Delay: time.Hour})
			start := time.Now()
			_, err := s.Source(opts).Open(t.Context(), fetch.LeaderboardIndex)
			wantErr(t, err, "fetch "+s.URL+indexPath+": ", ": no answer: net/http: timeout awaiting response headers after 2 attempts")
			// Two waits for headers of 50ms, and the backoff between them
			// (1ms), on the bubble's clock.
			if elapsed := time.Since(start); elapsed != 101*time.Millisecond {
				t.Errorf("took %v, want 101ms", elapsed)
			}
			if got := s.Hits(indexPath); got != 2 {
				t.Errorf("server saw %d requests, want 2", got)
			}
		})
	})
	t.Run("body stalls while streaming", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			s := newMemoryServer(t)
			s.Fault(indexPath, fetchtest.Fault{StallAfter: 5, Stall: 2 * time.Second})
			body, err := s.Source(opts).Open(t.Context(), fetch.LeaderboardIndex)
			if err != nil {
				t.Fatal(err)
			}
			defer body.Close()
			data, err := io.ReadAll(body)
			wantErr(t, err, "fetch "+s.URL+indexPath+": no data for 50ms while reading the body (after 5 bytes)")
			if string(data) != indexJSON[:5] {
				t.Errorf("read %q before the stall", data)
			}
		})
	})
	t.Run("body stalls once, ReadAll gets it again", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			s := newMemoryServer(t)
			s.Fault(indexPath, fetchtest.Fault{StallAfter: 5, Stall: 2 * time.Second, Times: 1})
			f, err := fetch.ReadAll(t.Context(), s.Source(opts), fetch.LeaderboardIndex)
			if err != nil {
				t.Fatal(err)
			}
			if string(f.Data) != indexJSON {
				t.Errorf("data = %q", f.Data)
			}
		})
	})
	t.Run("a slow reader is not a stall", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			s := newMemoryServer(t)
			body, err := s.Source(opts).Open(t.Context(), fetch.LeaderboardIndex)
			if err != nil {
				t.Fatal(err)
			}
			defer body.Close()
			buf := make([]byte, 4)
			var got []byte
			for {
				n, err := body.Read(buf)
				got = append(got, buf[:n]...)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(got) == 4 {
					time.Sleep(120 * time.Millisecond) // longer than Timeout, between reads
				}
			}
			if string(got) != indexJSON {
				t.Errorf("data = %q", got)
			}
		})
	})
}

func TestHTTPCaps(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 1500)
	exact := strings.Repeat("y", 2047) + "\n" // the Ember cap
	tests := []struct {
		name      string
		source    string
		path      string
		fault     fetchtest.Fault
		open      bool     // the error comes from Open, not from reading
		want      string   // data, when no error
		wantErr   []string // parts of the error
		wantHits  int
		readAllOK bool
	}{
		{name: "Content-Length over the cap", source: fetch.LeaderboardIndex, path: indexPath,
			fault: fetchtest.Fault{Body: []byte(big)}, open: true,
			wantErr: []string{"body of 1500 bytes (Content-Length) is larger than the 1 KiB cap after 1 attempt"}, wantHits: 1},
		{name: "chunked body over the cap", source: fetch.LeaderboardIndex, path: indexPath,
			fault:   fetchtest.Fault{Body: []byte(big), Chunked: true},
			wantErr: []string{": body larger than the 1 KiB cap"}, wantHits: 1},
		{name: "gzip bomb", source: fetch.LeaderboardIndex, path: indexPath,
			fault:   fetchtest.Fault{Body: gzipBomb(t, 10<<20), Header: http.Header{"Content-Encoding": {"gzip"}}},
			wantErr: []string{": body larger than the 1 KiB cap"}, wantHits: 1},
		{name: "gzip within the cap is decoded", source: fetch.LeaderboardIndex, path: indexPath,
			fault: fetchtest.Fault{Gzip: true}, want: indexJSON, wantHits: 1},
		{name: "exactly the cap", source: fetch.EmberYearly, path: fetchtest.EmberPath,
			fault: fetchtest.Fault{Body: []byte(exact), Chunked: true}, want: exact, wantHits: 1},
		{name: "Ember has its own cap", source: fetch.EmberYearly, path: fetchtest.EmberPath,
			fault: fetchtest.Fault{Body: []byte(big)}, want: big, wantHits: 1},
		{name: "Ember over its cap", source: fetch.EmberYearly, path: fetchtest.EmberPath,
			fault:   fetchtest.Fault{Body: []byte(big + big), Chunked: true, Gzip: true},
			wantErr: []string{": body larger than the 2 KiB cap"}, wantHits: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			s.Fault(tt.path, tt.fault)
			src := s.Source(fetch.HTTPOptions{MaxBytes: 1 << 10, MaxBytesCSV: 2 << 10})
			url := s.URL + tt.path

			// Open, then read: the error names the URL and the cap.
			body, err := src.Open(t.Context(), tt.source)
			var data []byte
			if err == nil {
				data, err = io.ReadAll(body)
				body.Close()
			} else if !tt.open {
				t.Fatalf("Open: %v", err)
			}
			if tt.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				if string(data) != tt.want {
					t.Errorf("data = %.40q… (%d bytes), want %d bytes", data, len(data), len(tt.want))
				}
			} else {
				wantErr(t, err, append([]string{"fetch " + url + ": "}, tt.wantErr...)...)
				if !errors.Is(err, fetch.ErrTooLarge) {
					t.Errorf("errors.Is(%v, ErrTooLarge) = false", err)
				}
				if int64(len(data)) > 2<<10 {
					t.Errorf("read %d bytes past the cap", len(data))
				}
			}

			// ReadAll: same outcome, and a body over the cap is not fetched again.
			f, err := fetch.ReadAll(t.Context(), src, tt.source)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				if string(f.Data) != tt.want {
					t.Errorf("ReadAll data: %d bytes, want %d", len(f.Data), len(tt.want))
				}
			} else {
				wantErr(t, err, append([]string{"fetch " + url + ": "}, tt.wantErr...)...)
			}
			if got := s.Hits(tt.path); got != 2*tt.wantHits {
				t.Errorf("server saw %d requests, want %d", got, 2*tt.wantHits)
			}
		})
	}
}

// gzipBomb is n zero bytes, gzip-encoded in a few hundred bytes: 64 KiB
// members, concatenated (cheap to make, even under the race detector).
func gzipBomb(t *testing.T, n int) []byte {
	var member bytes.Buffer
	zw := gzip.NewWriter(&member)
	if _, err := zw.Write(make([]byte, 64<<10)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return bytes.Repeat(member.Bytes(), n/(64<<10))
}

// A body cut short is an error naming the URL, never a short file.
func TestHTTPBodyCutShort(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fault fetchtest.Fault
	}{
		{"Content-Length larger than the body", fetchtest.Fault{Truncate: 10}},
		{"connection dropped mid-body (chunked)", fetchtest.Fault{Drop: 10}},
		{"gzip stream cut short", fetchtest.Fault{Gzip: true, Truncate: 20}},
		{"gzip stream dropped, chunked", fetchtest.Fault{Gzip: true, Drop: 20}},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/Open", func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			s.Fault(indexPath, tt.fault)
			body, err := s.Source(fetch.HTTPOptions{}).Open(t.Context(), fetch.LeaderboardIndex)
			if err != nil {
				t.Fatal(err)
			}
			defer body.Close()
			data, err := io.ReadAll(body)
			wantErr(t, err, "fetch "+s.URL+indexPath+": reading the body (after ")
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("errors.Is(%v, io.ErrUnexpectedEOF) = false", err)
			}
			if len(data) >= len(indexJSON) {
				t.Errorf("read %d bytes of a cut body", len(data))
			}
			if got := s.Hits(indexPath); got != 1 {
				t.Errorf("Open made %d requests; it must not retry a streamed body", got)
			}
		})
		t.Run(tt.name+"/ReadAll retries", func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			f := tt.fault
			f.Times = 2
			s.Fault(indexPath, f)
			got, err := fetch.ReadAll(t.Context(), s.Source(fetch.HTTPOptions{}), fetch.LeaderboardIndex)
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Data) != indexJSON {
				t.Errorf("data = %q", got.Data)
			}
			if hits := s.Hits(indexPath); hits != 3 {
				t.Errorf("server saw %d requests, want 3", hits)
			}
		})
		t.Run(tt.name+"/ReadAll gives up", func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			s.Fault(indexPath, tt.fault)
			_, err := fetch.ReadAll(t.Context(), s.Source(fetch.HTTPOptions{RetryMax: 2}), fetch.LeaderboardIndex)
			wantErr(t, err, "fetch "+s.URL+indexPath+": reading the body (after ", "unexpected EOF after 3 attempts")
		})
	}
}

func TestHTTPRedirects(t *testing.T) {
	t.Parallel()
	t.Run("same host is followed", func(t *testing.T) {
		t.Parallel()
		s := newServer(t)
		s.Fault(indexPath, fetchtest.Fault{Redirect: fetchtest.LeaderboardPrefix + "tasks/gpqa.json", Status: http.StatusMovedPermanently})
		f, err := fetch.ReadAll(t.Context(), s.Source(fetch.HTTPOptions{}), fetch.LeaderboardIndex)
		if err != nil {
			t.Fatal(err)
		}
		if string(f.Data) != gpqaJSON {
			t.Errorf("data = %q, want the redirect target's", f.Data)
		}
		if f.URL != s.URL+indexPath {
			t.Errorf("URL = %q, want the URL asked for", f.URL)
		}
		if want := s.URL + fetchtest.LeaderboardPrefix + "tasks/gpqa.json"; f.FinalURL != want {
			t.Errorf("FinalURL = %q, want the URL that answered, %q", f.FinalURL, want)
		}
	})
	t.Run("a streamed body names the URL that answered, without a redirect's query", func(t *testing.T) {
		t.Parallel()
		s := newServer(t)
		s.Fault(indexPath, fetchtest.Fault{Redirect: fetchtest.LeaderboardPrefix + "tasks/gpqa.json?X-Amz-Signature=secret&Expires=1#f"})
		body, err := s.Source(fetch.HTTPOptions{}).Open(t.Context(), fetch.LeaderboardIndex)
		if err != nil {
			t.Fatal(err)
		}
		defer body.Close()
		if want := s.URL + fetchtest.LeaderboardPrefix + "tasks/gpqa.json"; body.URL != s.URL+indexPath || body.FinalURL != want {
			t.Errorf("URL, FinalURL = %q, %q; want %q, %q", body.URL, body.FinalURL, s.URL+indexPath, want)
		}
	})
	t.Run("no redirect: the URL asked for answered", func(t *testing.T) {
		t.Parallel()
		s := newServer(t)
		f, err := fetch.ReadAll(t.Context(), s.Source(fetch.HTTPOptions{}), fetch.LeaderboardIndex)
		if err != nil {
			t.Fatal(err)
		}
		if f.FinalURL != f.URL || f.URL != s.URL+indexPath {
			t.Errorf("URL, FinalURL = %q, %q; want both %q", f.URL, f.FinalURL, s.URL+indexPath)
		}
		// The query of a URL asked for is its own, and kept.
		c, err := fetch.ReadAll(t.Context(), s.Source(fetch.HTTPOptions{}), fetch.LeaderboardCommits)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(c.URL, "per_page=1") || c.FinalURL != c.URL {
			t.Errorf("commits: URL, FinalURL = %q, %q; want the same URL, with its query", c.URL, c.FinalURL)
		}
	})
	t.Run("a redirect loop ends, not retried", func(t *testing.T) {
		t.Parallel()
		s := newServer(t)
		s.Fault(indexPath, fetchtest.Fault{Redirect: indexPath})
		_, err := fetch.ReadAll(t.Context(), s.Source(fetch.HTTPOptions{}), fetch.LeaderboardIndex)
		url := s.URL + indexPath
		if want := "fetch " + url + ": redirect from " + url + " to " + url + " refused: stopped after 10 redirects after 1 attempt"; fmt.Sprint(err) != want {
			t.Errorf("error:\n got %v\nwant %s", err, want)
		}
		if got := s.Hits(indexPath); got != 10 {
			t.Errorf("server saw %d requests, want 10", got)
		}
	})
	t.Run("another host is refused", func(t *testing.T) {
		t.Parallel()
		s, other := newServer(t), newServer(t)
		target := other.URL + indexPath
		s.Fault(indexPath, fetchtest.Fault{Redirect: target})
		_, err := fetch.ReadAll(t.Context(), s.Source(fetch.HTTPOptions{}), fetch.LeaderboardIndex)
		wantErr(t, err, "fetch "+s.URL+indexPath+": redirect from "+s.URL+indexPath+" to "+target+" refused",
			strings.TrimPrefix(s.URL, "http://"), strings.TrimPrefix(other.URL, "http://"), "after 1 attempt")
		if got := other.Hits(indexPath); got != 0 {
			t.Errorf("the other host got %d requests", got)
		}
		if got := s.Hits(indexPath); got != 1 {
			t.Errorf("a refused redirect was retried: %d requests", got)
		}
		wantErr(t, err, "(--allow-redirect-host "+strings.TrimPrefix(other.URL, "http://")+" follows it)")
	})
	t.Run("an allowed host is not followed to plain http", func(t *testing.T) {
		t.Parallel()
		plain := newServer(t)
		target := plain.URL + indexPath
		tls := httptest.NewTLSServer(http.RedirectHandler(target, http.StatusFound))
		t.Cleanup(tls.Close)
		opts := fetch.HTTPOptions{
			RedirectHosts: []string{strings.TrimPrefix(plain.URL, "http://")},
			Origins:       fetch.Origins{LeaderboardBase: tls.URL + "/", GitHubAPI: tls.URL, EmberURL: tls.URL + "/e.csv"},
			Transport:     tls.Client().Transport,
		}
		_, err := fetch.ReadAll(t.Context(), fetch.NewHTTP(opts), fetch.LeaderboardIndex)
		wantErr(t, err, "redirect from "+tls.URL+"/index.json to "+target+" refused: it is not https", "after 1 attempt")
		// Without the host allowed, the error is still the scheme: the flag
		// would not help, so it is not suggested.
		opts.RedirectHosts = nil
		_, err = fetch.ReadAll(t.Context(), fetch.NewHTTP(opts), fetch.LeaderboardIndex)
		wantErr(t, err, "refused: it is not https")
		if err != nil && strings.Contains(err.Error(), "--allow-redirect-host") {
			t.Errorf("error %q suggests --allow-redirect-host, which would not follow a redirect to plain http", err)
		}
		if got := plain.Hits(indexPath); got != 0 {
			t.Errorf("the plain http host got %d requests", got)
		}
	})
	t.Run("an allowed host is followed", func(t *testing.T) {
		t.Parallel()
		s, cdn := newServer(t), newServer(t)
		// The CDN by name, so that the allowed host differs in case.
		target := strings.Replace(cdn.URL, "127.0.0.1", "localhost", 1) + fetchtest.LeaderboardPrefix + "tasks/gpqa.json"
		s.Fault(indexPath, fetchtest.Fault{Redirect: target, Status: http.StatusFound})
		host := strings.Replace(strings.TrimPrefix(cdn.URL, "http://"), "127.0.0.1", "LocalHost", 1)
		f, err := fetch.ReadAll(t.Context(), s.Source(fetch.HTTPOptions{RedirectHosts: []string{"other.example", host}}), fetch.LeaderboardIndex)
		if err != nil {
			t.Fatal(err)
		}
		if string(f.Data) != gpqaJSON || f.URL != s.URL+indexPath || f.FinalURL != target {
			t.Errorf("data %q, URL %q, FinalURL %q; want the CDN's file, %q, %q", f.Data, f.URL, f.FinalURL, s.URL+indexPath, target)
		}
	})
}

func TestHTTPRefusesPlainHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tests := []struct {
		name    string
		origins fetch.Origins
		want    string
	}{
		{"http", s.Origins(), "fetch " + s.URL + indexPath + ": plain http is refused (AllowHTTP is off); only https is fetched"},
		{"ftp", fetch.Origins{LeaderboardBase: "ftp://example.invalid/data/"}, "fetch ftp://example.invalid/data/index.json: only https is fetched"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fetch.NewHTTP(fetch.HTTPOptions{Origins: tt.origins}).Open(t.Context(), fetch.LeaderboardIndex)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error = %v, want %s", err, tt.want)
			}
		})
	}
	if got := len(s.Requests()); got != 0 {
		t.Errorf("server saw %d requests", got)
	}
}

// The token goes to the GitHub API host only and never into logs or errors.
func TestHTTPGitHubToken(t *testing.T) {
	t.Parallel()
	const token = "ghp_s3cr3tT0kenValue"
	data, api := newServer(t), newServer(t)
	api.FailWith(fetchtest.CommitsPath, 503) // a retry, logged
	data.FailWith(fetchtest.LeaderboardPrefix+"tasks/nope.json", 404)
	logger, logs := newLogger()
	src := data.Source(fetch.HTTPOptions{
		Origins: fetch.Origins{
			LeaderboardBase: data.URL + fetchtest.LeaderboardPrefix,
			GitHubAPI:       api.URL,
			EmberURL:        data.URL + fetchtest.EmberPath,
		},
		GitHubToken: token,
		Logger:      logger,
	})
	var errs []string
	for _, name := range []string{fetch.LeaderboardCommits, fetch.LeaderboardIndex, fetch.EmberYearly, fetch.LeaderboardTask("nope")} {
		if _, err := fetch.ReadAll(t.Context(), src, name); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) != 2 {
		t.Errorf("errors %q; want 2 (no Ember file, no task nope)", errs)
	}

	type seen struct{ Path, Query, Auth, Accept string }
	requests := func(s *fetchtest.Server) []seen {
		var out []seen
		for _, r := range s.Requests() {
			out = append(out, seen{r.Path, r.RawQuery, r.Header.Get("Authorization"), r.Header.Get("Accept")})
		}
		return out
	}
	apiWant := []seen{
		{fetchtest.CommitsPath, "path=public/data/tasks&per_page=1", "Bearer " + token, "application/vnd.github+json"},
		{fetchtest.CommitsPath, "path=public/data/tasks&per_page=1", "Bearer " + token, "application/vnd.github+json"},
	}
	if diff := cmp.Diff(apiWant, requests(api)); diff != "" {
		t.Errorf("API server requests (-want +got):\n%s", diff)
	}
	dataWant := []seen{{indexPath, "", "", ""}, {fetchtest.EmberPath, "", "", ""}, {fetchtest.LeaderboardPrefix + "tasks/nope.json", "", "", ""}}
	if diff := cmp.Diff(dataWant, requests(data)); diff != "" {
		t.Errorf("data server requests (-want +got):\n%s", diff)
	}
	out := logs.String()
	if !strings.Contains(out, api.URL+"/repos/ml-energy/leaderboard/commits?path=public/data/tasks&per_page=1") {
		t.Errorf("the log does not name the API URL:\n%s", out)
	}
	for _, text := range append(errs, out) {
		if strings.Contains(text, token) || strings.Contains(text, "s3cr3t") {
			t.Errorf("the token leaks into %q", text)
		}
	}
}

// A redirect from the GitHub API to an allowed host does not carry the
// token, not even to the same address on another port, which net/http
// would pass it on to.
func TestHTTPGitHubTokenNotRedirected(t *testing.T) {
	t.Parallel()
	const token = "ghp_s3cr3tT0kenValue"
	api, other := newServer(t), newServer(t)
	api.Fault(fetchtest.CommitsPath, fetchtest.Fault{Redirect: other.URL + fetchtest.CommitsPath})
	src := api.Source(fetch.HTTPOptions{GitHubToken: token, RedirectHosts: []string{strings.TrimPrefix(other.URL, "http://")}})
	fetch.ReadAll(t.Context(), src, fetch.LeaderboardCommits) // the other server has no such file: a 404
	var got []string
	for _, r := range other.Requests() {
		got = append(got, r.Header.Get("Authorization"))
	}
	if len(got) != 1 || got[0] != "" {
		t.Errorf("the redirect's host got Authorization headers %q; want one request without", got)
	}
	if r := api.Requests(); len(r) != 1 || r[0].Header.Get("Authorization") != "Bearer "+token {
		t.Errorf("the API host's requests %v; want one with the token", r)
	}
}

// Each GET is logged, and the outcome once.
func TestHTTPLogsAttempts(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	s.FailWith(indexPath, 503)
	logger, logs := newLogger()
	src := s.Source(fetch.HTTPOptions{Logger: logger, RetryWaitMin: 2 * time.Millisecond})
	if _, err := fetch.ReadAll(t.Context(), src, fetch.LeaderboardIndex); err != nil {
		t.Fatal(err)
	}
	s.FailWith(fetchtest.LeaderboardPrefix+"tasks/gpqa.json", 404)
	if _, err := fetch.ReadAll(t.Context(), src, fetch.LeaderboardTask("gpqa")); err == nil {
		t.Fatal("no error for a 404")
	}

	url, task := s.URL+indexPath, s.URL+fetchtest.LeaderboardPrefix+"tasks/gpqa.json"
	want := []map[string]any{
		{"level": "WARN", "msg": "fetch attempt", "url": url, "attempt": 1.0, "status": 503.0, "retry_in": 2e6},
		{"level": "DEBUG", "msg": "fetch attempt", "url": url, "attempt": 2.0, "status": 200.0},
		{"level": "INFO", "msg": "fetch done", "url": url, "status": 200.0, "bytes": float64(len(indexJSON)), "attempts": 2.0},
		{"level": "WARN", "msg": "fetch attempt", "url": task, "attempt": 1.0, "status": 404.0},
		{"level": "ERROR", "msg": "fetch failed", "url": task, "status": 404.0, "bytes": 0.0, "attempts": 1.0,
			"error": "fetch " + task + ": 404 Not Found after 1 attempt"},
	}
	got := logs.records(t)
	for _, rec := range got {
		if d, ok := rec["duration"].(float64); !ok || d < 0 {
			t.Errorf("record without a duration: %v", rec)
		}
	}
	ignore := cmpopts.IgnoreMapEntries(func(k string, _ any) bool { return k == "time" || k == "duration" })
	if diff := cmp.Diff(want, got, ignore); diff != "" {
		t.Errorf("log records (-want +got):\n%s", diff)
	}
}

func TestHTTPBody(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	now := time.Date(2026, 9, 26, 12, 0, 0, 0, time.FixedZone("CEST", 2*3600))
	logger, logs := newLogger()
	src := s.Source(fetch.HTTPOptions{Now: func() time.Time { return now }, Logger: logger})

	body, err := src.Open(t.Context(), fetch.LeaderboardTask("gpqa"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	if err := body.Close(); err != nil {
		t.Fatal(err)
	}
	got := fetch.File{Name: fetch.LeaderboardTask("gpqa"), URL: body.URL, FinalURL: body.FinalURL, Retrieved: body.Retrieved, Data: data}
	want := fetch.File{
		Name:      "leaderboard/tasks/gpqa.json",
		URL:       s.URL + fetchtest.LeaderboardPrefix + "tasks/gpqa.json",
		FinalURL:  s.URL + fetchtest.LeaderboardPrefix + "tasks/gpqa.json",
		Retrieved: time.Date(2026, 9, 26, 10, 0, 0, 0, time.UTC),
		Data:      []byte(gpqaJSON),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Open (-want +got):\n%s", diff)
	}
	if body.Retrieved.Location() != time.UTC {
		t.Errorf("Retrieved in %v, want UTC", body.Retrieved.Location())
	}
	f, err := fetch.ReadAll(t.Context(), src, fetch.LeaderboardTask("gpqa"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&want, f); diff != "" {
		t.Errorf("ReadAll (-want +got):\n%s", diff)
	}

	// Closing a body before its end is logged as such.
	body, err = src.Open(t.Context(), fetch.LeaderboardIndex)
	if err != nil {
		t.Fatal(err)
	}
	body.Read(make([]byte, 3))
	body.Close()
	if _, err := body.Read(make([]byte, 3)); err == nil {
		t.Error("read on a closed body succeeded")
	}
	if !strings.Contains(logs.String(), `"msg":"fetch closed before the end of the body","url":"`+s.URL+indexPath+`","status":200,"bytes":3`) {
		t.Errorf("no record of the early close:\n%s", logs)
	}
}

func TestHTTPContextCancelled(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fault fetchtest.Fault
		want  string
	}{
		{"while waiting for an answer", fetchtest.Fault{Delay: time.Hour},
			": no answer: context deadline exceeded after 1 attempt"},
		{"while waiting to retry", fetchtest.Fault{Status: 503},
			": context deadline exceeded while waiting to retry (last answer 503 Service Unavailable) after 1 attempt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				s := newMemoryServer(t)
				s.Fault(indexPath, tt.fault)
				ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
				defer cancel()
				start := time.Now()
				_, err := s.Source(fetch.HTTPOptions{RetryWaitMin: time.Second}).Open(ctx, fetch.LeaderboardIndex)
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("error = %v, want context.DeadlineExceeded", err)
				}
				wantErr(t, err, "fetch "+s.URL+indexPath+tt.want)
				if elapsed := time.Since(start); elapsed != 50*time.Millisecond {
					t.Errorf("took %v; want the context's 50ms", elapsed)
				}
				if got := s.Hits(indexPath); got != 1 {
					t.Errorf("server saw %d requests, want 1", got)
				}
			})
		})
	}
}

// TestHTTPDeadline: a body that trickles in, never stalling for Timeout,
// still ends at the deadline on the whole download, with an error naming
// the file and the bytes received; so does a server that never answers.
// The test runs in a synctest bubble over in-memory connections: the drip,
// the deadline and the sleep past it pass in the bubble's time, so the ends
// are exact whatever the machine's speed.
func TestHTTPDeadline(t *testing.T) {
	t.Parallel()
	csv := strings.Repeat("Area,Year,Value\n", 125) // 2000 bytes: 1 s at 20 bytes per 10 ms
	bigJSON := `{"rows":"` + strings.Repeat("x", 1990) + `"}`
	opts := fetch.HTTPOptions{Timeout: time.Second, Deadline: 100 * time.Millisecond, MaxTotalWait: 5 * time.Second}
	drip := fetchtest.Fault{DripBytes: 20, DripEvery: 10 * time.Millisecond}
	deadline := func(name string) string {
		return "the download of " + name + " did not end within its 100ms deadline (--deadline); "
	}
	received := regexp.MustCompile(`; (\d+) bytes of its body received`)
	check := func(t *testing.T, err error, name string, read, total int) {
		t.Helper()
		wantErr(t, err, deadline(name))
		m := received.FindStringSubmatch(err.Error())
		if m == nil {
			t.Fatalf("error %q does not say how many bytes came", err)
		}
		n, _ := strconv.Atoi(m[1])
		if n != read || (total > 0 && (n == 0 || n >= total)) {
			t.Errorf("error says %d bytes received; read %d of %d", n, read, total)
		}
	}
	took := func(t *testing.T, start time.Time, want time.Duration) {
		t.Helper()
		if elapsed := time.Since(start); elapsed != want {
			t.Errorf("took %v; want the %v deadline", elapsed, want)
		}
	}

	t.Run("streamed CSV that trickles", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			s := fetchtest.NewMemoryServer(t, "")
			s.Map(fetchtest.EmberPath, writeTree(t, map[string]string{"y.csv": csv})+"/y.csv")
			s.Fault(fetchtest.EmberPath, drip)
			start := time.Now()
			body, err := s.Source(opts).Open(t.Context(), fetch.EmberYearly)
			if err != nil {
				t.Fatal(err)
			}
			defer body.Close()
			data, err := io.ReadAll(body)
			took(t, start, 100*time.Millisecond)
			check(t, err, "Ember's yearly CSV", len(data), len(csv))
			wantErr(t, err, "fetch "+s.URL+fetchtest.EmberPath+": ")
			if !strings.HasPrefix(csv, string(data)) {
				t.Errorf("read %q, not a prefix of the file", data)
			}
		})
	})
	t.Run("JSON that trickles", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			s := fetchtest.NewMemoryServer(t, writeTree(t, map[string]string{"index.json": bigJSON}))
			s.Fault(indexPath, drip)
			start := time.Now()
			_, err := fetch.ReadAll(t.Context(), s.Source(opts), fetch.LeaderboardIndex)
			took(t, start, 100*time.Millisecond)
			m := received.FindStringSubmatch(fmt.Sprint(err))
			n := 0
			if m != nil {
				n, _ = strconv.Atoi(m[1])
			}
			check(t, err, fetch.LeaderboardIndex, n, len(bigJSON))
			wantErr(t, err, "fetch "+s.URL+indexPath+": ", " after 1 attempt")
		})
	})
	t.Run("no answer at all", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			s := newMemoryServer(t)
			s.Fault(indexPath, fetchtest.Fault{Delay: time.Hour})
			start := time.Now()
			_, err := fetch.ReadAll(t.Context(), s.Source(fetch.HTTPOptions{Timeout: 5 * time.Second, Deadline: 50 * time.Millisecond}), fetch.LeaderboardIndex)
			took(t, start, 50*time.Millisecond)
			wantErr(t, err, "the download of leaderboard/index.json did not end within its 50ms deadline (--deadline); 0 bytes of its body received after 1 attempt")
		})
	})
	t.Run("a body read whole is not cut off later", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			s := newMemoryServer(t)
			body, err := s.Source(fetch.HTTPOptions{Deadline: 30 * time.Millisecond}).Open(t.Context(), fetch.LeaderboardIndex)
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(body)
			if err != nil || string(data) != indexJSON {
				t.Fatalf("read %q, %v", data, err)
			}
			time.Sleep(60 * time.Millisecond) // past the deadline, on the bubble's clock
			if n, err := body.Read(make([]byte, 1)); n != 0 || err != io.EOF {
				t.Errorf("after the end: %d, %v; want 0, EOF", n, err)
			}
			body.Close()
		})
	})
}
