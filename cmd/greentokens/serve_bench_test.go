package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/transform/grid/gridtest"
)

// serveProcess runs greentokens serve over root on 127.0.0.1 and returns
// its address and process; the process is killed when the benchmark ends.
func serveProcess(b *testing.B, root string) (string, *os.Process) {
	cmd := exec.Command(command.For(b, sharedRoot, "."), "serve", "--snapshots", root, "--addr", "127.0.0.1:0", "--rescan", "0", "--log-format", "json")
	addr, _ := startServe(b, cmd)
	return addr, cmd.Process
}

// reportRSS reports a process's resident memory, from /proc/PID/status:
// rss-MiB in all, of which anon-MiB is its own (heap, stacks) and file-MiB
// the pages of its binary it has touched (clean, shared with every other
// process of the binary, dropped first under memory pressure).
func reportRSS(b *testing.B, p *os.Process) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.Pid))
	if err != nil {
		b.Skip("no /proc: resident memory cannot be read here")
	}
	for unit, field := range map[string]string{"rss-MiB": "VmRSS:", "anon-MiB": "RssAnon:", "file-MiB": "RssFile:"} {
		found := false
		for _, l := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(l, field); ok {
				kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(kb/1024, unit)
				found = true
			}
		}
		if !found {
			b.Fatalf("no %s in /proc/%d/status", field, p.Pid)
		}
	}
}

// Sizes of BenchmarkServeIdleAndMCP.
const (
	idleConnections = 1000
	mcpCalls        = 20000
	mcpClients      = 8
)

// BenchmarkServeIdleAndMCP runs greentokens serve over the shared test
// snapshot, opens idleConnections keep-alive connections that each get one
// answer and then stay idle, makes mcpCalls MCP tool calls over /mcp
// (mcpClients at a time, get_model and price_carbon in turn), and reports
// the server's resident memory. It fails on any error.
func BenchmarkServeIdleAndMCP(b *testing.B) {
	addr, p := serveProcess(b, catalogtest.Shared(b))
	for b.Loop() {
		var idle []net.Conn
		for i := range idleConnections {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				b.Fatal(err)
			}
			fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil || resp.StatusCode != 200 {
				b.Fatalf("idle connection %d: %v", i, err)
			}
			io.Copy(io.Discard, resp.Body)
			idle = append(idle, c)
		}
		calls := []string{
			`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_model","arguments":{"model":"Qwen/Qwen3-32B"}}}`,
			`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"price_carbon","arguments":{"model":"qwen-3-32b","grids":["SAU","NOR"]}}}`,
		}
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: mcpClients}}
		var wg sync.WaitGroup
		errs := make(chan error, mcpClients)
		for c := range mcpClients {
			wg.Go(func() {
				for i := c; i < mcpCalls; i += mcpClients {
					body := fmt.Sprintf(calls[i%len(calls)], i)
					req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Accept", "application/json, text/event-stream")
					resp, err := client.Do(req)
					if err != nil {
						errs <- err
						return
					}
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 || !bytes.Contains(b, []byte(`"result"`)) || bytes.Contains(b, []byte(`"isError":true`)) {
						errs <- fmt.Errorf("call %d: status %d: %.200s", i, resp.StatusCode, b)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
		reportRSS(b, p)
		for _, c := range idle {
			c.Close()
		}
		client.CloseIdleConnections()
	}
}

// releases is how many snapshots BenchmarkServeThirtyReleases serves.
const releases = 30

// thirtyReleases builds releases daily snapshots into a new folder, each
// archiving ember-synth's 40 MB CSV (stored once: the builds share it),
// and returns the folder and their dates.
func thirtyReleases(b *testing.B) (root string, dates []string) {
	csv := gridtest.SynthCSV(b, 1)
	root = b.TempDir()
	for i := range releases {
		date := time.Date(2026, 9, 1+i, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
		dates = append(dates, date)
		var stdout, stderr bytes.Buffer
		args := []string{"build", "--out", root, "--date", date, "--retrieved", "2026-08-31", "--from-leaderboard", seedLB,
			"--from-ember", csv, "--grid-year", "2024"}
		if code := run(args, &stdout, &stderr); code != exitOK {
			b.Fatalf("build %s: exit %d: %s", date, code, stderr.String())
		}
	}
	if fi, err := os.Stat(filepath.Join(root, dates[0], "sources", "ember")); err != nil || !fi.IsDir() {
		b.Fatalf("the snapshots do not archive the CSV: %v", err)
	}
	return root, dates
}

// serveReleases runs greentokens serve over store (a folder or a bucket's
// URL), waits until it serves every one of dates, opens each date's site
// (its overview, a model page, its task file), and reports the time from
// the process's start to serving them all (ready-ms) and its resident
// memory then (reportRSS): each archived CSV is checked at load and not held.
func serveReleases(b *testing.B, store string, dates []string) {
	start := time.Now()
	addr, p := serveProcess(b, store)
	for deadline := start.Add(10 * time.Minute); ; { // a guard against a hang
		if time.Now().After(deadline) {
			b.Fatalf("serve %s does not serve the %d releases", store, len(dates))
		}
		resp, err := http.Get("http://" + addr + "/v1/snapshots")
		if err != nil {
			b.Fatal(err)
		}
		var l struct{ Snapshots []struct{ Date string } }
		err = json.NewDecoder(resp.Body).Decode(&l)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		if len(l.Snapshots) == len(dates) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	ready := time.Since(start)
	for b.Loop() {
		for _, d := range dates {
			for _, path := range []string{"/", "/models/qwen-3-32b.html", "/data/sources/leaderboard/tasks/lm-arena-chat.json"} {
				resp, err := http.Get("http://" + addr + "/" + d + path)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Fatalf("%s%s: status %d", d, path, resp.StatusCode)
				}
			}
		}
		reportRSS(b, p)
		b.ReportMetric(float64(ready.Milliseconds()), "ready-ms")
	}
}

// BenchmarkServeThirtyReleases serves releases snapshots from a folder
// (serveReleases).
func BenchmarkServeThirtyReleases(b *testing.B) {
	root, dates := thirtyReleases(b)
	serveReleases(b, root, dates)
}
