//go:build s3

package bucket_test

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
)

// The S3 tests run against a real S3 server, versitygw, started on
// loopback by internal/versitygw (make s3); a proxy in front of it does
// the faults.

// faultProxy is a TCP proxy on 127.0.0.1 between the S3 client and the
// gateway. Armed, it does one fault to the connections that carry a
// request whose first line starts with the fault's marker ("PUT
// /bucket/key"): it cuts the connection once that many more bytes are
// forwarded (a dropped connection mid-upload), answers 500 itself (a
// failing store), or stops forwarding and holds the connection (a stalled
// store), for at most times connections (0: every one).
type faultProxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	fault *fault
	fired int
	conns []net.Conn
}

type fault struct {
	marker []byte
	kind   faultKind
	after  int // faultDrop: the bytes forwarded from the marker on
	times  int
}

type faultKind int

const (
	faultDrop faultKind = iota
	fault500
	faultStall
)

func newProxy(t *testing.T, target string) *faultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{ln: ln, target: target}
	go p.serve()
	t.Cleanup(p.close)
	return p
}

func (p *faultProxy) addr() string { return p.ln.Addr().String() }

// arm sets the fault to do; nil disarms.
func (p *faultProxy) arm(f *fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fault, p.fired = f, 0
}

// count is how many connections the armed fault hit.
func (p *faultProxy) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fired
}

// take returns the armed fault if marker's line is one it hits, counting
// the hit.
func (p *faultProxy) take(data []byte) (*fault, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.fault
	if f == nil || (f.times > 0 && p.fired >= f.times) {
		return nil, -1
	}
	i := bytes.Index(data, f.marker)
	if i < 0 {
		return nil, -1
	}
	p.fired++
	return f, i
}

func (p *faultProxy) close() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}

func (p *faultProxy) track(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conns = append(p.conns, cs...)
}

func (p *faultProxy) serve() {
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			continue
		}
		p.track(client, server)
		go func() { io.Copy(client, server); client.Close() }()
		go p.forward(client, server)
	}
}

// forward copies the client's bytes to the server, watching for the
// armed fault's marker (carried over from one read to the next, so that
// a marker split between two reads is seen).
func (p *faultProxy) forward(client, server net.Conn) {
	defer server.Close()
	buf := make([]byte, 32<<10)
	var carry []byte // the last bytes forwarded, for a marker split across reads
	for {
		n, err := client.Read(buf)
		if n > 0 {
			data := append(carry, buf[:n]...)
			if f, i := p.take(data); f != nil {
				// data[:len(carry)] is forwarded already.
				from := len(carry)
				switch f.kind {
				case faultDrop:
					end := min(len(data), i+f.after)
					if end > from {
						server.Write(data[from:end])
					}
					if i+f.after <= len(data) {
						client.Close()
						return
					}
					// Forward the rest of the count, then cut.
					left := i + f.after - len(data)
					server.Write(data[end:])
					io.CopyN(server, client, int64(left))
					client.Close()
					return
				case fault500:
					if i > from {
						server.Write(data[from:i])
					}
					body := "<Error><Code>InternalError</Code><Message>injected by the test</Message></Error>"
					fmt.Fprintf(client, "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/xml\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
					client.Close()
					return
				case faultStall:
					if i > from {
						server.Write(data[from:i])
					}
					io.Copy(io.Discard, client) // until the client gives up, or the proxy closes
					return
				}
			}
			if _, err := server.Write(buf[:n]); err != nil {
				client.Close()
				return
			}
			keep := min(len(data), 256)
			carry = append(carry[:0], data[len(data)-keep:]...)
		}
		if err != nil {
			return
		}
	}
}
