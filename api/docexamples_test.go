package api

import (
	"maps"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
)

// apiDoc is the API's documentation, whose examples TestDocExamples runs.
const apiDoc = "../docs/api.md"

// TestDocExamples: every `$ curl` example of docs/api.md is what the API
// answers on the snapshot `make sample` builds: each line the example shows
// (a line "..." stands for lines left out) is a line of the answer, in the
// same order; a trailing comma is ignored, as leaving lines out moves it.
// `-i` shows the status line and the headers before the body; `-H` sends
// a header.
func TestDocExamples(t *testing.T) {
	url, _ := server(t, catalogtest.SharedReal(t))
	b, err := os.ReadFile(apiDoc)
	if err != nil {
		t.Fatal(err)
	}
	examples := docExamples(string(b))
	if len(examples) < 3 {
		t.Fatalf("%s: %d curl examples found, want 3 or more", apiDoc, len(examples))
	}
	for _, ex := range examples {
		args := shellWords(strings.TrimPrefix(ex.command, "$ curl "))
		var header []string
		withHead := false
		target := ""
		for i := 0; i < len(args); i++ {
			switch args[i] {
			case "-i":
				withHead = true
			case "-H":
				i++
				name, value, _ := strings.Cut(args[i], ":")
				header = append(header, name, strings.TrimSpace(value))
			default:
				target = args[i]
			}
		}
		path, ok := strings.CutPrefix(target, "localhost:8080")
		if !ok {
			t.Errorf("%s: %q asks no localhost:8080 URL", apiDoc, ex.command)
			continue
		}
		a := get(t, url+path, header...)
		answer := a.body
		if withHead {
			var head strings.Builder
			head.WriteString("HTTP/1.1 " + strconv.Itoa(a.status) + " " + http.StatusText(a.status) + "\n")
			for _, k := range slices.Sorted(maps.Keys(a.header)) {
				for _, v := range a.header[k] {
					head.WriteString(k + ": " + v + "\n")
				}
			}
			answer = head.String() + "\n" + answer
		}
		if missing, ok := shownIn(ex.shown, answer); !ok {
			t.Errorf("%s: %s\nshows %q, not in the answer's lines in that order:\n%s", apiDoc, ex.command, missing, answer)
		}
	}
}

// docExample is a command of a documentation's example and the lines it
// shows as its output.
type docExample struct {
	command string
	shown   []string
}

// docExamples are the `$ curl` commands of doc's code blocks, each with
// the lines below it up to the next command or the end of the block.
func docExamples(doc string) []docExample {
	var out []docExample
	var cur *docExample
	for line := range strings.Lines(doc) {
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "$ curl "):
			out = append(out, docExample{command: line})
			cur = &out[len(out)-1]
		case strings.HasPrefix(line, "```"), strings.HasPrefix(line, "$ "):
			cur = nil
		case cur != nil:
			cur.shown = append(cur.shown, line)
		}
	}
	return out
}

// shownIn reports whether the lines shown, but for "..." lines, are lines
// of answer in that order (compared without the spaces around them and a
// trailing comma); if not, it returns the first that is not.
func shownIn(shown []string, answer string) (string, bool) {
	norm := func(s string) string { return strings.TrimSuffix(strings.TrimSpace(s), ",") }
	lines := strings.Split(answer, "\n")
	i := 0
	for _, s := range shown {
		if norm(s) == "..." {
			continue
		}
		for i < len(lines) && norm(lines[i]) != norm(s) {
			i++
		}
		if i == len(lines) {
			return s, false
		}
		i++
	}
	return "", true
}

// shellWords splits a command line into words, a single-quoted string
// being one word without its quotes.
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
			in = true
		case r == ' ' && !quoted:
			if in {
				words = append(words, w.String())
				w.Reset()
			}
			in = false
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words
}
