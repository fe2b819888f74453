package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The hostile cases below run against the server in memory, over pipes or
// on 127.0.0.1, a bounded number of messages each.

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

type rpcAnswer struct {
	ID    any `json:"id"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Result json.RawMessage `json:"result"`
	raw    string
}

// stdio runs the stdio server over input, until it ends, and returns each
// line it wrote, decoded.
func stdio(t *testing.T, cat *catalog.Catalog, input string) []rpcAnswer {
	t.Helper()
	var out bytes.Buffer
	if err := ServeStdio(context.Background(), cat, testVersion, strings.NewReader(input), &out); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	var got []rpcAnswer
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var a rpcAnswer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("a line that is not JSON-RPC: %s", sc.Text())
		}
		a.raw = sc.Text()
		got = append(got, a)
	}
	return got
}

// TestStdioBadLines: a line that is not JSON, null, a batch and a line
// over MaxRequestBytes are each answered with a JSON-RPC error and the
// server keeps serving: the requests after them are answered, all of them
// before the end of input ends the server.
func TestStdioBadLines(t *testing.T) {
	cat, _ := openCatalog(t)
	input := strings.Join([]string{
		initialize,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{not json`,
		`null`,
		`[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"get_model","arguments":{"model":"` + strings.Repeat("q", MaxRequestBytes) + `"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"price_carbon","arguments":{"model":"qwen-3-32b","grids":["NOR"],"gpu":"B200"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_models","arguments":{}}}`,
	}, "\n") + "\n"
	got := stdio(t, cat, input)
	codes := map[int]int{}
	ids := map[float64]bool{}
	for _, a := range got {
		if a.Error != nil && strings.Contains(a.raw, `"id":null`) {
			codes[a.Error.Code]++
		}
		if id, ok := a.ID.(float64); ok && a.Error == nil {
			ids[id] = true
		}
	}
	if codes[-32700] != 2 || codes[-32600] != 2 {
		t.Errorf("errors of id null by code %v; want 2 parse errors (not JSON, too long) and 2 invalid requests (null, a batch)", codes)
	}
	for _, id := range []float64{1, 2, 3, 4} {
		if !ids[id] {
			t.Errorf("request %v is not answered before the server ended: %+v", id, got)
		}
	}
}

// TestStdioBeforeInitialize: a call before initialize is answered with a
// JSON-RPC error code, not 0.
func TestStdioBeforeInitialize(t *testing.T) {
	cat, _ := openCatalog(t)
	got := stdio(t, cat, `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`+"\n")
	if len(got) != 1 || got[0].Error == nil || got[0].Error.Code != -32600 {
		t.Errorf("answers %+v; want one error -32600", got)
	}
}

// post sends body to the MCP handler at url with the headers given.
func post(t *testing.T, url, body string, header ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestHTTPBatchesAndSize: a JSON-RPC batch is refused whole, with or
// without the protocol version header; so is a body over MaxRequestBytes.
func TestHTTPBatchesAndSize(t *testing.T) {
	cat, _ := openCatalog(t)
	srv := httptest.NewServer(Handler(cat, loopback(t), testVersion))
	defer srv.Close()
	call := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_model","arguments":{"model":"qwen-3-32b"}}}`
	batch := "[" + strings.TrimSuffix(strings.Repeat(strings.Replace(call, "%d", "1", 1)+",", 100), ",") + "]"
	for _, h := range [][]string{nil, {"MCP-Protocol-Version", "2025-03-26"}} {
		if code, body := post(t, srv.URL, batch, h...); code != 400 || !strings.Contains(body, `"id":null`) || !strings.Contains(body, "-32600") {
			t.Errorf("a batch of 100 calls (headers %v): %d %.200s", h, code, body)
		}
	}
	huge := strings.Replace(call, "qwen-3-32b", strings.Repeat("q", MaxRequestBytes), 1)
	if code, _ := post(t, srv.URL, huge); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over %d bytes: %d", MaxRequestBytes, code)
	}
}

// TestHTTPHostAndOrigin: /mcp answers only Host and Origin names on the
// allow-list, so a page whose name was rebound to the server's address
// (Host and Origin both evil.example) is refused, on a server bound to
// every interface too; --allow-origin adds names.
func TestHTTPHostAndOrigin(t *testing.T) {
	cat, _ := openCatalog(t)
	all, err := Allow("0.0.0.0:8080", []string{"https://app.example.org", "api.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(cat, all, testVersion))
	defer srv.Close()
	for _, tc := range []struct {
		host, origin string
		want         int
	}{
		{"evil.example", "http://evil.example", 403},
		{"evil.example:8080", "", 403},
		{"localhost:8080", "http://evil.example", 403},
		{"0.0.0.0:8080", "", 403},
		{"localhost:8080", "", 200},
		{"127.0.0.1:8080", "http://localhost:3000", 200},
		{"[::1]:8080", "", 200},
		{"api.example.org", "https://app.example.org", 200},
	} {
		h := []string{"Host", tc.host}
		if tc.origin != "" {
			h = append(h, "Origin", tc.origin)
		}
		if code, body := post(t, srv.URL, initialize, h...); code != tc.want {
			t.Errorf("Host %q, Origin %q: %d, want %d: %.200s", tc.host, tc.origin, code, tc.want, body)
		}
	}
	if _, err := Allow("127.0.0.1:0", []string{"https://"}); err == nil {
		t.Error("an origin without a host is allowed")
	}
}

// TestDNSRebinding: a request that reached a server on a non-loopback
// address (here only in the request's context: nothing listens beyond
// 127.0.0.1) with Host and Origin both evil.example is refused; the SDK's
// own check covers loopback connections only.
func TestDNSRebinding(t *testing.T) {
	cat, _ := openCatalog(t)
	allow, err := Allow("192.0.2.1:8080", nil)
	if err != nil {
		t.Fatal(err)
	}
	h := Handler(cat, allow, testVersion)
	for host, want := range map[string]int{"evil.example": 403, "192.0.2.1:8080": 200} {
		req := httptest.NewRequest(http.MethodPost, "http://"+host+"/mcp", strings.NewReader(initialize))
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.ParseIP("192.0.2.1"), Port: 8080}))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Origin", "http://"+host)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != want {
			t.Errorf("Host and Origin %s: %d, want %d: %.200s", host, w.Code, want, w.Body)
		}
	}
}

// TestLongNamesMCP: price_carbon and get_model with names of 256 KB (in
// memory, no transport cap) are tool errors that name no suggestion.
func TestLongNamesMCP(t *testing.T) {
	cat, _ := openCatalog(t)
	cs := inMemory(t, cat)
	long := strings.Repeat("Germany", 256<<10/7)
	for _, args := range []map[string]any{
		{"model": "qwen-3-32b", "grids": []string{long}},
		{"model": long, "grids": []string{"NOR"}},
		{"model": "qwen-3-32b", "grids": []string{"NOR"}, "gpu": long},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "price_carbon", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		var text string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		if !res.IsError || len(text) > 512 || strings.Contains(text, "nearest") {
			t.Errorf("a 256 KB name: isError %v, %d bytes of text", res.IsError, len(text))
		}
	}
}

// TestNoNaNOrInfinity: price_carbon's numbers are JSON numbers, so NaN and
// an infinity cannot reach the catalog: NaN and Infinity are not JSON (a
// parse error), a number beyond float64 (1e400) and a number given as
// text ("Inf") are tool errors.
func TestNoNaNOrInfinity(t *testing.T) {
	cat, _ := openCatalog(t)
	call := func(id int, arg string) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"price_carbon","arguments":{"model":"qwen-3-32b","grids":["NOR"],` + arg + `}}}`
	}
	notJSON := []string{`"running_batch":NaN`, `"grid_intensity":Infinity`, `"running_batch":-Infinity`}
	toolErrors := []string{`"running_batch":1e400`, `"grid_intensity":-1e400`, `"num_gpus":1e400`, `"running_batch":"Inf"`, `"grid_intensity":"NaN"`}
	lines := []string{initialize, `{"jsonrpc":"2.0","method":"notifications/initialized"}`}
	for i, a := range notJSON {
		lines = append(lines, call(10+i, a))
	}
	for i, a := range toolErrors {
		lines = append(lines, call(20+i, a))
	}
	parseErrors := 0
	answered := map[float64]bool{}
	for _, a := range stdio(t, cat, strings.Join(lines, "\n")+"\n") {
		id, _ := a.ID.(float64)
		switch {
		case a.ID == nil && a.Error != nil && a.Error.Code == -32700:
			parseErrors++
		case id >= 20:
			var res struct {
				IsError bool `json:"isError"`
			}
			if err := json.Unmarshal(a.Result, &res); err != nil || !res.IsError {
				t.Errorf("%s: answered %s; want a tool error", toolErrors[int(id)-20], a.raw)
			}
			answered[id] = true
		case id >= 10:
			t.Errorf("%s: answered %s; want a parse error", notJSON[int(id)-10], a.raw)
		}
	}
	if parseErrors != len(notJSON) || len(answered) != len(toolErrors) {
		t.Errorf("%d parse errors, %d tool errors; want %d and %d", parseErrors, len(answered), len(notJSON), len(toolErrors))
	}
}

// messageOf is a tools/call of get_model of exactly n bytes: its model
// name is padded (a name over catalog.MaxNameBytes, answered with a tool
// error).
func messageOf(t *testing.T, id, n int) string {
	t.Helper()
	head := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"get_model","arguments":{"model":"`
	tail := `"}}}`
	m := head + strings.Repeat("q", n-len(head)-len(tail)) + tail
	if len(m) != n || !json.Valid([]byte(m)) {
		t.Fatalf("a message of %d bytes, want %d", len(m), n)
	}
	return m
}

// TestRequestCap: both transports take a message of MaxRequestBytes bytes,
// with or without the newline that ends it, and refuse one of a byte more:
// over HTTP with 413, over stdio with a parse error, the server serving
// on.
func TestRequestCap(t *testing.T) {
	cat, _ := openCatalog(t)
	srv := httptest.NewServer(Handler(cat, loopback(t), testVersion))
	defer srv.Close()
	for _, tc := range []struct {
		body string
		want int
	}{
		{messageOf(t, 1, MaxRequestBytes), http.StatusOK},
		{messageOf(t, 1, MaxRequestBytes) + "\n", http.StatusOK},
		{messageOf(t, 1, MaxRequestBytes+1), http.StatusRequestEntityTooLarge},
		{messageOf(t, 1, MaxRequestBytes+1) + "\n", http.StatusRequestEntityTooLarge},
		{messageOf(t, 1, MaxRequestBytes) + "\n\n", http.StatusRequestEntityTooLarge},
	} {
		code, body := post(t, srv.URL, tc.body)
		if code != tc.want || code == http.StatusOK && !strings.Contains(body, `"isError":true`) {
			t.Errorf("HTTP, a body of %d bytes: %d %.200s; want %d", len(tc.body), code, body, tc.want)
		}
	}

	input := strings.Join([]string{
		initialize,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		messageOf(t, 2, MaxRequestBytes),
		messageOf(t, 3, MaxRequestBytes+1),
		messageOf(t, 4, MaxRequestBytes),
	}, "\n") // the last line without a newline
	var tooLong, answered []string
	for _, a := range stdio(t, cat, input) {
		switch {
		case a.ID == nil && a.Error != nil && a.Error.Code == -32700:
			tooLong = append(tooLong, a.Error.Message)
		case a.ID != nil && a.Error == nil && strings.Contains(string(a.Result), `"isError":true`):
			answered = append(answered, strconv.Itoa(int(a.ID.(float64))))
		}
	}
	want := "the line is over " + strconv.Itoa(MaxRequestBytes) + " bytes"
	slices.Sort(answered) // the calls are answered in any order
	if !slices.Equal(tooLong, []string{want}) || !slices.Equal(answered, []string{"2", "4"}) {
		t.Errorf("stdio: parse errors %q, tool errors for ids %v; want [%q] and [2 4]", tooLong, answered, want)
	}
}
