package api

import (
	"bufio"
	"bytes"
	"io"
	"net"
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
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/site"
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

// target is a request of a load run and the status it must get; with
// status 0 (an attacker's request), any answer or error will do.
type target struct {
	path, inm string
	status    int
}

// loadResult is what a load run measured.
type loadResult struct {
	n       int64 // requests answered
	bytes   int64 // bytes of the answers' bodies
	elapsed time.Duration
	p99     time.Duration
	rssMid  int64 // resident memory a third into the run
}

func (r loadResult) rate() float64 { return float64(r.n) / r.elapsed.Seconds() }

// runLoad runs clients concurrent clients against base for loadDuration
// (and at most loadMaxRequests), client c cycling through targets from
// c. It fails on any error or unexpected status; it never asserts a time.
func runLoad(b *testing.B, base string, clients int, targets []target) loadResult {
	return runLoadFor(b, base, clients, targets, loadDuration)
}

// runLoadFor is runLoad for d.
func runLoadFor(b *testing.B, base string, clients int, targets []target, d time.Duration) loadResult {
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: clients, MaxIdleConnsPerHost: clients}}
	defer client.CloseIdleConnections()
	var hist histogram
	var sent, errs, read atomic.Int64
	var firstErr atomic.Value
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	start := time.Now()
	for c := range clients {
		wg.Go(func() {
			buf := make([]byte, 64<<10)
			for i := c; time.Now().Before(deadline) && sent.Add(1) <= loadMaxRequests; i++ {
				tg := targets[i%len(targets)]
				req, _ := http.NewRequest(http.MethodGet, base+tg.path, nil)
				if tg.inm != "" {
					req.Header.Set("If-None-Match", tg.inm)
				}
				t0 := time.Now()
				resp, err := client.Do(req)
				if err == nil {
					var n int64
					n, err = io.CopyBuffer(io.Discard, resp.Body, buf)
					read.Add(n)
					resp.Body.Close()
					if err == nil && resp.StatusCode != tg.status {
						err = &statusError{tg.path, resp.StatusCode}
					}
				}
				hist.add(time.Since(t0))
				if err != nil && tg.status != 0 {
					errs.Add(1)
					firstErr.CompareAndSwap(nil, err)
				}
			}
		})
	}
	time.Sleep(d / 3)
	mid := rss(b)
	wg.Wait()
	res := loadResult{n: hist.count(), bytes: read.Load(), elapsed: time.Since(start), p99: hist.quantile(0.99), rssMid: mid}
	if n := errs.Load(); n > 0 {
		b.Fatalf("%d errors under load; first: %v", n, firstErr.Load())
	}
	return res
}

// loopbackServer serves the API, the site and /mcp over the shared test
// snapshot on 127.0.0.1, with the production server's limits and
// connection cap.
func loopbackServer(b *testing.B) (string, *catalog.Catalog) {
	cat, err := catalog.Open(catalogtest.Shared(b), nil)
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	ts.Config = NewServer(New(cat, Options{Site: site.Sites(cat, site.Options{})}))
	ts.Start()
	b.Cleanup(ts.Close)
	return ts.URL, cat
}

func reportLoad(b *testing.B, r loadResult) {
	b.ReportMetric(r.rate(), "req/s")
	b.ReportMetric(float64(r.p99.Microseconds())/1000, "p99-ms")
}

// BenchmarkLoopbackLoad runs loadClients concurrent clients against a
// server on 127.0.0.1 for loadDuration (and at most loadMaxRequests),
// cycling through the carbon endpoint, a model file, a model file answered
// 304, and the model list. It reports requests per second and the 99th
// percentile latency, and fails on any error or when resident memory grows
// past rssGrowthMax after the first third of the run. It never asserts a
// time.
func BenchmarkLoopbackLoad(b *testing.B) {
	url, cat := loopbackServer(b)
	s, _ := cat.Snapshot(catalog.Latest)
	f, _ := s.File(format.ModelPath("qwen-3-32b"))
	targets := []target{
		{carbonURL, "", 200},
		{"/v1/latest/models/qwen-3-32b", "", 200},
		{"/v1/latest/models/qwen-3-32b", `"` + f.SHA256 + `"`, http.StatusNotModified},
		{"/v1/latest/models", "", 200},
	}
	for b.Loop() {
		r := runLoad(b, url, loadClients, targets)
		rssEnd := rss(b)
		if rssEnd-r.rssMid > rssGrowthMax {
			b.Fatalf("resident memory grew from %d to %d MiB under load", r.rssMid>>20, rssEnd>>20)
		}
		reportLoad(b, r)
		b.ReportMetric(float64(rssEnd)/(1<<20), "rss-MiB")
		b.ReportMetric(float64(rssEnd-r.rssMid)/(1<<20), "rss-growth-MiB")
	}
}

// twoGrids is the two-grid carbon answer of the load benchmarks: each GPU's
// index row of a model on two grids.
const twoGrids = "/v1/latest/carbon?model=qwen-3-32b&grid=SAU&grid=NOR"

// BenchmarkLoopbackModel and BenchmarkLoopbackCarbon: loadClients clients
// asking for one answer only, a model file or a two-grid carbon answer.
func BenchmarkLoopbackModel(b *testing.B) {
	url, _ := loopbackServer(b)
	for b.Loop() {
		reportLoad(b, runLoad(b, url, loadClients, []target{{"/v1/latest/models/qwen-3-32b", "", 200}}))
	}
}

func BenchmarkLoopbackCarbon(b *testing.B) {
	url, _ := loopbackServer(b)
	for b.Loop() {
		reportLoad(b, runLoad(b, url, loadClients, []target{{twoGrids, "", 200}}))
	}
}

// attackClients send names of attackBytes, each answered 400.
const (
	attackClients = 8
	attackBytes   = 60 << 10
)

// BenchmarkLoopbackAttack: the two-grid carbon answer's rate with
// loadClients clients alone, then with attackClients more sending 60 KB
// model names (in the path, in the query) as fast as they are answered (by
// net/http's 431, which closes the connection: the header is over
// MaxHeaderBytes), and names just under MaxQueryBytes and MaxPathBytes
// (400 and 414); it reports the legitimate rate under attack, its share of
// the rate alone (kept-%), and the attackers' rate. The attackers write
// their requests on raw connections (attack), as a script would, so that
// what they cost is the server's work more than a client library's in
// this same process.
func BenchmarkLoopbackAttack(b *testing.B) {
	url, _ := loopbackServer(b)
	addr := strings.TrimPrefix(url, "http://")
	name := strings.Repeat("qwen-3-32b", attackBytes/10)
	legit := []target{{twoGrids, "", 200}}
	var attacks [][]byte
	for _, path := range []string{
		"/v1/latest/models/" + name,
		"/v1/latest/carbon?model=qwen-3-32b&grid=" + name,
		"/v1/latest/carbon?model=qwen-3-32b&grid=" + name[:MaxQueryBytes-64],
		"/v1/latest/models/" + name[:MaxPathBytes-32],
	} {
		attacks = append(attacks, []byte("GET "+path+" HTTP/1.1\r\nHost: localhost\r\n\r\n"))
	}
	// The runs alone and under attack alternate in attackSlices slices, so
	// that a change in the machine's other load weighs on both alike.
	const attackSlices = 6
	slice := 2 * loadDuration / attackSlices
	for b.Loop() {
		var alone, under loadResult
		var attacked int64
		var attackTime time.Duration
		add := func(sum *loadResult, r loadResult) {
			sum.n += r.n
			sum.elapsed += r.elapsed
			sum.p99 = max(sum.p99, r.p99)
		}
		for i := range attackSlices {
			if i%2 == 0 {
				add(&alone, runLoadFor(b, url, loadClients, legit, slice))
				continue
			}
			var n atomic.Int64
			var wg sync.WaitGroup
			deadline := time.Now().Add(slice)
			for c := range attackClients {
				wg.Go(func() { n.Add(attack(addr, attacks, c, deadline)) })
			}
			add(&under, runLoadFor(b, url, loadClients, legit, slice))
			wg.Wait()
			attacked += n.Load()
			attackTime += slice
		}
		reportLoad(b, under)
		b.ReportMetric(100*under.rate()/alone.rate(), "kept-%")
		b.ReportMetric(float64(attacked)/attackTime.Seconds(), "attack-req/s")
	}
}

// attack sends requests (whole HTTP/1.1 requests) to addr in turn, from
// the c-th, on one connection while the server keeps it open and on a new
// one when it closes it, until deadline; it returns how many were answered.
func attack(addr string, requests [][]byte, c int, deadline time.Time) int64 {
	var n int64
	var conn net.Conn
	var br *bufio.Reader
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	for i := c; time.Now().Before(deadline); i++ {
		if conn == nil {
			var err error
			if conn, err = net.Dial("tcp", addr); err != nil {
				continue
			}
			conn.SetDeadline(deadline)
			br = bufio.NewReader(conn)
		}
		conn.Write(requests[i%len(requests)]) // the server may close before reading it all
		resp, err := http.ReadResponse(br, nil)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			n++
		}
		if err != nil || resp.Close {
			conn.Close()
			conn = nil
		}
	}
	return n
}

// BenchmarkLoopbackSiteTaskFile: the site's archived task file
// (/DATE/data/sources/..., 286 KB) and the API's index.json (94 KB with
// seven grids), each asked for by loadClients clients: both from memory.
// Besides requests per second, it reports the bytes of answers per second
// (body-MB/s), which compares answers of different sizes.
func BenchmarkLoopbackSiteTaskFile(b *testing.B) {
	url, _ := loopbackServer(b)
	for _, tc := range []struct{ name, path string }{
		{"site-task-file", "/" + catalogtest.Date + "/data/sources/leaderboard/tasks/lm-arena-chat.json"},
		{"api-index", "/v1/latest/index"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				r := runLoad(b, url, loadClients, []target{{tc.path, "", 200}})
				reportLoad(b, r)
				b.ReportMetric(float64(r.bytes)/r.elapsed.Seconds()/1e6, "body-MB/s")
			}
		})
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
