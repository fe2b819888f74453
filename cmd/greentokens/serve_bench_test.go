package main

import (
	"bufio"
	"bytes"
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

// processRSS is a process's resident memory, from /proc/PID/status.
func processRSS(b *testing.B, p *os.Process) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.Pid))
	if err != nil {
		b.Skip("no /proc: resident memory cannot be read here")
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb / 1024
		}
	}
	b.Fatal("no VmRSS")
	return 0
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
		b.ReportMetric(processRSS(b, p), "rss-MiB")
		for _, c := range idle {
			c.Close()
		}
		client.CloseIdleConnections()
	}
}

// releases is how many snapshots BenchmarkServeThirtyReleases serves.
const releases = 30

// BenchmarkServeThirtyReleases builds releases snapshots, each archiving
// ember-synth's 40 MB CSV, runs greentokens serve over them, opens each
// date's site (its overview, a model page, its task file) and reports the
// server's resident memory: the CSVs are checked at load and not held.
func BenchmarkServeThirtyReleases(b *testing.B) {
	csv := gridtest.SynthCSV(b, 1)
	root := b.TempDir()
	var dates []string
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
	addr, p := serveProcess(b, root)
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
		b.ReportMetric(processRSS(b, p), "rss-MiB")
	}
}
