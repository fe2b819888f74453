package fetchtest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// HTMLPage is an HTML error page, as a proxy or a CDN serves in place of a
// file, often with status 200.
const HTMLPage = "<!DOCTYPE html>\n<html><head><title>Service unavailable</title></head>\n" +
	"<body><h1>Please try again later</h1></body></html>\n"

// Fault changes how the server answers a path. Fields combine: a Fault
// with Status 503 and RetryAfter "1" answers 503 with that header; one with
// Gzip and Truncate sends part of the gzip stream.
type Fault struct {
	// Times is how many requests this fault answers before the path's next
	// fault (or the file) takes over. Zero: every request from now on.
	Times int

	// Status answers with this status. With no Body, a non-2xx status
	// sends its status text; a 2xx status sends the file. Zero: 200.
	Status int
	// Header adds headers ("X-Ratelimit-Remaining": {"0"}).
	Header http.Header
	// RetryAfter sets the Retry-After header ("1", or an HTTP date).
	RetryAfter string
	// Body is sent instead of the file (HTMLPage, say).
	Body []byte
	// ContentType overrides the Content-Type the file name implies.
	ContentType string
	// Redirect answers with a redirect (Status, or 302) to this URL or path.
	Redirect string

	// Delay holds the answer back before its headers (cut short when the
	// client goes away).
	Delay time.Duration
	// StallAfter and Stall send StallAfter bytes of the body, then pause
	// for Stall before the rest.
	StallAfter int
	Stall      time.Duration
	// DripBytes and DripEvery send the body slowly: DripBytes at a time,
	// one piece every DripEvery, so it never stalls for long but takes
	// len/DripBytes × DripEvery in all.
	DripBytes int
	DripEvery time.Duration

	// Gzip sends the body gzip-encoded (Content-Encoding: gzip), whatever
	// the request's Accept-Encoding.
	Gzip bool
	// Chunked sends the body without a Content-Length.
	Chunked bool
	// Truncate, when > 0, announces the whole body's Content-Length but
	// sends only its first Truncate bytes, then closes the connection.
	Truncate int
	// Drop, when > 0, sends the body chunked, its first Drop bytes only,
	// then drops the connection without the closing chunk.
	Drop int
	// Hangup closes the connection without answering (after any Delay).
	Hangup bool

	used int
}

// Fault queues faults for urlPath ("/public/data/index.json"), used in
// order; the path serves its file again once they are used up. A fault
// with Times 0 answers every later request, so it ends the queue.
func (s *Server) Fault(urlPath string, faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range faults {
		f.used = 0
		s.faults[urlPath] = append(s.faults[urlPath], &f)
	}
}

// FailWith makes the next requests for urlPath answer with statuses, one
// each, in order; later requests get the file.
func (s *Server) FailWith(urlPath string, statuses ...int) {
	faults := make([]Fault, len(statuses))
	for i, code := range statuses {
		faults[i] = Fault{Status: code, Times: 1}
	}
	s.Fault(urlPath, faults...)
}

// ClearFaults drops urlPath's queued faults.
func (s *Server) ClearFaults(urlPath string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.faults, urlPath)
}

// nextFault takes the fault that answers this request, nil for none.
// The caller holds s.mu.
func (s *Server) nextFault(urlPath string) *Fault {
	q := s.faults[urlPath]
	if len(q) == 0 {
		return nil
	}
	f := q[0]
	if f.Times > 0 {
		f.used++
		if f.used >= f.Times {
			s.faults[urlPath] = q[1:]
		}
	}
	c := *f
	return &c
}

// serve answers one request for file under fault f (the zero Fault serves
// the file plainly).
func (f *Fault) serve(w http.ResponseWriter, r *http.Request, file string) {
	status, body, ctype := f.Status, f.Body, f.ContentType
	if f.Redirect != "" && status == 0 {
		status = http.StatusFound
	}
	if body == nil {
		switch {
		case f.Redirect != "":
		case status == 0 || status/100 == 2:
			data, ok := readFile(file)
			if !ok {
				status, body, ctype = http.StatusNotFound, []byte("404 page not found\n"), "text/plain; charset=utf-8"
				break
			}
			body = data
			if ctype == "" {
				ctype = contentType(file)
			}
		default:
			body = []byte(strconv.Itoa(status) + " " + http.StatusText(status) + "\n")
			if ctype == "" {
				ctype = "text/plain; charset=utf-8"
			}
		}
	}
	if status == 0 {
		status = http.StatusOK
	}
	if ctype == "" && bytes.HasPrefix(bytes.TrimSpace(body), []byte("<")) {
		ctype = "text/html; charset=utf-8"
	}

	if f.Delay > 0 && !sleep(r, f.Delay) {
		return
	}

	h := w.Header()
	for k, vs := range f.Header {
		h[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	if f.RetryAfter != "" {
		h.Set("Retry-After", f.RetryAfter)
	}
	if ctype != "" {
		h.Set("Content-Type", ctype)
	}
	if f.Redirect != "" {
		h.Set("Location", f.Redirect)
	}
	if f.Gzip {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(body)
		zw.Close()
		body = buf.Bytes()
		h.Set("Content-Encoding", "gzip")
	}

	if f.Truncate > 0 || f.Drop > 0 || f.Hangup {
		f.cut(w, status, body)
		return
	}
	if !f.Chunked {
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(status)
	if r.Method == http.MethodHead {
		return
	}
	flusher, _ := w.(http.Flusher)
	if f.Chunked && flusher != nil {
		flusher.Flush() // commits to chunked encoding
	}
	if f.StallAfter > 0 && f.Stall > 0 {
		n := min(f.StallAfter, len(body))
		w.Write(body[:n])
		if flusher != nil {
			flusher.Flush()
		}
		if !sleep(r, f.Stall) {
			return
		}
		body = body[n:]
	}
	if f.DripBytes > 0 && f.DripEvery > 0 {
		for len(body) > 0 {
			n := min(f.DripBytes, len(body))
			if _, err := w.Write(body[:n]); err != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
			body = body[n:]
			if len(body) > 0 && !sleep(r, f.DripEvery) {
				return
			}
		}
		return
	}
	w.Write(body)
}

// cut takes over the connection to send a body that ends early.
func (f *Fault) cut(w http.ResponseWriter, status int, body []byte) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("fetchtest: the connection cannot be hijacked")
	}
	h := w.Header().Clone()
	conn, bw, err := hj.Hijack()
	if err != nil {
		panic("fetchtest: hijack: " + err.Error())
	}
	defer conn.Close()
	if f.Hangup {
		return
	}
	fmt.Fprintf(bw, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	h.Del("Content-Length")
	h.Set("Connection", "close")
	if f.Drop > 0 {
		h.Set("Transfer-Encoding", "chunked")
	} else {
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	h.Write(bw)
	bw.WriteString("\r\n")
	if f.Drop > 0 {
		n := min(f.Drop, len(body))
		fmt.Fprintf(bw, "%x\r\n", n)
		bw.Write(body[:n])
		bw.WriteString("\r\n")
	} else {
		bw.Write(body[:min(f.Truncate, len(body))])
	}
	bw.Flush()
}

// sleep waits d, or until the client goes away (false).
func sleep(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}
