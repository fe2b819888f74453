package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// File is a whole upstream file, read into memory.
type File struct {
	Name      string    // the source name: "leaderboard/index.json"
	URL       string    // where it came from (Body.URL)
	FinalURL  string    // the URL that answered, after redirects (Body.FinalURL)
	Local     string    // the local file read (Body.Local); "" for a download
	Retrieved time.Time // when (Body.Retrieved); zero when the source does not know
	Data      []byte
}

// ReadAll reads the named file whole. Names ending in ".json" must hold
// JSON: an empty body, or one that is not valid JSON (an HTML error page
// served with status 200), is an error naming the URL and the status.
//
// When src is a ReadAllSource, ReadAll calls its ReadAll; otherwise it
// Opens the file and reads it to its end. From an *HTTP source, a body that
// fails mid-way (a dropped connection, a body shorter than its
// Content-Length, a stall) makes ReadAll GET the file again, within the
// same retry count and total bound as the GET itself. Use it for the small
// JSON files; stream the big CSV with Open, which fails closed instead.
func ReadAll(ctx context.Context, src Source, name string) (*File, error) {
	if r, ok := src.(ReadAllSource); ok {
		return r.ReadAll(ctx, name)
	}
	body, err := src.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	data, err := readBody(body, body.Size)
	if err != nil {
		return nil, fmt.Errorf("fetch: reading %s: %w", name, err)
	}
	f := &File{Name: name, URL: body.URL, FinalURL: body.FinalURL, Local: body.Local, Retrieved: body.Retrieved, Data: data}
	if err := checkJSON(f, 0); err != nil {
		return nil, err
	}
	return f, nil
}

// ReadAllSource is a Source that reads a whole file better than by Open and
// reading to the end: *HTTP GETs it again when its body fails mid-way. Its
// ReadAll does what the function ReadAll does, JSON check included. A
// Source that wraps another (a progress display for streamed files, say)
// implements it by calling ReadAll on the one it wraps.
type ReadAllSource interface {
	Source
	ReadAll(ctx context.Context, name string) (*File, error)
}

// maxPrealloc bounds the buffer readBody makes in advance; a body larger
// than that grows it as its bytes come.
const maxPrealloc = 1 << 30

// readBody reads r to its end, as io.ReadAll does. size, when positive, is
// the length announced in advance (Body.Size): the buffer is made that
// large, plus a byte to see the end in, once, rather than grown from 512
// bytes by copies (for a 22 MB task file, some 40 MB of garbage). A body
// longer than announced is read all the same.
func readBody(r io.Reader, size int64) ([]byte, error) {
	if size <= 0 {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, min(size, maxPrealloc)+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) { // longer than announced: grow
			b = append(b, 0)[:len(b)]
		}
	}
}

// checkJSON checks that a .json file holds JSON. An HTTP fetch (status > 0)
// is described by URL and status, another source's file by name and local
// path.
func checkJSON(f *File, status int) error {
	if !strings.HasSuffix(f.Name, ".json") {
		return nil
	}
	var empty, notJSON string
	if status > 0 {
		empty = fmt.Sprintf("fetch %s: status %d with an empty body", f.URL, status)
		notJSON = fmt.Sprintf("fetch %s: status %d but the body is not JSON", f.URL, status)
	} else {
		empty = fmt.Sprintf("fetch: reading %s (from %s): empty body", f.Name, where(f.Local, f.URL))
		notJSON = fmt.Sprintf("fetch: reading %s (from %s): the body is not JSON", f.Name, where(f.Local, f.URL))
	}
	trimmed := bytes.TrimLeft(f.Data, " \t\r\n")
	switch {
	case len(f.Data) == 0:
		return &jsonError{msg: empty, kind: ErrEmpty}
	case len(trimmed) == 0:
		return &jsonError{msg: fmt.Sprintf("%s (%d bytes of white space)", empty, len(f.Data)), kind: ErrEmpty}
	case trimmed[0] == '<' || !json.Valid(f.Data):
		msg := fmt.Sprintf("%s (starts %q)", notJSON, head(trimmed, 40))
		if trimmed[0] == '{' || trimmed[0] == '[' {
			msg += syntaxPosition(f.Data) // broken JSON, rather than an error page
		}
		return &jsonError{msg: msg, kind: ErrNotJSON}
	}
	return nil
}

// syntaxPosition says where data stops being JSON:
// ": line L, column C: what the decoder found" ("" if it cannot tell).
func syntaxPosition(data []byte) string {
	var v json.RawMessage
	var se *json.SyntaxError
	if err := json.Unmarshal(data, &v); !errors.As(err, &se) {
		return ""
	}
	off := min(int(se.Offset), len(data))
	if off > 0 && strings.HasPrefix(se.Error(), "invalid character") {
		off-- // the offset counts the bad character itself
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := off - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return fmt.Sprintf(": line %d, column %d: %v", line, col, se)
}

type jsonError struct {
	msg  string
	kind error
}

func (e *jsonError) Error() string        { return e.msg }
func (e *jsonError) Is(target error) bool { return target == e.kind }

// head is the first n bytes of b as text, with "…" when there is more.
func head(b []byte, n int) string {
	if len(b) <= n {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return strings.ToValidUTF8(string(b[:cut]), "\uFFFD") + "…"
}
