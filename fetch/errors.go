package fetch

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Sentinels for errors.Is on the errors this package returns.
var (
	// ErrTooLarge: the body was larger than the cap for its source.
	ErrTooLarge = errors.New("fetch: body larger than the cap")
	// ErrNotJSON: a .json source answered with something that is not JSON.
	ErrNotJSON = errors.New("fetch: body is not JSON")
	// ErrEmpty: a .json source answered with an empty body.
	ErrEmpty = errors.New("fetch: empty body")
)

// Error is a failed HTTP fetch. Its message names the URL, the last status
// or error, and how many GETs were made:
//
//	fetch https://host/public/data/index.json: 404 Not Found after 1 attempt
type Error struct {
	URL      string // the URL asked for, without credentials
	Status   int    // the last HTTP status code; 0 when no answer came
	Attempts int    // GETs made; 0 when the failure came while streaming a body
	Err      error  // what went wrong
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("fetch ")
	b.WriteString(e.URL)
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	if e.Attempts > 0 {
		b.WriteString(" after ")
		b.WriteString(strconv.Itoa(e.Attempts))
		if e.Attempts == 1 {
			b.WriteString(" attempt")
		} else {
			b.WriteString(" attempts")
		}
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// capError is a body that grew past its cap.
type capError struct {
	cap           int64
	contentLength int64 // the announced length, or -1 when it was found reading
	size          int64 // a local file's size, or -1 when it was found reading
}

func (e capError) Error() string {
	switch {
	case e.contentLength > 0:
		return fmt.Sprintf("body of %d bytes (Content-Length) is larger than the %s cap", e.contentLength, size(e.cap))
	case e.size > 0:
		return fmt.Sprintf("file of %d bytes is larger than the %s cap", e.size, size(e.cap))
	case e.size < 0:
		return "file larger than the " + size(e.cap) + " cap"
	}
	return "body larger than the " + size(e.cap) + " cap"
}

func (e capError) Is(target error) bool { return target == ErrTooLarge }

// redirectError is a redirect this package refuses to follow.
type redirectError struct{ from, to, why string }

func (e redirectError) Error() string {
	return fmt.Sprintf("redirect from %s to %s refused: %s", e.from, e.to, e.why)
}

// size formats a byte count the way the caps are documented: "16 MiB".
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// statusText is "404 Not Found" for a response, also when the server sent
// an empty reason phrase.
func statusText(resp *http.Response) string {
	if resp.Status != "" && resp.Status != strconv.Itoa(resp.StatusCode) {
		return resp.Status
	}
	return strconv.Itoa(resp.StatusCode) + " " + http.StatusText(resp.StatusCode)
}
