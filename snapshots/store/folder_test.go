package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/snapshots/store"
)

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// TestFolderEntries: a folder's dated entries, a folder or not, each
// that cannot be a release with the reason; and the latest release before
// a date among them.
func TestFolderEntries(t *testing.T) {
	out := t.TempDir()
	for _, d := range []string{"2026-01-01", "2026-02-01", "2026-03-01", ".staging-2026-02-20-x", "2026-02-15.bak", "notes", "2026-13-01"} {
		os.MkdirAll(filepath.Join(out, d), 0o755)
	}
	os.WriteFile(filepath.Join(out, "2026-02-10"), nil, 0o644) // a file, not a folder
	os.Symlink(filepath.Join(out, "2026-01-01"), filepath.Join(out, "2026-02-20"))
	entries, err := store.Folder(out).Entries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range entries {
		got[e.Date] = ""
		if e.Err != nil {
			got[e.Date] = e.Err.Error()
		}
	}
	want := map[string]string{"2026-01-01": "", "2026-02-01": "", "2026-03-01": "",
		"2026-02-10": "2026-02-10 is a file, not a snapshot folder",
		"2026-02-20": "the dated folder is a symbolic link; a snapshot folder must be a real folder"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	for _, tc := range []struct{ date, want string }{
		{"2026-01-01", ""},
		{"2026-01-02", "2026-01-01"},
		{"2026-02-28", "2026-02-01"},
		{"2026-03-01", "2026-02-01"},
		{"2027-01-01", "2026-03-01"},
	} {
		got, err := store.LatestBefore(context.Background(), store.Folder(out), tc.date)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("LatestBefore(%s) = %q, want %q", tc.date, got, tc.want)
		}
	}
	if name := store.Folder(out).Name("2026-01-01"); !strings.HasSuffix(name, filepath.Join(filepath.Base(out), "2026-01-01")) {
		t.Errorf("Name = %q", name)
	}
}
