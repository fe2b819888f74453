package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// MaxRequestBytes caps one JSON-RPC message on either transport: the body
// of a POST to /mcp and a line of stdio, the newline that ends it not
// counted (messageBytes). price_carbon with 50 grids of the longest names
// is about 12 KiB.
const MaxRequestBytes = 64 << 10

// messageBytes is the length of a message as MaxRequestBytes counts it:
// b less the newline that ends it, if it ends with one.
func messageBytes(b []byte) int {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		return n - 1
	}
	return len(b)
}

// loopbackNames are the host names /mcp always accepts.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// Allowlist holds the host names /mcp accepts in a request's Host header
// and in its Origin header, when it has one. Checking both stops DNS
// rebinding: a page of evil.example whose name now resolves to this server
// sends Host and Origin evil.example, which agree, so a same-origin check
// alone lets it through.
type Allowlist struct {
	names map[string]bool
}

// Allow is the allow-list of a server listening on addr: the loopback
// names, addr's host (unless it is every interface, "0.0.0.0" or "::",
// whose names clients use cannot be known), and each of extra, a host name
// ("greentokens.example.org") or an origin
// ("https://app.example.org:8443"), whose host name is taken.
func Allow(addr string, extra []string) (*Allowlist, error) {
	a := &Allowlist{names: map[string]bool{}}
	for _, n := range loopbackNames {
		a.names[n] = true
	}
	if host, _, err := net.SplitHostPort(addr); err == nil {
		if ip := net.ParseIP(host); host != "" && (ip == nil || !ip.IsUnspecified()) {
			a.names[strings.ToLower(host)] = true
		}
	}
	for _, e := range extra {
		name := e
		if strings.Contains(e, "://") {
			u, err := url.Parse(e)
			if err != nil || u.Hostname() == "" {
				return nil, fmt.Errorf("--allow-origin %q is neither a host name nor an origin (https://host[:port])", e)
			}
			name = u.Hostname()
		}
		if name == "" || strings.ContainsAny(name, "/ ") {
			return nil, fmt.Errorf("--allow-origin %q is neither a host name nor an origin (https://host[:port])", e)
		}
		a.names[strings.ToLower(name)] = true
	}
	return a, nil
}

// check says why r is refused, or "".
func (a *Allowlist) check(r *http.Request) string {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if !a.names[strings.ToLower(host)] {
		return "host " + strconv.Quote(truncate(r.Host)) + " is not on the allow-list (--allow-origin)"
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return "" // not a browser
	}
	u, err := url.Parse(origin)
	if err != nil || !a.names[strings.ToLower(u.Hostname())] {
		return "origin " + strconv.Quote(truncate(origin)) + " is not on the allow-list (--allow-origin)"
	}
	return ""
}

// guard wraps the streamable HTTP handler: a request whose Host or Origin
// is not allowed is refused (403), a body over MaxRequestBytes (a final
// newline not counted) too (413), and a JSON-RPC batch (an array) is
// refused (400; MCP dropped batching in its 2025-06-18 revision), so one
// request is one message, whatever its headers say.
func guard(allow *Allowlist, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if why := allow.check(r); why != "" {
			rpcError(w, http.StatusForbidden, jsonrpc.CodeInvalidRequest, why)
			return
		}
		if r.Method == http.MethodPost {
			// One byte more than the cap: the newline that may end the
			// message.
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequestBytes+1))
			var tooLarge *http.MaxBytesError
			switch {
			case errors.As(err, &tooLarge) || err == nil && messageBytes(body) > MaxRequestBytes:
				rpcError(w, http.StatusRequestEntityTooLarge, jsonrpc.CodeInvalidRequest,
					"the request is over "+strconv.Itoa(MaxRequestBytes)+" bytes")
				return
			case err != nil:
				rpcError(w, http.StatusBadRequest, jsonrpc.CodeParseError, "the request body cannot be read")
				return
			}
			if t := bytes.TrimLeft(body, " \t\r\n"); len(t) > 0 && t[0] == '[' {
				rpcError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not accepted: send one message per request")
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	})
}

// rpcError answers a JSON-RPC error that belongs to no request (id null).
func rpcError(w http.ResponseWriter, status int, code int64, msg string) {
	b := nullIDError(code, msg)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

func truncate(s string) string {
	if len(s) <= 64 {
		return s
	}
	return strings.ToValidUTF8(s[:64], "") + "..."
}

// nullIDError is a JSON-RPC error response that belongs to no request:
// "id" is null, as JSON-RPC 2.0 wants when the request's id cannot be read.
func nullIDError(code int64, msg string) []byte {
	type rpcErr struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	b, _ := json.Marshal(struct {
		JSONRPC string  `json:"jsonrpc"`
		ID      *string `json:"id"`
		Error   rpcErr  `json:"error"`
	}{"2.0", nil, rpcErr{code, msg}})
	return b
}
