package api

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/catalog/catalogtest"
)

const carbonURL = "/v1/latest/carbon?model=Qwen+3+32B&grid=SAU&grid=NOR&grid=IND&gpu=B200"

// BenchmarkCarbonHandler measures the carbon endpoint's handler alone (no
// network): parse, look up, price, encode.
func BenchmarkCarbonHandler(b *testing.B) {
	cat, err := catalog.Open(catalogtest.Shared(b), nil)
	if err != nil {
		b.Fatal(err)
	}
	h := New(cat, Options{})
	req := httptest.NewRequest(http.MethodGet, carbonURL, nil)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

// Load test bounds.
const (
	loadClients = 64
	// loadDuration is the length of a run, and loadMaxRequests a cap on
	// its requests, whichever comes first.
	loadDuration    = 3 * time.Second
	loadMaxRequests = 2_000_000
	// rssGrowthMax bounds the growth of resident memory from the first
	// third of a run to its end.
	rssGrowthMax = 24 << 20
)

// BenchmarkLoopbackLoad runs loadClients concurrent clients against a
// server on 127.0.0.1 for loadDuration (and at most loadMaxRequests),
// cycling through the carbon endpoint, a model file, a model file answered
// 304, and the model list. It reports requests per second and the 99th
// percentile latency, and fails on any error or when resident memory grows
// past rssGrowthMax after the first third of the run. It never asserts a
// time.
func BenchmarkLoopbackLoad(b *testing.B) {
	cat, err := catalog.Open(catalogtest.Shared(b), nil)
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	ts.Config = NewServer(New(cat, Options{}))
	ts.Start()
	defer ts.Close()
	s, _ := cat.Snapshot(catalog.Latest)
	f, _ := s.File(catalog.ModelPath("qwen-3-32b"))
	type target struct{ path, inm string }
	targets := []target{
		{carbonURL, ""},
		{"/v1/latest/models/qwen-3-32b", ""},
		{"/v1/latest/models/qwen-3-32b", `"` + f.SHA256 + `"`},
		{"/v1/latest/models", ""},
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: loadClients, MaxIdleConnsPerHost: loadClients}}
	for b.Loop() {
		var hist histogram
		var sent, errs atomic.Int64
		var firstErr atomic.Value
		deadline := time.Now().Add(loadDuration)
		var rssEarly int64
		var wg sync.WaitGroup
		start := time.Now()
		for c := range loadClients {
			wg.Go(func() {
				buf := make([]byte, 64<<10)
				for i := c; time.Now().Before(deadline) && sent.Add(1) <= loadMaxRequests; i++ {
					tg := targets[i%len(targets)]
					req, _ := http.NewRequest(http.MethodGet, ts.URL+tg.path, nil)
					if tg.inm != "" {
						req.Header.Set("If-None-Match", tg.inm)
					}
					t0 := time.Now()
					resp, err := client.Do(req)
					if err == nil {
						_, err = io.CopyBuffer(io.Discard, resp.Body, buf)
						resp.Body.Close()
						want := http.StatusOK
						if tg.inm != "" {
							want = http.StatusNotModified
						}
						if err == nil && resp.StatusCode != want {
							err = &statusError{tg.path, resp.StatusCode}
						}
					}
					hist.add(time.Since(t0))
					if err != nil {
						errs.Add(1)
						firstErr.CompareAndSwap(nil, err)
					}
				}
			})
		}
		time.Sleep(loadDuration / 3)
		rssEarly = rss(b)
		wg.Wait()
		elapsed := time.Since(start)
		rssEnd := rss(b)
		if n := errs.Load(); n > 0 {
			b.Fatalf("%d errors under load; first: %v", n, firstErr.Load())
		}
		if rssEnd-rssEarly > rssGrowthMax {
			b.Fatalf("resident memory grew from %d to %d MiB under load", rssEarly>>20, rssEnd>>20)
		}
		n := hist.count()
		b.ReportMetric(float64(n)/elapsed.Seconds(), "req/s")
		b.ReportMetric(float64(hist.quantile(0.99).Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(rssEnd)/(1<<20), "rss-MiB")
		b.ReportMetric(float64(rssEnd-rssEarly)/(1<<20), "rss-growth-MiB")
	}
}

type statusError struct {
	path   string
	status int
}

func (e *statusError) Error() string { return e.path + ": status " + strconv.Itoa(e.status) }

// histogram counts latencies in 10 µs buckets up to 1 s (and one bucket
// beyond), so a run of any length holds the same memory.
type histogram struct {
	buckets [100_001]atomic.Int64
}

const bucketWidth = 10 * time.Microsecond

func (h *histogram) add(d time.Duration) {
	i := int(d / bucketWidth)
	if i >= len(h.buckets) {
		i = len(h.buckets) - 1
	}
	h.buckets[i].Add(1)
}

func (h *histogram) count() int64 {
	var n int64
	for i := range h.buckets {
		n += h.buckets[i].Load()
	}
	return n
}

// quantile returns the upper edge of the bucket holding quantile q.
func (h *histogram) quantile(q float64) time.Duration {
	n := h.count()
	want := int64(float64(n) * q)
	var seen int64
	for i := range h.buckets {
		seen += h.buckets[i].Load()
		if seen > want {
			return time.Duration(i+1) * bucketWidth
		}
	}
	return time.Duration(len(h.buckets)) * bucketWidth
}

// rss is this process's resident memory, from /proc/self/status.
func rss(b *testing.B) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status: resident memory cannot be read here")
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmRSS in /proc/self/status")
	return 0
}
