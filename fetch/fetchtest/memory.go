package fetchtest

import (
	"context"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// NewMemoryServer is NewServer over in-memory connections (net.Pipe)
// rather than a socket: a test can run it inside a testing/synctest
// bubble, where every wait of fetch and of the faults (Delay, Stall,
// Retry-After, the bounds) passes in the bubble's fake time, so that what
// the test asserts of durations does not depend on the machine's speed.
// Create it inside the bubble; Source then dials it. Its URL is
// "http://fetchtest.invalid".
func NewMemoryServer(t testing.TB, root string) *Server {
	t.Helper()
	s := newServer(t, root)
	l := &memoryListener{conns: make(chan net.Conn), closed: make(chan struct{})}
	srv := &http.Server{Handler: http.HandlerFunc(s.serve)}
	go srv.Serve(l)
	s.URL = "http://" + memoryHost
	s.dial = l.dial
	t.Cleanup(func() {
		srv.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, tr := range s.transports {
			tr.CloseIdleConnections()
		}
	})
	return s
}

const memoryHost = "fetchtest.invalid"

// memoryTransport is the transport fetch makes by default (Timeout on
// dialing and on response headers, no transparent gzip), dialing s.
func (s *Server) memoryTransport(timeout time.Duration) http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.DialContext = s.dial
	t.ResponseHeaderTimeout = timeout
	t.DisableCompression = true
	s.mu.Lock()
	s.transports = append(s.transports, t)
	s.mu.Unlock()
	return t
}

// memoryListener hands the server one end of a net.Pipe per dial.
type memoryListener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func (l *memoryListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *memoryListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *memoryListener) Addr() net.Addr { return memoryAddr{} }

func (l *memoryListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.closed:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type memoryAddr struct{}

func (memoryAddr) Network() string { return "memory" }
func (memoryAddr) String() string  { return memoryHost }
