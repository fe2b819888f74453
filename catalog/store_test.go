package catalog

import (
	"context"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// indexedStore is a folder of dated snapshots behind an index that lists
// each release's manifest sha256, as a bucket's releases.json does; it
// counts the manifests read.
type indexedStore struct {
	store.Folder
	listed    map[string]string // date -> manifest sha256
	manifests atomic.Int32
}

func (s *indexedStore) Entries(ctx context.Context) ([]store.Entry, error) {
	entries, err := s.Folder.Entries(ctx)
	for i := range entries {
		entries[i].ManifestSHA256 = s.listed[entries[i].Date]
	}
	return entries, err
}

func (s *indexedStore) FS(date string) fs.FS { return countingFS{s.Folder.FS(date), &s.manifests} }

type countingFS struct {
	fs.FS
	n *atomic.Int32
}

func (c countingFS) Open(name string) (fs.File, error) {
	if name == format.ManifestPath {
		c.n.Add(1)
	}
	return c.FS.Open(name)
}

// TestRescanByIndex: over a store whose index lists each release's
// manifest sha256, a rescan reads no manifest of a release it serves,
// and loads a release again once the index lists another manifest for it
// (which, a served date being immutable, it logs and does not serve).
func TestRescanByIndex(t *testing.T) {
	out := t.TempDir()
	catalogtest.BuildSmall(t, out, catalogtest.Date, catalogtest.SevenGrids())
	rel, err := store.Open(t.Context(), store.Folder(out).FS(catalogtest.Date), catalogtest.Date)
	if err != nil {
		t.Fatal(err)
	}
	st := &indexedStore{Folder: store.Folder(out), listed: map[string]string{catalogtest.Date: rel.ID.ManifestSHA256}}
	c, err := OpenStore(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Dates(); len(got) != 1 {
		t.Fatalf("served %v", got)
	}
	read := st.manifests.Load()
	for range 3 {
		rescan(t, c)
	}
	if n := st.manifests.Load() - read; n != 0 {
		t.Errorf("three rescans read %d manifests of a release the index lists as served; want none", n)
	}
	st.listed[catalogtest.Date] = strings.Repeat("0", 64) // another manifest
	rescan(t, c)
	if n := st.manifests.Load() - read; n == 0 {
		t.Error("a rescan after the index changed read no manifest")
	}
	if s, err := c.Snapshot(catalogtest.Date); err != nil || s.Info().Manifest != rel.ID.ManifestSHA256 {
		t.Errorf("after the index changed: %v; want the copy loaded first", err)
	}
}
