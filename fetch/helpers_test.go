package fetch_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/fetch/fetchtest"
)

// Files of the fake leaderboard most tests serve.
var (
	indexJSON   = `{"last_updated":"2026-02-16","tasks":["gpqa","lm-arena-chat"]}` + "\n"
	gpqaJSON    = `{"task":"gpqa","configurations":[{"model":"m","energy_j":12.5}]}` + "\n"
	commitsJSON = `[{"sha":"7885788e837b80ad172e02e6e8c47e8d0b85520e"}]` + "\n"
)

// newServer serves a small fake leaderboard from a temporary folder.
func newServer(t *testing.T) *fetchtest.Server {
	t.Helper()
	return fetchtest.NewServer(t, leaderboardTree(t))
}

// leaderboardTree lays out the small leaderboard the servers serve.
func leaderboardTree(t *testing.T) string {
	t.Helper()
	return writeTree(t, map[string]string{
		"index.json":      indexJSON,
		"commits.json":    commitsJSON,
		"tasks/gpqa.json": gpqaJSON,
	})
}

// newMemoryServer is newServer over in-memory connections, for a test in a
// testing/synctest bubble.
func newMemoryServer(t *testing.T) *fetchtest.Server {
	t.Helper()
	return fetchtest.NewMemoryServer(t, leaderboardTree(t))
}

// writeTree writes files (slash paths) below a new temporary folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// indexPath is the URL path of leaderboard/index.json on a fetchtest server.
const indexPath = fetchtest.LeaderboardPrefix + "index.json"

// logs collects a logger's JSON records.
type logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// records parses the collected records.
func (l *logs) records(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.Lines(l.String()) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, rec)
	}
	return out
}

func newLogger() (*slog.Logger, *logs) {
	l := &logs{}
	return slog.New(slog.NewJSONHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug})), l
}

// wantErr fails unless err is non-nil and contains every part.
func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one containing %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not contain %q", err, p)
		}
	}
}

var _ fetch.Source = (*fetch.HTTP)(nil)
