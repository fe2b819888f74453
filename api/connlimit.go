package api

import (
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// Connection limits.
const (
	// MaxConnections caps the connections the server holds open at once.
	MaxConnections = 1024
	// ReservedFiles are the file descriptors kept free of connections for
	// the rest of the process (loading snapshots, logs, the listener): the
	// cap is lowered to the process's file limit less these.
	ReservedFiles = 64
)

// connCap is the connection cap under the process's file limit:
// MaxConnections, or the soft RLIMIT_NOFILE less ReservedFiles when that
// is lower (at least 1).
func connCap() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > uint64(MaxConnections+ReservedFiles) {
		return MaxConnections
	}
	return max(1, int(rl.Cur)-ReservedFiles)
}

// connLimiter caps the connections a server holds open. It wraps the
// server's listener, and the server's ConnState hook (track) tells it what
// each connection is doing. A connection arriving at the cap takes the
// place of the one idle longest (a keep-alive between requests), else of
// the oldest that has not sent a request yet (a slow client); when every
// connection is in a request, Accept waits for one to end. So a new
// client (a health check) is answered however many idle connections are
// held, and the process never runs out of file descriptors.
type connLimiter struct {
	net.Listener
	max int

	mu    sync.Mutex
	conns map[net.Conn]*connEntry
	freed chan struct{} // a tracked connection closed
	done  chan struct{} // the listener closed
	once  sync.Once
}

type connEntry struct {
	state http.ConnState
	since time.Time
}

func newConnLimiter(ln net.Listener, max int) *connLimiter {
	return &connLimiter{Listener: ln, max: max, conns: map[net.Conn]*connEntry{},
		freed: make(chan struct{}, 1), done: make(chan struct{})}
}

func (l *connLimiter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	for {
		l.mu.Lock()
		if len(l.conns) < l.max {
			l.conns[c] = &connEntry{http.StateNew, time.Now()}
			l.mu.Unlock()
			return c, nil
		}
		if victim := l.evictable(); victim != nil {
			delete(l.conns, victim)
			l.mu.Unlock()
			victim.Close()
			continue
		}
		l.mu.Unlock()
		select {
		case <-l.freed:
		case <-l.done:
			c.Close()
			return nil, net.ErrClosed
		}
	}
}

// evictable is the connection idle longest, else the oldest that has not
// sent a request; nil when all are in a request. l.mu is held.
func (l *connLimiter) evictable() net.Conn {
	var best net.Conn
	var bestE *connEntry
	for c, e := range l.conns {
		if e.state != http.StateIdle && e.state != http.StateNew {
			continue
		}
		if best == nil || e.state == http.StateIdle && bestE.state == http.StateNew ||
			e.state == bestE.state && e.since.Before(bestE.since) {
			best, bestE = c, e
		}
	}
	return best
}

// track is the server's ConnState hook.
func (l *connLimiter) track(c net.Conn, s http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.conns[c]
	if !ok {
		return
	}
	switch s {
	case http.StateClosed, http.StateHijacked:
		delete(l.conns, c)
		select {
		case l.freed <- struct{}{}:
		default:
		}
	default:
		e.state, e.since = s, time.Now()
	}
}

func (l *connLimiter) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}
