package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/fetch/fetchtest"
)

type stubSource struct{ data string }

func (s stubSource) Open(ctx context.Context, name string) (*fetch.Body, error) {
	return &fetch.Body{ReadCloser: io.NopCloser(strings.NewReader(s.data)), URL: "https://example/" + name}, nil
}

// oneByteReader forces many small reads, as a slow download gives.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { c.t = c.t.Add(100 * time.Millisecond); return c.t }

func TestProgressLine(t *testing.T) {
	var w bytes.Buffer
	c := &clock{t: time.Unix(0, 0)}
	src := progressSource{Source: stubSource{data: strings.Repeat("x", 3_000_000)}, w: &w, now: c.now}
	b, err := src.Open(context.Background(), fetch.EmberYearly)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 500_000)
	n := 0
	for {
		k, err := b.Read(buf)
		n += k
		if err == io.EOF {
			break
		}
	}
	b.Close()
	out := w.String()
	if n != 3_000_000 {
		t.Fatalf("read %d bytes through the progress reader, want 3000000", n)
	}
	if !strings.Contains(out, "\ryearly_full_release_long_format.csv: 3.0 MB") || !strings.HasSuffix(out, "\n") {
		t.Errorf("progress output %q does not end with the total and a newline", out)
	}
	if strings.Count(out, "\r") < 2 {
		t.Errorf("progress output %q was drawn fewer than twice", out)
	}
}

func TestProgressQuietWhenNotATerminal(t *testing.T) {
	if isTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is taken for a terminal")
	}
}

// TestProgressKeepsRetries: a JSON body dropped mid-way is fetched again
// through the progress wrapper, as without it.
func TestProgressKeepsRetries(t *testing.T) {
	srv := fetchtest.NewServer(t, smallLB(t))
	srv.Fault(fetchtest.LeaderboardPrefix+"index.json", fetchtest.Fault{Drop: 100, Times: 1})
	var w bytes.Buffer
	src := progressSource{Source: srv.Source(fetch.HTTPOptions{}), w: &w, now: time.Now}
	f, err := fetch.ReadAll(context.Background(), src, fetch.LeaderboardIndex)
	if err != nil {
		t.Fatalf("ReadAll through the progress wrapper: %v", err)
	}
	if hits := srv.Hits(fetchtest.LeaderboardPrefix + "index.json"); hits != 2 || len(f.Data) < 1000 {
		t.Errorf("%d requests, %d bytes; want the dropped body fetched again", hits, len(f.Data))
	}
}
